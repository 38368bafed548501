// `sample --stratify` over a dimension a report can have several values of: strata are a
// partition of the population, a report with two categories in the stratum of both.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;

TEST(SampleStrataCliTest, AReportOfTwoCategoriesIsInTheStratumOfBoth) {
  TempDir dir;
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
  // Flagged: #100 and #102 performance and silent, #101 and #103 silent only.
  r = RunCommand(Ghsift() + " query --store " + (dir / "store") + " --by category --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("performance,2\nsilent,4\n"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " sample --store " + (dir / "store") + " --category performance,silent --n 10 --seed 1 " +
                 "--stratify category --format csv --out " + (dir / "s.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // Before, each report was in the stratum of its first category: "performance 2, silent 2".
  EXPECT_NE(r.output.find("ghsift: population 4, sample 4 (fixed --n 10)\n"
                          "  performance;silent: population 2, allocated 2, drawn 2\n"
                          "  silent: population 2, allocated 2, drawn 2\n"),
            std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace ghsift
