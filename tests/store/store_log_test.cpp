#include "store/store_log.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ghsift {
namespace {

namespace fs = std::filesystem;

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Warnings and errors reach the store's LOG, each on a line of its own; informational messages,
// which RocksDB writes by the thousand, do not.
TEST(StoreLogTest, KeepsWarningsAndDropsInformation) {
  const fs::path dir = fs::temp_directory_path() / ("ghsift-store-log-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  {
    StoreLog log((dir / "LOG").string());
    rocksdb::Log(rocksdb::InfoLogLevel::WARN_LEVEL, &log, "compaction behind: %d files", 21);
    rocksdb::Log(rocksdb::InfoLogLevel::INFO_LEVEL, &log, "flushed memtable %d", 7);
    rocksdb::Log(rocksdb::InfoLogLevel::ERROR_LEVEL, &log, "no space: %s", "disk full");
  }
  const std::string text = ReadAll(dir / "LOG");
  EXPECT_NE(text.find("compaction behind: 21 files\n"), std::string::npos) << text;
  EXPECT_NE(text.find("no space: disk full\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("flushed memtable"), std::string::npos) << text;
  fs::remove_all(dir);
}

// On a full disk (/dev/full refuses every write with ENOSPC) a message is lost and the next one
// is tried again without harm: RocksDB's own file logger aborted the process there.
TEST(StoreLogTest, AFullDiskLosesMessagesAndNothingElse) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  StoreLog log("/dev/full");
  for (int i = 0; i < 3; ++i) rocksdb::Log(rocksdb::InfoLogLevel::ERROR_LEVEL, &log, "message %d", i);
  SUCCEED();
}

}  // namespace
}  // namespace ghsift
