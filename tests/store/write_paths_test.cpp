// A commit enters the store as table files or through the log (CommitBatch): both give a store
// that answers every question the same, group commits or single files, and table files a crash
// left before they entered the store are never counted.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_support.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;
using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;

size_t TableFilesIn(const std::string& store) {
  size_t n = 0;
  for (const auto& entry : fs::directory_iterator(store)) n += entry.path().extension() == ".sst";
  return n;
}

void Ingest(const std::string& store, const std::string& corpus, const std::string& options) {
  const auto r = RunCommand(Ghsift() + " ingest -q --all-repos " + options + " --store '" + store + "' '" + corpus + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
}

TEST(WritePathsTest, TableFilesAndLogGiveTheSameAnswers) {
  TempDir dir;
  testing::GenCorpus(dir / "corpus", 4, 1500, 31, "gz");
  Ingest(dir / "log", dir / "corpus", "--table-file-mib 100000");
  Ingest(dir / "files", dir / "corpus", "--table-file-mib 0");
  Ingest(dir / "files-alone", dir / "corpus", "--table-file-mib 0 --commit-mib 0");
  // Through the log, nothing reaches a table file before the final flush: the table files of the
  // others were added by their commits (at least counters, repos, issues and files per commit).
  EXPECT_GE(TableFilesIn(dir / "files-alone"), 4u * 4u);
  const std::string expected = testing::StoreAnswers(dir / "log");
  EXPECT_NE(expected.find("\"files\": 4"), std::string::npos) << expected;
  EXPECT_EQ(testing::StoreAnswers(dir / "files"), expected);
  EXPECT_EQ(testing::StoreAnswers(dir / "files-alone"), expected);
}

TEST(WritePathsTest, TableFilesACrashLeftAreRemovedUncounted) {
  TempDir dir;
  testing::GenCorpus(dir / "corpus", 2, 500, 32, "gz");
  Ingest(dir / "store", dir / "corpus", "--table-file-mib 0");
  // The answers but the count of skipped files, which the second ingest raises.
  auto answers = [&] {
    std::string out = testing::StoreAnswers(dir / "store");
    const size_t at = out.find("\"skipped_files\"");
    if (at != std::string::npos) out.erase(at, out.find('\n', at) - at);
    return out;
  };
  const std::string before = answers();
  // What a kill between writing a commit's table files and adding them leaves behind.
  fs::create_directories(dir / "store/table-files");
  std::ofstream(dir / "store/table-files/123-0-1.sst") << "half a table file";
  Ingest(dir / "store", dir / "corpus", "--table-file-mib 0");  // every hour is skipped
  EXPECT_FALSE(fs::exists(dir / "store/table-files/123-0-1.sst"));
  EXPECT_EQ(answers(), before);
}

}  // namespace
}  // namespace ghsift
