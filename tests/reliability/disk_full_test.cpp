// A full disk and a read-only store: ingest stops with a clear message, the store stays
// openable and consistent, and a later run with room finishes the job exactly.
#include <gtest/gtest.h>
#include <sys/mount.h>

#include <filesystem>

#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;

//! A small tmpfs (needs root, as CI has); unmounted when done.
class SmallDisk {
 public:
  SmallDisk(const std::string& dir, const std::string& size) : dir_(dir) {
    std::filesystem::create_directories(dir);
    mounted_ = ::mount("tmpfs", dir.c_str(), "tmpfs", 0, ("size=" + size).c_str()) == 0;
  }
  ~SmallDisk() {
    if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  bool Remount(const std::string& options) {
    return ::mount("tmpfs", dir_.c_str(), "tmpfs", MS_REMOUNT | (options == "ro" ? MS_RDONLY : 0),
                   options == "ro" ? nullptr : options.c_str()) == 0;
  }

 private:
  std::string dir_;
  bool mounted_ = false;
};

// The room a commit is judged against counts what RocksDB holds ahead for the store's own log
// (tens of MiB that the file system reports as used): on an empty 85 MiB disk the refusal says
// about 80 MiB free, not the 10 it said.
TEST(DiskFullTest, TheStoresOwnLogRoomCountsAsFree) {
  TempDir dir;
  SmallDisk disk(dir / "disk", "85m");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (needs root)";
  testing::Generate(dir / "corpus", 2, 20000, 4, "gz");
  const auto r = RunCommand(Ghsift() + " ingest --all-repos --store " + (dir / "disk/store") + " " + (dir / "corpus"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  const std::string said = "no space left for the store: ";
  const size_t at = r.output.find(said);
  ASSERT_NE(at, std::string::npos) << r.output;
  EXPECT_GE(std::stol(r.output.substr(at + said.size())), 75) << r.output;
}

TEST(DiskFullTest, StopsClearlyAndFinishesLater) {
  TempDir dir;
  SmallDisk disk(dir / "disk", "84m");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (needs root)";
  testing::Generate(dir / "corpus", 6, 1500, 61, "gz");
  const std::string store = dir / "disk/store";
  // Each file committed alone, so that some are in before the disk fills.
  const std::string ingest =
      Ghsift() + " ingest --all-repos --keep-text --commit-mib 0 --store " + store + " " + (dir / "corpus");
  auto r = RunCommand(ingest);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no space left for the store"), std::string::npos) << r.output;
  auto stats = RunCommand(Ghsift() + " stats --format json --store " + store);
  ASSERT_EQ(stats.exit_code, 0) << stats.output;
  // Whole files only: every committed file holds exactly its 1500 events.
  const size_t files_at = stats.output.find("\"files\": ");
  const size_t events_at = stats.output.find("\"events\": ");
  const long files = std::stol(stats.output.substr(files_at + 9));
  const long events = std::stol(stats.output.substr(events_at + 10));
  EXPECT_LT(files, 6) << stats.output;
  EXPECT_EQ(events, files * 1500) << stats.output;

  // Read-only: refused with the file system's reason; the store stays readable.
  ASSERT_TRUE(disk.Remount("ro"));
  r = RunCommand(ingest);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("ghsift: cannot write the store " + store + ": read-only file system"), std::string::npos)
      << r.output;
  EXPECT_EQ(RunCommand(Ghsift() + " stats --store " + store).exit_code, 0);

  // With room again, the same command finishes: the store equals a clean ingest.
  ASSERT_TRUE(disk.Remount("size=400m"));
  r = RunCommand(ingest);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  ASSERT_EQ(RunCommand(Ghsift() + " ingest -q --all-repos --keep-text --store " + (dir / "clean") + " " +
                       (dir / "corpus"))
                .exit_code,
            0);
  // The same data; only the run history (failed and skipped attempts) differs.
  auto data = [](std::string answers) {
    for (const char* key : {"\"failed_files\"", "\"skipped_files\""}) {
      const size_t at = answers.find(key);
      if (at != std::string::npos) answers.erase(at, answers.find('\n', at) - at);
    }
    return answers;
  };
  EXPECT_EQ(data(testing::StoreAnswers(store)), data(testing::StoreAnswers(dir / "clean")));
}

}  // namespace
}  // namespace ghsift
