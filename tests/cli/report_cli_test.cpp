// What `ghsift report` says on the terminal beside writing its pages: a report whose every table
// is empty (a range or repository that matches no report) says so, with the query that shows the
// months the store's reports were created in, so that a mistyped range is not taken for a finding.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace ghsift::testing {
namespace {

TEST(ReportCliTest, AReportOfNoMatchingReportSaysItsTablesAreEmpty) {
  const OneHourStore store("2024-03-05-14.json",
                           OpenedIssueRecord(R"("Training is 10x slower after the upgrade")", R"("words")", R"("bug")") +
                               "\n");
  const auto outside = store.Run("report --out " + (store / "out") + " --from 2030-01");
  EXPECT_EQ(outside.exit_code, 0) << outside.output;
  EXPECT_NE(outside.output.find("ghsift: note: every table is empty: no report of the store matches --from 2030-01 "
                                "(`ghsift query --store " + store.Store() +
                                " --by month --format csv` lists the months its reports were created in)\n"),
            std::string::npos)
      << outside.output;
  const auto within = store.Run("report --out " + (store / "out") + " --from 2024-03 --to 2024-03");
  EXPECT_EQ(within.exit_code, 0) << within.output;
  EXPECT_EQ(within.output.find("every table is empty"), std::string::npos) << within.output;
  const OneHourStore empty("2024-03-05-15.json", "");
  const auto none = empty.Run("report --out " + (empty / "out"));
  EXPECT_EQ(none.exit_code, 0) << none.output;
  EXPECT_NE(none.output.find("ghsift: note: every table is empty: the store holds no report\n"), std::string::npos)
      << none.output;
}

}  // namespace
}  // namespace ghsift::testing
