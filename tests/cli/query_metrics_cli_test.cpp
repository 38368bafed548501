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
