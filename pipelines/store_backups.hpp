#pragma once
// Backups a writer takes of its own store (engine/store/store_backup.hpp): `ghsift backup`, and
// an ingest given --backup-to, which backs up after its commits when the newest backup is old
// enough. A follower holds its store for months, and no other process may back it up meanwhile.
#include <cstdint>
#include <optional>
#include <string>

#include "common/result.hpp"
#include "store/store.hpp"

namespace ghsift {

// The keys of a backup's description, the only list of them: `backup --list` shows each.
inline constexpr const char* kBackupFilesKey = "files";
inline constexpr const char* kBackupEventsKey = "events";
inline constexpr const char* kBackupNewestHourKey = "newest_hour";  //!< "2024-01-01T05:00:00Z"; "" for none

struct BackupPolicy {
  std::string dir;                    //!< the backup directory
  int64_t every_seconds = 24 * 3600;  //!< at most one backup per period this long (BackupDue)
  std::optional<uint32_t> keep = {};  //!< keep the newest N (unset: all)
  //! Whether a missing `dir` is created: by hand (`ghsift backup`) yes; unattended (`ingest
  //! --backup-to`) no, since a missing one may be a backup disk that is not mounted, and the
  //! backups would then fill the disk under its mount point.
  bool create_dir = false;
};

//! Whether a backup is due at `now` (Unix seconds): there is none yet, or the newest was made in an
//! earlier period of `every_seconds`, the periods counted from 1970-01-01T00:00Z (24 hours: each
//! UTC day; 0: every time). Periods, not the newest backup's age: hourly runs that each take a
//! little longer would otherwise push a daily backup an hour later every day.
bool BackupDue(const BackupPolicy& policy, std::optional<int64_t> newest, int64_t now);

//! What a backup says of the store: its files, events and newest hour.
Result<BackupDescription> DescribeForBackup(const Store& store);

//! Backs `store` up into `policy.dir`, described, keeping `policy.keep`.
Result<StoreBackup> BackUpStore(Store& store, const BackupPolicy& policy);

//! When the newest backup in `dir` was made, Unix seconds; none when `dir` holds no backup yet
//! (or does not exist).
Result<std::optional<int64_t>> NewestBackupTime(const std::string& dir);

//! "backup 3 into DIR: 1.2 MB copied of 40.1 MB (the rest was in earlier backups)": what a
//! backup made is said as.
std::string BackupMadeText(const StoreBackup& backup, const BackupPolicy& policy);

}  // namespace ghsift
