// `sample --stratify` over a dimension a report can have several values of: strata are a
// partition of the population, a report with two categories in the stratum of both.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "eval/labeled_report.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::Ghsift;
using testing::RunCommand;
using testing::RunCommandStdout;
using testing::TempDir;

//! A store of four pytorch/pytorch issues, flagged: #100 performance and silent, #101 accuracy and
//! silent, #102 all three, #103 silent only.
void IngestFourReports(const TempDir& dir) {
  std::filesystem::create_directories(dir / "hours");
  std::ofstream hour(dir / "hours/2024-02-01-1.json");
  const char* titles[] = {"Training is 10x slower after upgrading", "Model silently returns wrong predictions",
                          "Inference is slow and outputs are all zeros without any error",
                          "Gradient is wrong when using float16"};
  for (int i = 0; i < 4; ++i) {
    hour << "{\"id\":\"" << 9000 + i << "\",\"type\":\"IssuesEvent\",\"actor\":{\"id\":1,\"login\":\"alice\"},"
         << "\"repo\":{\"id\":65600975,\"name\":\"pytorch/pytorch\"},\"payload\":{\"action\":\"opened\",\"issue\":"
         << "{\"number\":" << 100 + i << ",\"title\":\"" << titles[i] << "\",\"body\":\"\",\"labels\":[],\"state\":"
         << "\"open\",\"created_at\":\"2024-02-01T01:00:00Z\",\"user\":{\"login\":\"alice\"},\"comments\":0}},"
         << "\"public\":true,\"created_at\":\"2024-02-01T01:00:00Z\"}\n";
  }
  hour.close();
  auto r = RunCommand(Ghsift() + " ingest -q --store " + (dir / "store") + " " + (dir / "hours"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = RunCommand(Ghsift() + " query --store " + (dir / "store") + " --by category --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_NE(r.output.find("accuracy,2\nperformance,2\nsilent,4\n"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " issues --store " + (dir / "store") + " --category accuracy --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_NE(r.output.find("pytorch/pytorch,101,"), std::string::npos) << r.output;
  ASSERT_NE(r.output.find("pytorch/pytorch,102,"), std::string::npos) << r.output;
}

TEST(SampleStrataCliTest, AReportOfTwoCategoriesIsInTheStratumOfBoth) {
  TempDir dir;
  ASSERT_NO_FATAL_FAILURE(IngestFourReports(dir));
  auto r = RunCommand(Ghsift() + " sample --store " + (dir / "store") + " --category performance,silent --n 10 --seed 1 " +
                 "--stratify category --format csv --out " + (dir / "s.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // Before, each report was in the stratum of its first category: "performance 2, silent 2".
  EXPECT_NE(r.output.find("ghsift: population 4, sample 4 (fixed --n 10)\n"
                          "  performance;silent: population 2, allocated 2, drawn 2\n"
                          "  silent: population 2, allocated 2, drawn 2\n"),
            std::string::npos)
      << r.output;
}

// `categories` holds what a report was drawn as (what the labeler's class answers); the other
// problem categories it is flagged with are in `also_flagged`, in both formats.
TEST(SampleStrataCliTest, TheOtherCategoriesOfADrawnReportAreSaidBesideThem) {
  TempDir dir;
  ASSERT_NO_FATAL_FAILURE(IngestFourReports(dir));
  const std::string sample = Ghsift() + " sample --store " + (dir / "store") + " --category silent --n 10 --seed 1";
  const std::map<std::string, std::string> expected = {
      {"100", "performance"}, {"101", "accuracy"}, {"102", "accuracy;performance"}, {"103", ""}};

  auto r = RunCommandStdout(sample + " --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto records = ParseCsv(r.output);
  ASSERT_EQ(records.size(), 5u) << r.output;
  const auto column = [&](const std::string& name) {
    return std::find(records[0].begin(), records[0].end(), name) - records[0].begin();
  };
  const auto number = column("Number"), categories = column("categories"), also = column("also_flagged");
  ASSERT_EQ(also, categories + 3) << "after verdict and stratum";
  std::map<std::string, std::string> csv_also;
  for (size_t i = 1; i < records.size(); ++i) {
    EXPECT_EQ(records[i][categories], "silent");
    csv_also[records[i][number]] = records[i][also];
  }
  EXPECT_EQ(csv_also, expected);

  r = RunCommandStdout(sample + " --format jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::map<std::string, std::string> jsonl_also;
  const std::regex record(R"re("number": (\d+).*"categories": \["silent"\].*"stratum": "\(all\)", "also_flagged": \[([^\]]*)\])re");
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(line, m, record)) << line;
    jsonl_also[m[1]] = m[2];
  }
  EXPECT_EQ(jsonl_also, (std::map<std::string, std::string>{
                            {"100", "\"performance\""},
                            {"101", "\"accuracy\""},
                            {"102", "\"accuracy\", \"performance\""},
                            {"103", ""}}));
}

}  // namespace
}  // namespace ghsift
