// `query --by category` counts the reports whose text the archive does not hold under "(no text)"
// (the first hours of 2011-2012 give issue events without title or body): that row can be asked
// for as shown, so that those reports can be broken down by repository, month or state, and the
// answer equals reading every report. `issues` and `sample` list flagged reports only: they say
// why they list none of them and what counts them.
#include <gtest/gtest.h>

#include <string>

#include "test_support.hpp"

namespace ghsift::testing {
namespace {

//! The numbers of the rows of a `--format csv` answer with one count column, added up.
int64_t Total(const std::string& csv) {
  int64_t total = 0;
  size_t at = csv.find('\n');  // after the header
  while (at != std::string::npos && at + 1 < csv.size()) {
    const size_t end = csv.find('\n', at + 1);
    const std::string line = csv.substr(at + 1, end - at - 1);
    total += std::stoll(line.substr(line.rfind(',') + 1));
    at = end;
  }
  return total;
}

TEST(NoTextCategoryCliTest, TheRowOfReportsWithoutTextCanBeAskedFor) {
  TempDir dir;
  auto r = RunCommand(Ghsift() + " gen --out " + (dir / "hours") + " --hours 3 --events-per-hour 3000 --seed 5 " +
                      "--schema events-2011");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string store = dir / "store";
  r = RunCommand(Ghsift() + " ingest -q --all-repos --store " + store + " " + (dir / "hours"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string query = Ghsift() + " query --store " + store + " --kind all --format csv";

  const auto by_category = RunCommandStdout(query + " --by category");
  ASSERT_EQ(by_category.exit_code, 0) << by_category.output;
  const size_t row = by_category.output.find("\n(no text),");
  ASSERT_NE(row, std::string::npos) << by_category.output;
  const int64_t no_text = std::stoll(by_category.output.substr(row + 11));
  ASSERT_GT(no_text, 10);

  for (const std::string by : {"repo", "month,state", "repo,month"}) {
    const auto rollup = RunCommandStdout(query + " --category '(no text)' --by " + by);
    ASSERT_EQ(rollup.exit_code, 0) << by << ": " << rollup.output;
    EXPECT_EQ(Total(rollup.output), no_text) << by << ": " << rollup.output;
    const auto scan = RunCommandStdout(query + " --category '(no text)' --by " + by + " --scan");
    EXPECT_EQ(scan.output, rollup.output) << by;
  }

  r = RunCommand(Ghsift() + " issues --category '(no text)' --store " + store);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("ghsift: '(no text)' counts the reports whose text the archive does not hold, which no "
                          "rule can flag: `ghsift query --category '(no text)' --by repo,month` counts them; they "
                          "are not listed or drawn\n"),
            std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace ghsift::testing
