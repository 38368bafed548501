#pragma once
// Backups of a store: consistent copies, each of the store as its last commit left it, kept in a
// directory of their own by RocksDB's BackupEngine. A backup copies only the table files no
// earlier backup in that directory holds, so a daily backup of a store that grows by an hour's
// worth costs about that much. Restoring one writes a new store, whole or not at all.
//
// Store::BackUp writes one (it needs the store open for writing: no ingest may run meanwhile);
// the functions here read a backup directory and need no store.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/result.hpp"

namespace ghsift {

//! What the store said of itself when backed up (the CLI's choice of keys: files, events, the
//! newest hour), kept with the backup as key=value lines.
using BackupDescription = std::map<std::string, std::string>;

struct StoreBackup {
  uint32_t id = 0;
  int64_t made_at = 0;     //!< Unix seconds
  uint64_t bytes = 0;      //!< the store's files, as they are in the backup
  uint64_t new_bytes = 0;  //!< of them, those no older backup in the directory holds (what it copied)
  BackupDescription description;
};

//! Whether `dir` can hold backups: a directory of them, or, when `may_be_new`, none yet (missing
//! or empty). Any other is refused, with why.
Status CheckBackupDirectory(const std::string& dir, bool may_be_new);

//! The backups in `dir`, oldest first. An error when `dir` is no backup directory.
Result<std::vector<StoreBackup>> ListBackups(const std::string& dir);

//! Reads every file of backup `id` in `dir` against the checksum recorded when it was written:
//! ok, or what is damaged or missing.
Status VerifyBackup(const std::string& dir, uint32_t id);

//! Writes backup `id` of `dir` (the newest when unset) as a new store at `store_path`, which must
//! not exist or be an empty directory. It is written beside it, checked (its files' checksums,
//! then opened as a store) and only then renamed to `store_path`: a failed restore leaves nothing.
Result<StoreBackup> RestoreBackup(const std::string& dir, std::optional<uint32_t> id, const std::string& store_path);

//! The description as kept with a backup, and read back.
std::string EncodeBackupDescription(const BackupDescription& description);
BackupDescription DecodeBackupDescription(const std::string& text);

}  // namespace ghsift
