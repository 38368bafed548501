// An ingest into a store another ingest holds reads nothing and exits 75 (try again later); the
// cron script then skips the hour quietly, with that status, instead of mailing a failure.
#include <fcntl.h>
#include <unistd.h>

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
  EXPECT_NE(r.output.find("the store is in use by another ingest"), std::string::npos) << r.output;

  // The cron script: no output (nothing for cron to mail), status 75.
  r = RunCommand("GHSIFT=" + Ghsift() + " GHSIFT_STORE=" + store + " sh " + GHSIFT_SOURCE_DIR +
                 "/tools/cron/ghsift-hourly");
  EXPECT_EQ(r.exit_code, 75) << r.output;
  EXPECT_EQ(r.output, "");

  ::close(fd);  // the other ingest ends: the next run goes through
  r = RunCommand(Ghsift() + " ingest -q --store " + store + " " + sample);
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

}  // namespace
}  // namespace ghsift
