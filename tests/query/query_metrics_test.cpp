// Several metrics over the same groups, and the groups without reports written with 0
// (`query --metric a,b --fill-zeros`, issue 25): the fill values come from the dimension table.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "query/query_metrics.hpp"
#include "query/query_test_support.hpp"

namespace ghsift {
namespace {

using Row = std::vector<std::string>;

class QueryMetricsTest : public testing::FourReportStoreTest {
 protected:
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

TEST_F(QueryMetricsTest, FillZerosInAStoreOfEveryRepositoryWritesEachItHolds) {
  ASSERT_TRUE(store_->PutMeta("scope", RepoFilter::All().Describe()).ok());
  // d/four has an event and no report; c/three (tracked before) has neither, so no row.
  FileAggregate a;
  Event push = testing::IssueReportEvent(9, "d/four", "2024-02-01T08:00:00Z", 0, "");
  push.type = "PushEvent";
  push.kind = EventKindOf(push.type);
  push.has_report = false;
  a.CountEvent(push);
  ASSERT_TRUE(store_->CommitFile("b.json.gz", FileEntry{}, a).ok());
  QueryOptions o;
  o.dimensions = {"repo"};
  EXPECT_EQ(Ask(o, {Metric::kIssues}, true), (std::vector<Row>{{"a/one", "2"}, {"b/two", "2"}, {"d/four", "0"}}));
  EXPECT_EQ(Ask(o, {Metric::kIssues}, false), (std::vector<Row>{{"a/one", "2"}, {"b/two", "2"}}));
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
