// An ingest into a store another ingest holds reads nothing and exits 75 (try again later); the
// cron script then skips the hour quietly, with that status, instead of mailing a failure.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;

TEST(StoreBusyCliTest, AnIngestHoldingTheStoreMakesOthersWaitQuietly) {
  TempDir dir;
  const std::string store = dir / "store";
  const std::string sample = std::string(GHSIFT_SOURCE_DIR) + "/tests/data/sample";
  ASSERT_EQ(RunCommand(Ghsift() + " ingest -q --store " + store + " " + sample).exit_code, 0);
  // Hold RocksDB's lock as a running ingest does (a POSIX record lock on LOCK).
  const int fd = ::open((store + "/LOCK").c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::lockf(fd, F_TLOCK, 0), 0);

  auto r = RunCommand(Ghsift() + " ingest -q --store " + store + " " + sample);
  EXPECT_EQ(r.exit_code, 75) << r.output;
  EXPECT_NE(r.output.find("the store is in use by another writer"), std::string::npos) << r.output;

  // The cron script: no output (nothing for cron to mail), status 75.
  r = RunCommand("GHSIFT=" + Ghsift() + " GHSIFT_STORE=" + store + " sh " + GHSIFT_SOURCE_DIR +
                 "/tools/cron/ghsift-hourly");
  EXPECT_EQ(r.exit_code, 75) << r.output;
  EXPECT_EQ(r.output, "");

  ::close(fd);  // the other ingest ends: the next run goes through
  r = RunCommand(Ghsift() + " ingest -q --store " + store + " " + sample);
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

// Two ingests that create the same new store at once (the first cron run and a manual
// backfill): one builds it, the other is busy (75), never an error about a directory the other
// has just made. Each round races the two processes from the start, so the race is met often.
TEST(StoreBusyCliTest, TwoIngestsCreatingOneStoreAreOneIngestAndOneBusy) {
  TempDir dir;
  const std::string store = dir / "store";
  const std::string hour = std::string(GHSIFT_SOURCE_DIR) + "/tests/data/sample/2024-03-05-14.json.gz";
  const std::string one = Ghsift() + " ingest -q --threads 1 --store " + store + " " + hour;
  for (int round = 0; round < 12; ++round) {
    std::filesystem::remove_all(store);
    const auto r = RunCommand("(" + one + " > '" + (dir / "a") + "' 2>&1; echo $? >> '" + (dir / "a") + "') & (" +
                              one + " > '" + (dir / "b") + "' 2>&1; echo $? >> '" + (dir / "b") + "') & wait");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::string a = testing::ReadText(dir / "a"), b = testing::ReadText(dir / "b");
    const std::string busy = "ghsift: " + store +
                             ": the store is in use by another writer (an ingest, merge, rescan or backup; RocksDB "
                             "lock " +
                             store + "/LOCK is held)\n75\n";
    EXPECT_TRUE((a == "0\n" && b == busy) || (a == busy && b == "0\n")) << "round " << round << ":\n" << a << b;
  }
  // What the one that went on built: the hour, once.
  const auto stats = RunCommand(Ghsift() + " stats --store " + store + " --format json");
  EXPECT_NE(stats.output.find("\"events\": 2000,"), std::string::npos) << stats.output;
  EXPECT_NE(stats.output.find("\"files\": 1,"), std::string::npos) << stats.output;
}

// A partial store an ingest still writes is not merged (merged early, its files would be in the
// store and the rest of it could never be merged): named with the writer, status 75; merged
// whole once the writer ends. A store held by another writer is busy for merge, rescan and backup
// too (a backup is of a store between commits).
TEST(StoreBusyCliTest, MergeLeavesAPartialStillWrittenAndBusyStoresExit75) {
  TempDir dir;
  const std::string partial = dir / "partial";
  const std::string store = dir / "store";
  const std::string sample = std::string(GHSIFT_SOURCE_DIR) + "/tests/data/sample";
  ASSERT_EQ(RunCommand(Ghsift() + " ingest -q --partial " + partial + " " + sample).exit_code, 0);
  const int fd = ::open((partial + "/LOCK").c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::lockf(fd, F_TLOCK, 0), 0);
  auto r = RunCommand(Ghsift() + " merge --store " + store + " " + partial);
  EXPECT_EQ(r.exit_code, 75) << r.output;
  EXPECT_NE(r.output.find("ghsift: " + partial + ": an ingest (process " + std::to_string(::getpid()) +
                          ") is still writing this partial store; merge it when that ends\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("merged 0 partial stores into " + store + " (0 skipped, 0 failed, 1 still written)"),
            std::string::npos)
      << r.output;
  ::close(fd);
  r = RunCommand(Ghsift() + " merge --store " + store + " " + partial);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("merged 1 partial store into"), std::string::npos) << r.output;

  const int held = ::open((store + "/LOCK").c_str(), O_RDWR);
  ASSERT_GE(held, 0);
  ASSERT_EQ(::lockf(held, F_TLOCK, 0), 0);
  for (const std::string& command : {" merge --store " + store + " " + partial, " rescan --store " + store,
                                    " backup --store " + store + " --to " + (dir / "backups")}) {
    r = RunCommand(Ghsift() + command);
    EXPECT_EQ(r.exit_code, 75) << command << ": " << r.output;
    EXPECT_NE(r.output.find("the store is in use by another writer"), std::string::npos) << r.output;
  }
  ::close(held);
}

// The cron script's lock sits beside the store however the store is spelt: with a trailing slash
// it is still STORE.lock, not a file inside the store that another spelling would not see.
TEST(StoreBusyCliTest, CronLockIgnoresATrailingSlash) {
  if (RunCommand("command -v flock").exit_code != 0) GTEST_SKIP() << "flock is not installed";
  TempDir dir;
  const std::string store = dir / "store";
  ASSERT_EQ(RunCommand(Ghsift() + " ingest -q --store " + store + " " + std::string(GHSIFT_SOURCE_DIR) +
                       "/tests/data/sample/2024-03-05-14.json.gz")
                .exit_code,
            0);
  const int fd = ::open((store + ".lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);  // a run in progress
  const auto r = RunCommand("GHSIFT=" + Ghsift() + " GHSIFT_STORE=" + store + "// sh " + GHSIFT_SOURCE_DIR +
                            "/tools/cron/ghsift-hourly --source http://127.0.0.1:9");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "");
  EXPECT_FALSE(std::filesystem::exists(store + "/.lock"));
  ::close(fd);
}

}  // namespace
}  // namespace ghsift
