// A store the user may not read or write says so and names the path, in ghsift's words before
// any of RocksDB's (issue 25).
//
// Permission bits do not stop root, and CI runs as root: there each command runs under
// `setpriv --bounding-set=-dac_override,-dac_read_search` (util-linux), which takes from the
// process the two capabilities that let root past permission bits, so the kernel refuses with
// EACCES as it would for any user. The test is skipped only where that cannot be done (a
// container that forbids dropping capabilities), and says so.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "test_support.hpp"

namespace ghsift::testing {
namespace {

class StoreErrorsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    const CommandResult r = RunCommand(Ghsift() + " ingest -q --store " + Store() + " " + GHSIFT_SOURCE_DIR +
                                       "/tests/data/sample/2024-03-05-14.json.gz");
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override {
    if (::geteuid() != 0) return;
    const CommandResult probe = RunCommand(std::string(kUnprivileged) + " true");
    if (probe.exit_code != 0) GTEST_SKIP() << "cannot drop root's file capabilities here: " << probe.output;
    wrapper_ = std::string(kUnprivileged) + " ";
  }
  void TearDown() override {
    // Whatever a test changed, the directory can be removed again.
    std::filesystem::permissions(Store(), std::filesystem::perms::owner_all, std::filesystem::perm_options::add);
  }
  static std::string Store() { return *dir_ / "store"; }
  //! `ghsift ARGS` as a user whom permission bits stop.
  CommandResult Run(const std::string& arguments) const { return RunCommand(wrapper_ + Ghsift() + " " + arguments); }

  static constexpr const char* kUnprivileged = "setpriv --bounding-set=-dac_override,-dac_read_search --";
  static TempDir* dir_;
  std::string wrapper_;
};
TempDir* StoreErrorsTest::dir_ = nullptr;

TEST_F(StoreErrorsTest, AStoreTheUserMayNotReadSaysSo) {
  ASSERT_EQ(::chmod(Store().c_str(), 0), 0);
  const CommandResult r = Run("stats --store " + Store());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output, "ghsift: cannot read the store " + Store() + ": permission denied\n");
}

TEST_F(StoreErrorsTest, AStoreTheUserMayNotWriteSaysSoBeforeAnyLibraryText) {
  ASSERT_EQ(::chmod(Store().c_str(), 0555), 0);
  const CommandResult r =
      Run("ingest -q --store " + Store() + " " + GHSIFT_SOURCE_DIR + "/tests/data/sample/2024-03-05-15.json.gz");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output, "ghsift: cannot write the store " + Store() + ": permission denied\n");
  // Reading it still works: a reader writes nothing there.
  const CommandResult stats = Run("stats --format json --store " + Store());
  EXPECT_EQ(stats.exit_code, 0) << stats.output;
}

// The directory is writable, one of RocksDB's files is not: RocksDB's failure, in ghsift's words
// first (not "in use by another writer", which a LOCK file that cannot be opened also mentions).
TEST_F(StoreErrorsTest, AFileOfTheStoreTheUserMayNotWriteIsAPermissionError) {
  const std::string lock = Store() + "/LOCK";
  ASSERT_EQ(::chmod(lock.c_str(), 0444), 0);
  const CommandResult r =
      Run("ingest -q --store " + Store() + " " + GHSIFT_SOURCE_DIR + "/tests/data/sample/2024-03-05-15.json.gz");
  ::chmod(lock.c_str(), 0644);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  const std::string first = "ghsift: cannot write the store " + Store() + ": permission denied (RocksDB: ";
  EXPECT_EQ(r.output.substr(0, first.size()), first) << r.output;
  EXPECT_NE(r.output.find("Permission denied)"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("in use"), std::string::npos) << r.output;
}

TEST_F(StoreErrorsTest, AReaderThatMayNotReadTheFilesSaysSo) {
  const std::string current = Store() + "/CURRENT";
  ASSERT_EQ(::chmod(current.c_str(), 0), 0);
  const CommandResult r = Run("stats --store " + Store());
  ::chmod(current.c_str(), 0644);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  const std::string first = "ghsift: cannot read the store " + Store() + ": permission denied (RocksDB: ";
  EXPECT_EQ(r.output.substr(0, first.size()), first) << r.output;
}

TEST_F(StoreErrorsTest, AStorePathUnderAFileIsNotADirectory) {
  const std::string file = *dir_ / "a-file";
  std::ofstream(file) << "x\n";
  const CommandResult read = Run("stats --store " + file + "/store");
  EXPECT_EQ(read.exit_code, 2) << read.output;
  EXPECT_EQ(read.output, "ghsift: " + file + "/store: not a store: " + file + " is a file\n");
  const CommandResult write = Run("ingest -q --store " + file + "/store " + GHSIFT_SOURCE_DIR +
                                  "/tests/data/sample/2024-03-05-15.json.gz");
  EXPECT_EQ(write.exit_code, 2) << write.output;
  EXPECT_EQ(write.output, "ghsift: " + file + "/store: not a store: " + file + " is a file\n");
}

}  // namespace
}  // namespace ghsift::testing
