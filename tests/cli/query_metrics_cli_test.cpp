// `ghsift query --metric a,b --fill-zeros` as a user runs it: one column per metric in table, csv
// and json, and the groups without reports written with 0 (issue 25).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "command_support.hpp"
#include "query/query_test_support.hpp"

namespace ghsift {
namespace {

//! The store of testing::FourReportStoreTest, asked through the binary.
class QueryMetricsCliTest : public testing::FourReportStoreTest {
 protected:
  using Answer = std::pair<std::string, int>;
  //! stdout of `ghsift query --store STORE ARGS` (stderr apart), and its exit status.
  Answer Query(const std::string& args) {
    store_.reset();  // the binary opens the store
    const testing::CommandResult r =
        testing::RunCommandStdout(testing::Ghsift() + " query --store '" + StorePath() + "' " + args + " 2>/dev/null");
    return {r.output, r.exit_code};
  }
};

// `reopened` is numeric: its groups are listed by number in every format, and `sample --stratify
// reopened` lists its strata so too (the audit found 10 before 9).
TEST(ReopenedOrderCliTest, ReopenedGroupsAndStrataAreListedByNumber) {
  const std::string dir = std::filesystem::path(::testing::TempDir()) / "ghsift-reopened-order";
  std::filesystem::remove_all(dir);
  const std::string store_path = dir + "/store";
  {
    auto store = Store::Open(store_path, StoreMode::kReadWrite);
    ASSERT_TRUE(store.ok()) << store.status().message();
    testing::CommitReopenedReports(**store);
  }
  const std::string query = testing::Ghsift() + " query --store '" + store_path + "' --by reopened";
  auto r = testing::RunCommandStdout(query + " --format csv");
  EXPECT_EQ(r.output, "reopened,issues\n0,1\n2,1\n9,1\n10,1\n");
  r = testing::RunCommandStdout(query + " --metric issues,closed --format csv");
  EXPECT_EQ(r.output, "reopened,issues,closed\n0,1,0\n2,1,0\n9,1,0\n10,1,0\n");
  r = testing::RunCommandStdout(query);
  EXPECT_EQ(r.output, "reopened  issues\n--------  ------\n       0       1\n       2       1\n       9       1\n"
                      "      10       1\n");
  // JSON gives a numeric dimension's values as numbers (before: "9", "10": text again to whoever
  // sorts the answer), and --fill-zeros keeps them so.
  r = testing::RunCommandStdout(query + " --format json");
  EXPECT_EQ(r.output, "[\n {\"reopened\": 0, \"issues\": 1},\n {\"reopened\": 2, \"issues\": 1},\n"
                      " {\"reopened\": 9, \"issues\": 1},\n {\"reopened\": 10, \"issues\": 1}\n]\n");
  r = testing::RunCommandStdout(query + ",state --metric issues,median_days_to_close --fill-zeros --format json");
  EXPECT_NE(r.output.find("{\"reopened\": 10, \"state\": \"(unknown)\", \"issues\": 0, "
                          "\"median_days_to_close\": null}"),
            std::string::npos)
      << r.output;
  // The exports give the numeric columns (the dimension table's numeric flag) as numbers too, and
  // null for no value: issues --format json and jsonl, sample --format jsonl. Before: "10", "".
  const std::string issues = testing::Ghsift() + " issues --store '" + store_path + "' --limit 0";
  for (const std::string format : {"json", "jsonl"}) {
    r = testing::RunCommandStdout(issues + " --format " + format);
    EXPECT_NE(r.output.find("\"reopened\": 10, \"created_at\": \"2024-01-10T08:00:00Z\", \"closed_at\": \"\", "
                            "\"days_to_close\": null, \"closing_pr\": \"\", \"comment_count\": 0, "
                            "\"first_response_hours\": null"),
              std::string::npos)
        << format << ": " << r.output;
  }
  r = testing::RunCommandStdout(testing::Ghsift() + " sample --store '" + store_path +
                                "' --category performance --n 4 --seed 1 --format jsonl");
  EXPECT_NE(r.output.find("\"reopened\": 9, "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("\"reopened\": \""), std::string::npos) << r.output;
  r = testing::RunCommand(testing::Ghsift() + " sample --store '" + store_path +
                          "' --category performance --n 4 --seed 1 --stratify reopened --format csv --out '" + dir +
                          "/sample.csv'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("ghsift: population 4, sample 4 (fixed --n 4)\n"
                          "  0: population 1, allocated 1, drawn 1\n  2: population 1, allocated 1, drawn 1\n"
                          "  9: population 1, allocated 1, drawn 1\n  10: population 1, allocated 1, drawn 1\n"),
            std::string::npos)
      << r.output;
  std::filesystem::remove_all(dir);
}

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
