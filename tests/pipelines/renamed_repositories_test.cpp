// A tracked repository is followed through its renames: events under a former name (or its
// GitHub id) count toward it whatever order the hours are ingested in, and `--repo` with any of
// its names answers with all of it. On the real 2016 hours of ../shared (read in place), the
// MXNet reports filed under dmlc/mxnet are in the default scope.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_support.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;
using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;

//! A modern IssuesEvent of repository `repo` (id `repo_id`).
std::string Issue(int64_t event_id, int64_t repo_id, const std::string& repo, int number, const std::string& action,
                  const std::string& title, const std::string& created, const std::string& time) {
  std::ostringstream out;
  const bool closed = action == "closed";
  out << R"({"id":")" << event_id << R"(","type":"IssuesEvent","actor":{"id":1,"login":"u"},"repo":{"id":)"
      << repo_id << R"(,"name":")" << repo << R"("},"payload":{"action":")" << action << R"(","issue":{"number":)"
      << number << R"(,"title":")" << title << R"(","body":"words","state":")" << (closed ? "closed" : "open")
      << R"(","labels":[],"created_at":")" << created << R"(","closed_at":)"
      << (closed ? "\"" + time + "\"" : "null") << R"(}},"public":true,"created_at":")" << time << "\"}\n";
  return out.str();
}

std::string Cli(const std::string& args) {
  const auto r = RunCommand(Ghsift() + " " + args);
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.output;
  return r.output;
}

class RenamedRepositoriesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // 2016: MXNet and Keras under the names they had then.
    std::ofstream(dir_ / "2016-01-01-1.json")
        << Issue(1, 34864402, "dmlc/mxnet", 10, "opened", "training is very slow", "2016-01-01T01:00:00Z",
                 "2016-01-01T01:00:00Z")
        << Issue(2, 33015583, "fchollet/keras", 5, "opened", "memory leak in fit", "2016-01-01T01:10:00Z",
                 "2016-01-01T01:10:00Z")
        << Issue(3, 77, "someone/else", 1, "opened", "slow", "2016-01-01T01:20:00Z", "2016-01-01T01:20:00Z");
    // 2018: the same repositories (same ids) under today's names; and another repository that
    // took the freed name dmlc/mxnet.
    std::ofstream(dir_ / "2018-06-01-1.json")
        << Issue(11, 34864402, "apache/incubator-mxnet", 10, "closed", "training is very slow",
                 "2016-01-01T01:00:00Z", "2018-06-01T01:00:00Z")
        << Issue(12, 34864402, "apache/incubator-mxnet", 11, "opened", "wrong results", "2018-06-01T01:05:00Z",
                 "2018-06-01T01:05:00Z")
        << Issue(13, 33015583, "keras-team/keras", 5, "closed", "memory leak in fit", "2016-01-01T01:10:00Z",
                 "2018-06-01T01:10:00Z")
        << Issue(14, 999, "dmlc/mxnet", 1, "opened", "slow", "2018-06-01T01:20:00Z", "2018-06-01T01:20:00Z");
  }

  std::string Ingest(const std::string& store, const std::vector<std::string>& hours) {
    for (const std::string& hour : hours) Cli("ingest -q --store '" + dir_ / store + "' '" + dir_ / hour + "'");
    return dir_ / store;
  }

  TempDir dir_;
};

TEST_F(RenamedRepositoriesTest, FormerNamesCountWhateverTheIngestOrder) {
  const std::string old_first = Ingest("old-first", {"2016-01-01-1.json", "2018-06-01-1.json"});
  const std::string new_first = Ingest("new-first", {"2018-06-01-1.json", "2016-01-01-1.json"});
  const std::string answers = testing::StoreAnswers(old_first);
  EXPECT_EQ(answers, testing::StoreAnswers(new_first));

  // One row per repository, under the latest name the hours show; the other repository now
  // named dmlc/mxnet (id 999) and someone/else are not tracked.
  EXPECT_EQ(Cli("query --kind all --by repo,state --format csv --store '" + new_first + "'"),
            "repo,state,issues\napache/incubator-mxnet,closed,1\napache/incubator-mxnet,open,1\n"
            "keras-team/keras,closed,1\n");
  EXPECT_EQ(Cli("query --metric events --by repo --format csv --store '" + new_first + "'"),
            "repo,events\n(untracked repositories),2\napache/incubator-mxnet,3\nkeras-team/keras,2\n");
  // Every name of the repository, in any case, answers the same.
  const std::string mxnet = Cli("query --kind all --by month,state --format csv --store '" + old_first +
                                "' --repo apache/incubator-mxnet");
  EXPECT_EQ(mxnet, "month,state,issues\n2016-01,closed,1\n2018-06,open,1\n");
  for (const char* name : {"dmlc/mxnet", "apache/mxnet", "DMLC/MXNet"}) {
    EXPECT_EQ(Cli("query --kind all --by month,state --format csv --store '" + old_first + "' --repo " + name), mxnet)
        << name;
  }
  const std::string keras_issues =
      Cli("issues --kind all --limit 0 --format csv --store '" + old_first + "' --repo keras-team/keras");
  EXPECT_NE(keras_issues.find("keras-team/keras,5,"), std::string::npos) << keras_issues;
  EXPECT_EQ(Cli("issues --kind all --limit 0 --format csv --store '" + old_first + "' --repo fchollet/keras"),
            keras_issues);
}

// Only the 2016 hour: the store has never seen today's names, and still answers to them.
TEST_F(RenamedRepositoriesTest, TodaysNameAnswersForHoursUnderTheFormerName) {
  const std::string store = Ingest("store", {"2016-01-01-1.json"});
  const std::string by_former =
      Cli("query --kind all --by repo,state --format csv --store '" + store + "' --repo dmlc/mxnet");
  EXPECT_EQ(by_former, "repo,state,issues\ndmlc/mxnet,open,1\n");
  EXPECT_EQ(Cli("query --kind all --by repo,state --format csv --store '" + store + "' --repo apache/mxnet"), by_former);
  EXPECT_EQ(Cli("query --kind all --by repo,state --format csv --store '" + store + "' --repo keras-team/keras"),
            "repo,state,issues\nfchollet/keras,open,1\n");
}

// The stored scope keeps the former names (the default list's 24 repositories, once each). A
// store built with a list of today's names alone refuses the default list, naming the former
// names that list would now count.
TEST_F(RenamedRepositoriesTest, StoredScopeKeepsFormerNames) {
  const std::string store = Ingest("store", {"2016-01-01-1.json"});
  const std::string stats = Cli("stats --store '" + store + "'");
  EXPECT_NE(stats.find("24 tracked repositories (the default rules/repos.txt)"), std::string::npos) << stats;

  std::ofstream(dir_ / "plain.txt") << "apache/mxnet\nkeras-team/keras\n";
  const std::string plain = dir_ / "plain";
  Cli("ingest -q --repos '" + dir_ / "plain.txt" + "' --store '" + plain + "' '" + dir_ / "2016-01-01-1.json" + "'");
  EXPECT_EQ(Cli("query --metric events --by repo --format csv --store '" + plain + "'"),
            "repo,events\n(untracked repositories),3\n");
  const auto r = RunCommand(Ghsift() + " ingest -q --store '" + plain + "' '" + dir_ / "2018-06-01-1.json" + "'");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("this store was built with another repository scope (--all-repos / --repos / --keep-text) "
                          "(the list given also tracks apache/incubator-mxnet, dmlc/mxnet, fchollet/keras, "),
            std::string::npos)
      << r.output;
}

std::string RealHoursDir() { return std::string(GHSIFT_SOURCE_DIR) + "/../shared/data/gharchive-real/hours"; }

TEST(RenamedRepositoriesRealTest, MxnetReportsOf2016AreInTheDefaultScope) {
  std::vector<std::string> hours;
  for (int h = 1; h <= 4; ++h) {
    const std::string path = RealHoursDir() + "/2016-01-01-" + std::to_string(h) + ".json.gz";
    if (!fs::exists(path)) GTEST_SKIP() << "real hours absent: " << path << " (../shared/data/gharchive-real)";
    hours.push_back(path);
  }
  TempDir dir;
  auto ingest = [&](const std::string& store, const std::string& options) {
    for (const std::string& hour : hours) Cli("ingest -q " + options + " --store '" + dir / store + "' '" + hour + "'");
    return dir / store;
  };
  const std::string store = ingest("default", "");
  // The hours name MXNet dmlc/mxnet (id 34864402): 18 events, 6 reports (#1094, #1100, #1113,
  // #1114, #1129, #1130; #1114 and #1129 closed that night), as the files show them.
  const std::string reports = Cli("query --kind all --by repo,state --format csv --store '" + store +
                                  "' --repo apache/incubator-mxnet");
  EXPECT_EQ(reports, "repo,state,issues\ndmlc/mxnet,closed,2\ndmlc/mxnet,open,4\n");
  for (const char* name : {"dmlc/mxnet", "apache/mxnet"}) {
    EXPECT_EQ(Cli("query --kind all --by repo,state --format csv --store '" + store + "' --repo " + name), reports);
    EXPECT_EQ(Cli("query --metric events --by repo --format csv --store '" + store + "' --repo " + name),
              "repo,events\ndmlc/mxnet,18\n");
    EXPECT_EQ(Cli("issues --kind all --limit 0 --format csv --store '" + store + "' --repo " + name),
              Cli("issues --kind all --limit 0 --format csv --store '" + store + "' --repo apache/incubator-mxnet"));
  }
  // Keras was fchollet/keras: its 3 events (stars) are its own.
  EXPECT_EQ(Cli("query --metric events --by repo --format csv --store '" + store + "' --repo keras-team/keras"),
            "repo,events\nfchollet/keras,3\n");

  // A list of today's names alone leaves them among the untracked repositories, as before.
  std::ofstream(dir / "today.txt") << "apache/incubator-mxnet\nkeras-team/keras\n";
  const std::string today_only = ingest("today-only", "--repos '" + dir / "today.txt" + "'");
  EXPECT_NE(Cli("query --kind all --by repo --format csv --store '" + today_only + "' --repo apache/incubator-mxnet")
                .find("no reports in the store match"),
            std::string::npos);

  // In a store of every repository the default list still knows the renames.
  const std::string all = ingest("all", "--all-repos");
  EXPECT_EQ(Cli("query --kind all --by repo,state --format csv --store '" + all + "' --repo apache/incubator-mxnet"),
            reports);
}

}  // namespace
}  // namespace ghsift
