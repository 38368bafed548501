// `ghsift query --metric a,b --fill-zeros` as a user runs it: one column per metric in table, csv
// and json, and the groups without reports written with 0 (issue 25).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "aggregate/repo_filter.hpp"
#include "common/time_util.hpp"
#include "json/event_extractor.hpp"
#include "query/query.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;

Event MakeReport(int64_t repo_id, std::string_view repo_name, const char* time, int64_t number, std::string_view state) {
  Event e;
  e.type = "IssuesEvent";
  e.kind = EventKindOf(e.type);
  e.repo_id = repo_id;
  e.repo_name = repo_name;
  e.created_at = *ParseIsoTime(time);
  e.has_report = true;
  e.report.kind = ReportKind::kIssue;
  e.report.number = number;
  e.report.created_at = e.created_at;
  e.report.text[Field::kTitle] = "a report";
  e.report.state = state;
  return e;
}

Rule MakeRule(std::string id, std::string tag) {
  Rule r;
  r.id = std::move(id);
  r.tag = std::move(tag);
  r.category = r.tag.substr(0, r.tag.find('/'));
  r.pattern = "x";
  return r;
}

//! A store tracking a/one, b/two and c/three (which has no report):
//!   a/one#1 2024-01-10 open   perf.mem   -> performance
//!   a/one#2 2024-01-20 closed (no rule)  -> not flagged
//!   b/two#3 2024-03-05 open   acc.nan    -> accuracy
//!   b/two#4 2024-03-06 closed perf.slow  -> performance
//! The rule set's problem categories: accuracy, performance, silent (no report has it); stage is a
//! facet.
class QueryMetricsCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::path(::testing::TempDir()) / "ghsift-metrics-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    auto store = Store::Open((fs::path(dir_) / "store").string(), StoreMode::kReadWrite);
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(store).value();
    RuleSet rules;
    rules.rules = {MakeRule("perf.slow", "performance/low-speed"), MakeRule("perf.mem", "performance/memory"),
                   MakeRule("acc.nan", "accuracy/nan-inf"), MakeRule("silent.wrong", "silent/wrong-result"),
                   MakeRule("stage.train", "stage/training")};
    rules.facets = {"stage"};
    ASSERT_TRUE(store_->PutMeta("rules", DecisionModel::FromRuleSet(rules).Serialize()).ok());
    ASSERT_TRUE(store_->PutMeta("scope", RepoFilter::FromNames({"a/one", "b/two", "c/three"}).Describe()).ok());
    FileAggregate a;
    auto report = [&](const Event& e, std::vector<std::string> ids) {
      a.CountEvent(e);
      a.AddReport(e, std::move(ids));
    };
    report(MakeReport(7, "a/one", "2024-01-10T08:00:00Z", 1, "open"), {"perf.mem"});
    report(MakeReport(7, "a/one", "2024-01-20T08:00:00Z", 2, "closed"), {});
    report(MakeReport(8, "b/two", "2024-03-05T08:00:00Z", 3, "open"), {"acc.nan"});
    report(MakeReport(8, "b/two", "2024-03-06T08:00:00Z", 4, "closed"), {"perf.slow"});
    ASSERT_TRUE(store_->CommitFile("a.json.gz", FileEntry{}, a).ok());
  }
  void TearDown() override {
    store_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  using Answer = std::pair<std::string, int>;
  //! stdout of `ghsift query --store STORE ARGS` (stderr apart), and its exit status.
  Answer Query(const std::string& args) {
    store_.reset();  // the binary opens the store
    const std::string command = std::string("'") + GHSIFT_BINARY + "' query --store '" + (fs::path(dir_) / "store").string() +
                                "' " + args + " 2>/dev/null";
    FILE* pipe = ::popen(command.c_str(), "r");
    std::string out;
    char buffer[4096];
    for (size_t n; pipe != nullptr && (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
    const int status = pipe != nullptr ? ::pclose(pipe) : -1;
    return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
  }

  std::string dir_;
  std::unique_ptr<Store> store_;
};

TEST_F(QueryMetricsCliTest, OneColumnPerMetricInCsv) {
  EXPECT_EQ(Query("--by month --metric issues,closed --format csv"),
            Answer("month,issues,closed\n2024-01,2,1\n2024-03,2,1\n", 0));
}

TEST_F(QueryMetricsCliTest, FillZerosInCsvTableAndJson) {
  EXPECT_EQ(Query("--by month --metric issues,closed --fill-zeros --from 2023-12 --to 2024-04 --format csv"),
            Answer("month,issues,closed\n2023-12,0,0\n2024-01,2,1\n2024-02,0,0\n2024-03,2,1\n"
                                        "2024-04,0,0\n",
                                        0));
  EXPECT_EQ(Query("--by repo --fill-zeros --format csv"),
            Answer("repo,issues\na/one,2\nb/two,2\nc/three,0\n", 0));
  const auto [json, code] = Query("--by category --metric issues,closed --fill-zeros --format json");
  EXPECT_EQ(code, 0);
  EXPECT_NE(json.find("\"silent\""), std::string::npos) << json;
  const auto [table, table_code] = Query("--by category --metric issues,closed --fill-zeros");
  EXPECT_EQ(table_code, 0);
  EXPECT_NE(table.find("silent"), std::string::npos) << table;
  EXPECT_NE(table.find("closed"), std::string::npos) << table;
}

TEST_F(QueryMetricsCliTest, AMedianOfNothingIsEmptyInCsvAndNullInJson) {
  EXPECT_EQ(Query("--by month --metric issues,median_days_to_close --fill-zeros --from 2020-01 --to 2020-01 --format csv"),
            Answer("month,issues,median_days_to_close\n2020-01,0,\n", 0));
  const auto [json, code] =
      Query("--by month --metric issues,median_days_to_close --fill-zeros --from 2020-01 --to 2020-01 --format json");
  EXPECT_EQ(code, 0);
  EXPECT_NE(json.find("null"), std::string::npos) << json;
}

TEST_F(QueryMetricsCliTest, AnUnknownOrRepeatedMetricIsAnError) {
  EXPECT_EQ(Query("--metric issues,clsoed").second, 2);
  EXPECT_EQ(Query("--metric issues,issues").second, 2);
}

}  // namespace
}  // namespace ghsift
