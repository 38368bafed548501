// Several metrics over the same groups, and the groups without reports written with 0
// (`query --metric a,b --fill-zeros`, issue 25): the fill values come from the dimension table.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "aggregate/repo_filter.hpp"
#include "common/time_util.hpp"
#include "json/event_extractor.hpp"
#include "query/query_metrics.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;
using Row = std::vector<std::string>;

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
class QueryMetricsTest : public ::testing::Test {
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

  //! The rows as text (dimension values, then each metric: a count, or "-" for no value), asked
  //! of the rollup and of the scan: both must agree.
  std::vector<Row> Ask(QueryOptions o, const std::vector<Metric>& metrics, bool fill) {
    std::vector<Row> answers[2];
    for (const bool rollup : {true, false}) {
      o.use_rollup = rollup;
      auto table = RunQueryMetrics(*store_, o, metrics, fill);
      EXPECT_TRUE(table.ok()) << table.status().message();
      if (!table.ok()) return {};
      EXPECT_EQ(table->columns.size(), o.dimensions.size() + metrics.size());
      for (size_t i = 0; i < table->rows.size(); ++i) {
        Row row = table->rows[i];
        for (const auto& v : table->values[i]) row.push_back(v ? std::to_string(static_cast<int64_t>(*v)) : "-");
        answers[rollup].push_back(std::move(row));
      }
    }
    EXPECT_EQ(answers[0], answers[1]);
    return answers[1];
  }

  std::string dir_;
  std::unique_ptr<Store> store_;
};

TEST_F(QueryMetricsTest, SeveralMetricsShareTheGroups) {
  QueryOptions o;
  o.dimensions = {"month"};
  const std::vector<Row> rows = Ask(o, {Metric::kIssues, Metric::kClosed}, false);
  EXPECT_EQ(rows, (std::vector<Row>{{"2024-01", "2", "1"}, {"2024-03", "2", "1"}}));
  // A group one metric lacks is 0 there: b/two's reports are all open under --state open.
  o.dimensions = {"repo"};
  o.where["state"] = {"open"};
  EXPECT_EQ(Ask(o, {Metric::kIssues, Metric::kClosed}, false),
            (std::vector<Row>{{"a/one", "1", "0"}, {"b/two", "1", "0"}}));
}

TEST_F(QueryMetricsTest, FillZerosWritesEveryMonthOfTheRange) {
  QueryOptions o;
  o.dimensions = {"month"};
  // Without a range: from the answer's first month to its last.
  EXPECT_EQ(Ask(o, {Metric::kIssues}, true),
            (std::vector<Row>{{"2024-01", "2"}, {"2024-02", "0"}, {"2024-03", "2"}}));
  o.from_month = *ParseMonth("2023-12");
  o.to_month = *ParseMonth("2024-04");
  EXPECT_EQ(Ask(o, {Metric::kIssues, Metric::kClosed}, true),
            (std::vector<Row>{{"2023-12", "0", "0"},
                              {"2024-01", "2", "1"},
                              {"2024-02", "0", "0"},
                              {"2024-03", "2", "1"},
                              {"2024-04", "0", "0"}}));
  // Without --fill-zeros, only the months that have reports.
  EXPECT_EQ(Ask(o, {Metric::kIssues}, false), (std::vector<Row>{{"2024-01", "2"}, {"2024-03", "2"}}));
}

TEST_F(QueryMetricsTest, FillZerosWritesEveryTrackedRepositoryAndCategory) {
  QueryOptions o;
  o.dimensions = {"repo"};
  EXPECT_EQ(Ask(o, {Metric::kIssues}, true), (std::vector<Row>{{"a/one", "2"}, {"b/two", "2"}, {"c/three", "0"}}));
  o.dimensions = {"category"};
  EXPECT_EQ(Ask(o, {Metric::kIssues}, true),
            (std::vector<Row>{{"accuracy", "1"}, {"performance", "2"}, {"silent", "0"}}));
  EXPECT_EQ(Ask(o, {Metric::kIssues}, false), (std::vector<Row>{{"accuracy", "1"}, {"performance", "2"}}));
  // Two dimensions: every pair.
  o.dimensions = {"repo", "category"};
  EXPECT_EQ(Ask(o, {Metric::kIssues}, true), (std::vector<Row>{{"a/one", "accuracy", "0"},
                                                                {"a/one", "performance", "1"},
                                                                {"a/one", "silent", "0"},
                                                                {"b/two", "accuracy", "1"},
                                                                {"b/two", "performance", "1"},
                                                                {"b/two", "silent", "0"},
                                                                {"c/three", "accuracy", "0"},
                                                                {"c/three", "performance", "0"},
                                                                {"c/three", "silent", "0"}}));
  // --repo names the repositories to fill; --state the states.
  o.dimensions = {"repo", "state"};
  o.repo = std::vector<std::string>{"a/one"};
  o.where["state"] = {"open", "unknown"};
  EXPECT_EQ(Ask(o, {Metric::kIssues}, true),
            (std::vector<Row>{{"a/one", "(unknown)", "0"}, {"a/one", "open", "1"}}));
}

TEST_F(QueryMetricsTest, ATotalOfNothingIsZeroAndAMedianOfNothingHasNoValue) {
  QueryOptions o;
  o.from_month = *ParseMonth("2020-01");
  o.to_month = *ParseMonth("2020-02");
  EXPECT_EQ(Ask(o, {Metric::kIssues, Metric::kMedianDaysToClose}, false), (std::vector<Row>{{"0", "-"}}));
  o.dimensions = {"month"};
  EXPECT_EQ(Ask(o, {Metric::kIssues, Metric::kMedianDaysToClose}, true),
            (std::vector<Row>{{"2020-01", "0", "-"}, {"2020-02", "0", "-"}}));
}

}  // namespace
}  // namespace ghsift
