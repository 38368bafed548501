// `ghsift backup` and `ghsift restore`: a backup is the store as it was, a later backup copies
// only what changed, a damaged backup is found and never restored, and a restore writes a whole
// store or nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_support.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;
using testing::Ghsift;
using testing::RunCommand;
using testing::RunCommandStdout;
using testing::StoreAnswers;
using testing::TempDir;

const std::string kSample = std::string(GHSIFT_SOURCE_DIR) + "/tests/data/sample";

std::string Hour(int h) { return kSample + "/2024-03-05-" + std::to_string(h) + ".json.gz"; }

void Ingest(const std::string& store, const std::string& files) {
  const auto r = RunCommand(Ghsift() + " ingest -q --store " + store + " " + files);
  ASSERT_EQ(r.exit_code, 0) << r.output;
}

testing::CommandResult Backup(const std::string& store, const std::string& backups, const std::string& more = "") {
  return RunCommand(Ghsift() + " backup --store " + store + " --to " + backups + more);
}

//! The bytes of the regular files under `dir`.
uint64_t BytesUnder(const std::string& dir) {
  uint64_t total = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) total += entry.file_size();
  }
  return total;
}

//! The names in `dir`, sorted.
std::vector<std::string> NamesIn(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(BackupCliTest, ARestoredBackupAnswersAsTheStoreDidWhenBackedUp) {
  TempDir dir;
  const std::string store = dir / "store", backups = dir / "backups";
  Ingest(store, Hour(14));
  const std::string first_answers = StoreAnswers(store);
  auto r = Backup(store, backups);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("ghsift: backup 1 into " + backups + ": "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" copied of "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the store holds 1 file, 2,000 events, up to 2024-03-05T14; 1 backup kept there\n"),
            std::string::npos)
      << r.output;

  Ingest(store, Hour(15) + " " + Hour(16));
  const std::string last_answers = StoreAnswers(store);
  ASSERT_NE(first_answers, last_answers);
  r = Backup(store, backups);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("the store holds 3 files, 6,000 events, up to 2024-03-05T16; 2 backups kept there\n"),
            std::string::npos)
      << r.output;

  r = RunCommandStdout(Ghsift() + " backup --to " + backups + " --list --format json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(R"("backup": 1, )"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(R"("files": 1, "events": 2000, "newest_hour": "2024-03-05T14")"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(R"("files": 3, "events": 6000, "newest_hour": "2024-03-05T16")"), std::string::npos)
      << r.output;

  // Each backup gives the store as it was then, answer for answer.
  r = RunCommand(Ghsift() + " restore --from " + backups + " --backup 1 --store " + (dir / "first"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("ghsift: restored backup 1 of " + backups + " (made "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(") as " + (dir / "first") + ": 1 file, 2,000 events, up to 2024-03-05T14\n"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(StoreAnswers(dir / "first"), first_answers);
  fs::create_directory(dir / "last");  // an empty directory is a place to restore to
  r = RunCommand(Ghsift() + " restore --from " + backups + " --store " + (dir / "last"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(StoreAnswers(dir / "last"), last_answers);

  // A restored store is a store like any other: it ingests on, and is backed up on.
  Ingest(dir / "first", Hour(15) + " " + Hour(16));
  EXPECT_EQ(StoreAnswers(dir / "first"), last_answers);
  EXPECT_EQ(NamesIn(dir.path()), (std::vector<std::string>{"backups", "first", "last", "store"}));
}

TEST(BackupCliTest, ALaterBackupCopiesOnlyWhatChangedAndKeepRemovesTheOldest) {
  TempDir dir;
  const std::string store = dir / "store", backups = dir / "backups";
  Ingest(store, kSample);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(Backup(store, backups).exit_code, 0);
  // The second and third back up the same table files: each copied only its own small files
  // (RocksDB's MANIFEST, CURRENT, OPTIONS), kept under private/ID.
  auto r = RunCommandStdout(Ghsift() + " backup --to " + backups + " --list --format json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const uint64_t shared = BytesUnder(backups + "/shared_checksum");
  for (int id = 1; id <= 3; ++id) {
    const uint64_t own = BytesUnder(backups + "/private/" + std::to_string(id));
    const uint64_t new_bytes = id == 1 ? shared + own : own;
    EXPECT_NE(r.output.find(R"("backup": )" + std::to_string(id) + ","), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(R"("bytes": )" + std::to_string(shared + own) + R"(, "new_bytes": )" +
                            std::to_string(new_bytes) + "}"),
              std::string::npos)
        << "backup " << id << ": " << r.output;
  }

  r = Backup(store, backups, " --keep 2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("ghsift: backup 4 into " + backups + ": "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("; 2 backups kept there\n"), std::string::npos) << r.output;
  EXPECT_EQ(NamesIn(backups + "/meta"), (std::vector<std::string>{"3", "4"}));
  r = RunCommand(Ghsift() + " restore --from " + backups + " --backup 1 --store " + (dir / "gone"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output, "ghsift: " + backups + ": no backup 1 (the backups: 3, 4)\n");
  EXPECT_FALSE(fs::exists(dir / "gone"));
}

TEST(BackupCliTest, ADamagedBackupIsFoundAndNotRestored) {
  TempDir dir;
  const std::string store = dir / "store", backups = dir / "backups";
  Ingest(store, kSample);
  ASSERT_EQ(Backup(store, backups).exit_code, 0);
  auto r = RunCommand(Ghsift() + " backup --to " + backups + " --list --check");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(" ok\n"), std::string::npos) << r.output;

  // One byte of the largest table file flipped, its size unchanged (as a disk's rot would).
  std::string largest;
  for (const auto& entry : fs::directory_iterator(backups + "/shared_checksum")) {
    if (largest.empty() || entry.file_size() > fs::file_size(largest)) largest = entry.path().string();
  }
  {
    std::fstream file(largest, std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(100);
    const char byte = static_cast<char>(file.get());
    file.seekp(100);
    file.put(static_cast<char>(byte ^ 0x20));
  }
  r = RunCommand(Ghsift() + " backup --to " + backups + " --list --check");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find(backups + ": backup 1 is damaged (RocksDB: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("ghsift: --check: 1 backup of 1 damaged\n"), std::string::npos) << r.output;

  // What a restore killed before it ended left (its process gone: above the kernel's largest pid).
  fs::create_directories(dir / "restored.restoring-4194305/x");
  r = RunCommand(Ghsift() + " restore --from " + backups + " --store " + (dir / "restored"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(r.output.starts_with("ghsift: nothing was restored: " + backups + ": backup 1 is damaged")) << r.output;
  // Nothing left behind: no store, no half-written one beside it, nor the killed restore's.
  EXPECT_EQ(NamesIn(dir.path()), (std::vector<std::string>{"backups", "store"}));
}

// `ingest --backup-to`: the cron script's runs back the store up themselves, one a UTC day by
// default: a backup when there is none, none while the newest is of the same period of
// --backup-every-hours, none after a run that committed nothing.
TEST(BackupCliTest, AnIngestBacksUpOncePerPeriod) {
  TempDir dir;
  const std::string store = dir / "store", backups = dir / "backups";
  const auto ingest = [&](const std::string& files, const std::string& more) {
    return RunCommand(Ghsift() + " ingest --store " + store + " --backup-to " + backups + more + " " + files);
  };
  const auto listed = [&] {
    return RunCommandStdout(Ghsift() + " backup --to " + backups + " --list --format json").output;
  };
  // Not created by the ingest (a missing directory may be a backup disk that is not mounted), and
  // no reason not to ingest: the hour is committed, the run says why there is no backup, exit 2.
  auto r = ingest(Hour(14), " -q");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output, "ghsift: --backup-to: " + backups +
                          ": no such directory (make it once: it is not created, since a missing one may be a backup "
                          "disk not mounted) (the files are committed; the next run backs up)\n");
  EXPECT_FALSE(fs::exists(backups));
  fs::create_directory(backups);
  // The next run backs up, though it commits nothing (there is no backup yet).
  r = ingest(Hour(14), "");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("ghsift: backup 1 into " + backups + ": "), std::string::npos) << r.output;
  // (Without `stats`: the second run counted its hour as skipped, a store of it once does not.)
  const std::string first_answers = StoreAnswers(store, false);
  // The newest backup is of this period: none. (Periods of 366 days here, not the default day, so
  // that the test cannot fall on a period's end.)
  r = ingest(Hour(15), " -q --backup-every-hours 8784");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "");
  EXPECT_EQ(NamesIn(backups + "/meta"), (std::vector<std::string>{"1"}));
  r = ingest(Hour(15), " --backup-every-hours 0");  // nothing committed: none
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("backup 2"), std::string::npos) << r.output;
  r = ingest(Hour(16), " -q --backup-every-hours 0 --backup-keep 2");  // quiet: said by nothing
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "");
  EXPECT_EQ(NamesIn(backups + "/meta"), (std::vector<std::string>{"1", "2"}));
  EXPECT_NE(listed().find(R"("files": 3, "events": 6000, "newest_hour": "2024-03-05T16")"), std::string::npos)
      << listed();
  r = RunCommand(Ghsift() + " restore --from " + backups + " --backup 1 --store " + (dir / "first"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(StoreAnswers(dir / "first", false), first_answers);

  // A backup directory that cannot be one is refused before anything is read.
  fs::create_directory(dir / "photos");
  std::ofstream(dir / "photos/a.jpg") << "x";
  r = RunCommand(Ghsift() + " ingest -q --store " + (dir / "other") + " --backup-to " + (dir / "photos") + " " +
                 Hour(14));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output, "ghsift: --backup-to: " + (dir / "photos") +
                          ": not a backup directory (it holds other files and no meta/)\n");
  EXPECT_FALSE(fs::exists(dir / "other"));
  // A backup that fails after the commits (RocksDB cannot write its shared files) leaves the
  // files committed: said, exit 2, and the next run backs up.
  fs::create_directories(dir / "broken/meta");
  std::ofstream(dir / "broken/shared_checksum") << "x";
  r = RunCommand(Ghsift() + " ingest -q --store " + (dir / "other") + " --backup-to " + (dir / "broken") + " " +
                 Hour(14));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(r.output.starts_with("ghsift: --backup-to: " + (dir / "broken") + ": cannot write backups there"))
      << r.output;
  EXPECT_NE(r.output.find(" (the files are committed; the next run backs up)\n"), std::string::npos) << r.output;
  EXPECT_EQ(StoreAnswers(dir / "other", false), first_answers);

  // Where a backup has no place, and its options without it.
  r = RunCommand(Ghsift() + " ingest -q --partial " + (dir / "part") + " --backup-to " + backups + " " + Hour(14));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output, "ghsift: --backup-to backs up a store; not with --partial or --mpi (back up the store the "
                      "partials are merged into)\n");
  r = RunCommand(Ghsift() + " ingest -q --store " + store + " --backup-keep 3 " + Hour(14));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output, "ghsift: --backup-every-hours and --backup-keep go with --backup-to\n");
  EXPECT_FALSE(fs::exists(dir / "part"));
}

TEST(BackupCliTest, MistakesAreRefusedWithTheirReason) {
  TempDir dir;
  const std::string store = dir / "store", backups = dir / "backups";
  Ingest(store, Hour(14));
  ASSERT_EQ(Backup(store, backups).exit_code, 0);
  const auto refused = [](const std::string& arguments) {
    const auto r = RunCommand(Ghsift() + " " + arguments);
    EXPECT_EQ(r.exit_code, 2) << arguments << ": " << r.output;
    return r.output;
  };
  EXPECT_EQ(refused("restore --from " + backups + " --store " + store),
            "ghsift: " + store +
                ": exists; a restore writes a new store (name a path that does not exist, or an empty directory)\n");
  EXPECT_EQ(refused("backup --store " + (dir / "none") + " --to " + backups),
            "ghsift: " + (dir / "none") + ": no such store\n");
  // An empty directory is no store, and is not made one by a backup of it.
  fs::create_directory(dir / "empty");
  EXPECT_EQ(refused("backup --store " + (dir / "empty") + " --to " + backups),
            "ghsift: " + (dir / "empty") + ": not a ghsift store (no GHSIFT_STORE)\n");
  EXPECT_TRUE(fs::is_empty(dir / "empty"));
  EXPECT_EQ(refused("backup --store " + store + " --to " + store + "/backups"),
            "ghsift: " + store + "/backups: a backup cannot be kept inside the store it is of (" + store + ")\n");
  // A directory of other files is not written into.
  fs::create_directory(dir / "photos");
  std::ofstream(dir / "photos/a.jpg") << "x";
  EXPECT_EQ(refused("backup --store " + store + " --to " + (dir / "photos")),
            "ghsift: " + (dir / "photos") + ": not a backup directory (it holds other files and no meta/)\n");
  EXPECT_EQ(NamesIn(dir / "photos"), (std::vector<std::string>{"a.jpg"}));
  EXPECT_EQ(refused("backup --to " + (dir / "photos") + " --list"),
            "ghsift: " + (dir / "photos") + ": not a backup directory (it holds other files and no meta/)\n");
  fs::create_directory(dir / "unused");
  EXPECT_EQ(refused("restore --from " + (dir / "unused") + " --store " + (dir / "new")),
            "ghsift: " + (dir / "unused") + ": holds no backup (`ghsift backup --to " + (dir / "unused") +
                "` writes one)\n");
  EXPECT_EQ(refused("restore --from " + (dir / "nowhere") + " --store " + (dir / "new")),
            "ghsift: " + (dir / "nowhere") + ": no such backup directory\n");
  EXPECT_EQ(refused("backup --store " + store + " --to " + backups + " --keep 0"),
            "ghsift: --keep must be at least 1 (the backup just made)\n");
  EXPECT_EQ(refused("backup --store " + store + " --to " + backups + " --check"),
            "ghsift: --check goes with --list\n");
  EXPECT_EQ(refused("backup --store " + store + " --to " + backups + " --list"),
            "ghsift: --list reads the backup directory alone: no --store\n");
  EXPECT_EQ(refused("backup --to " + backups), "ghsift: backup needs --store DIR (or --list)\n");
  // Nothing of these changed the backups: still the one.
  EXPECT_EQ(NamesIn(backups + "/meta"), (std::vector<std::string>{"1"}));
}

}  // namespace
}  // namespace ghsift
