// In the default scope (tracked repositories), the events of every other repository are counted
// together under one row: totals stay exact, tracked repositories keep their own counts, and a
// question about an untracked repository says why it has no answer.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;

// "repo,events" CSV lines -> map.
std::map<std::string, int64_t> ByRepo(const std::string& csv) {
  std::map<std::string, int64_t> out;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    const size_t comma = line.rfind(',');
    if (comma != std::string::npos) out[line.substr(0, comma)] = std::stoll(line.substr(comma + 1));
  }
  return out;
}

TEST(UntrackedRepositoriesTest, CountedTogetherWithExactTotals) {
  TempDir dir;
  testing::GenCorpus(dir / "corpus", 2, 2000, 41, "gz");
  for (const char* scope : {"", "--all-repos"}) {
    const auto r = RunCommand(Ghsift() + " ingest -q " + scope + " --store '" + dir / (*scope ? "all" : "tracked") +
                              "' '" + dir / "corpus" + "'");
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  auto query = [&](const std::string& store, const std::string& args) {
    const auto r = RunCommand(Ghsift() + " query --metric events --format csv --store '" + dir / store + "' " + args);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return r.output;
  };
  const std::map<std::string, int64_t> tracked = ByRepo(query("tracked", "--by repo"));
  const std::map<std::string, int64_t> all = ByRepo(query("all", "--by repo"));
  ASSERT_TRUE(tracked.count("(untracked repositories)"));
  int64_t tracked_sum = 0, untracked_in_all = 0;
  for (const auto& [repo, n] : tracked) {
    if (repo == "(untracked repositories)") continue;
    ASSERT_TRUE(all.count(repo)) << repo;
    EXPECT_EQ(n, all.at(repo)) << repo;
    tracked_sum += n;
  }
  for (const auto& [repo, n] : all) {
    if (!tracked.count(repo)) untracked_in_all += n;
  }
  EXPECT_GT(tracked.size(), 2u);  // the generator's tracked repositories have events
  EXPECT_EQ(tracked.at("(untracked repositories)"), untracked_in_all);
  EXPECT_EQ(tracked_sum + untracked_in_all, 4000);
  // Totals by type are those of every repository, and the reports are the same.
  EXPECT_EQ(query("tracked", "--by type"), query("all", "--by type"));

  const auto r = RunCommand(Ghsift() + " query --metric events --store '" + dir / "tracked" + "' --repo nobody/nothing");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("counts the events of all others together, as (untracked repositories) (ingest with "
                          "--all-repos to count each)"),
            std::string::npos)
      << r.output;
}

// A tracked repository of which no event was ingested is answered 0, not refused as unknown
// with advice to count every repository.
TEST(UntrackedRepositoriesTest, TrackedRepositoryWithoutEventsIsZero) {
  TempDir dir;
  testing::GenCorpus(dir / "corpus", 1, 500, 43, "gz");
  ASSERT_EQ(RunCommand("printf 'acme/Never-Seen\\n' > '" + dir / "repos.txt" + "'").exit_code, 0);
  auto r = RunCommand(Ghsift() + " ingest -q --repos '" + dir / "repos.txt" + "' --store '" + dir / "store" + "' '" +
                      dir / "corpus" + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* metric : {"events", "issues"}) {
    r = RunCommand(Ghsift() + " query --metric " + metric + " --format csv --repo acme/never-seen --store '" +
                   dir / "store" + "'");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.output.substr(0, r.output.find("ghsift:")), std::string(metric) + "\n0\n");
  }
  r = RunCommand(Ghsift() + " query --metric events --repo acme/other --store '" + dir / "store" + "'");
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

}  // namespace
}  // namespace ghsift
