// A store holding a file that failed answers with a note on stderr, from every command that
// answers from it (query, issues, sample, report): its counts lack that file, which the answer
// alone does not show. The note goes once the file is ingested whole.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_support.hpp"

namespace ghsift::testing {
namespace {

TEST(StoreNotesCliTest, AFailedFileIsNotedBesideEveryAnswerUntilIngested) {
  TempDir dir;
  const std::string sample = std::string(GHSIFT_SOURCE_DIR) + "/tests/data/sample/";
  const std::string hours = dir / "hours";
  std::filesystem::create_directories(hours);
  std::filesystem::copy_file(sample + "2024-03-05-14.json.gz", hours + "/2024-03-05-14.json.gz");
  std::ofstream(hours + "/2024-03-05-15.json.gz", std::ios::binary) << "not gzip at all";
  const std::string store = dir / "store";
  const CommandResult ingest = RunCommand(Ghsift() + " ingest -q --store " + store + " " + hours);
  ASSERT_EQ(ingest.exit_code, 2) << ingest.output;
  const std::string note =
      "ghsift: note: 1 file failed when ingested and is not counted (2024-03-05-15.json.gz); `ghsift stats "
      "--coverage` lists it, and ingesting it again counts it\n";
  const std::vector<std::string> commands = {"query --by month", "issues --limit 1",
                                             "sample --category performance --n 1 --seed 1",
                                             "report --out " + (dir / "report")};
  for (const std::string& command : commands) {
    const CommandResult r = RunCommand(Ghsift() + " " + command + " --store " + store);
    EXPECT_EQ(r.exit_code, 0) << command << ": " << r.output;
    EXPECT_NE(r.output.find(note), std::string::npos) << command << ": " << r.output;
  }
  std::filesystem::copy_file(sample + "2024-03-05-15.json.gz", hours + "/2024-03-05-15.json.gz",
                             std::filesystem::copy_options::overwrite_existing);
  const CommandResult again = RunCommand(Ghsift() + " ingest -q --store " + store + " " + hours);
  ASSERT_EQ(again.exit_code, 0) << again.output;
  for (const std::string& command : commands) {
    const CommandResult r = RunCommand(Ghsift() + " " + command + " --store " + store);
    EXPECT_EQ(r.output.find("failed when ingested"), std::string::npos) << command << ": " << r.output;
  }
}

}  // namespace
}  // namespace ghsift::testing
