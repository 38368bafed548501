#include "store/store_backup.hpp"

#include <rocksdb/env.h>
#include <rocksdb/utilities/backup_engine.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <memory>
#include <set>

#include "store/rocks_status.hpp"
#include "store/store.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;

//! The same for every engine opened on a directory, as RocksDB asks: table files shared between
//! backups and named by their checksum (so two backups of one store share what did not change).
rocksdb::BackupEngineOptions EngineOptions(const std::string& dir) {
  rocksdb::BackupEngineOptions options(dir);
  options.share_table_files = true;
  options.share_files_with_checksum = true;
  options.sync = true;
  options.max_background_operations = 2;
  return options;
}

Result<std::unique_ptr<rocksdb::BackupEngineReadOnly>> OpenForReading(const std::string& dir) {
  GHSIFT_TRY(CheckBackupDirectory(dir, /*may_be_new=*/false));
  rocksdb::BackupEngineReadOnly* raw = nullptr;
  const rocksdb::IOStatus s = rocksdb::BackupEngineReadOnly::Open(EngineOptions(dir), rocksdb::Env::Default(), &raw);
  if (!s.ok()) return FromRocks(s, dir + ": cannot read the backups");
  return std::unique_ptr<rocksdb::BackupEngineReadOnly>(raw);
}

//! Each backup of `infos` (oldest first, with file details), with the bytes of the files no older
//! one holds.
std::vector<StoreBackup> Summarize(std::vector<rocksdb::BackupInfo> infos) {
  std::sort(infos.begin(), infos.end(), [](const auto& a, const auto& b) { return a.backup_id < b.backup_id; });
  std::vector<StoreBackup> backups;
  std::set<std::string> seen;
  for (const rocksdb::BackupInfo& info : infos) {
    StoreBackup b;
    b.id = info.backup_id;
    b.made_at = info.timestamp;
    b.bytes = info.size;
    b.description = DecodeBackupDescription(info.app_metadata);
    for (const rocksdb::BackupFileInfo& file : info.file_details) {
      // Named from the backup directory (shared_checksum/..., private/ID/...): one name, one copy.
      if (seen.insert(file.relative_filename).second) b.new_bytes += file.size;
    }
    backups.push_back(std::move(b));
  }
  return backups;
}

//! Whether the store at `path` opens and reads its counters (closed again before it returns).
Status OpensAsStore(const std::string& path) {
  GHSIFT_ASSIGN_OR_RETURN(const auto store, Store::Open(path, StoreMode::kRead));
  return store->Stats().status();
}

//! What a restore to PATH writes first, beside it: PATH.restoring-PID.
constexpr std::string_view kRestoring = ".restoring-";

//! Removes what restores to `target` that were killed left beside it (their process is gone): a
//! restore is whole or leaves nothing, the killed one's from the next restore on.
void RemoveLeftRestores(const std::string& target) {
  const fs::path path(target);
  const std::string prefix = path.filename().string() + std::string(kRestoring);
  std::error_code ec;
  const fs::path parent = path.has_parent_path() ? path.parent_path() : fs::path(".");
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = static_cast<pid_t>(std::stol(digits));
    if (::kill(pid, 0) != 0 && errno == ESRCH) fs::remove_all(it->path(), ec);
  }
}

std::string IdList(const std::vector<StoreBackup>& backups) {
  std::string out;
  for (const StoreBackup& b : backups) out += (out.empty() ? "" : ", ") + std::to_string(b.id);
  return out.empty() ? "none" : out;
}

}  // namespace

// A backup written into another directory would mix with files that are not its own.
Status CheckBackupDirectory(const std::string& dir, bool may_be_new) {
  std::error_code ec;
  if (fs::is_directory(fs::path(dir) / "meta", ec)) return Status::Ok();
  if (!fs::exists(dir, ec)) return may_be_new ? Status::Ok() : Status::NotFound(dir + ": no such backup directory");
  if (!fs::is_directory(dir, ec)) return Status::InvalidArgument(dir + ": not a directory");
  if (fs::is_empty(dir, ec)) {
    return may_be_new ? Status::Ok()
                      : Status::NotFound(dir + ": holds no backup (`ghsift backup --to " + dir + "` writes one)");
  }
  return Status::InvalidArgument(dir + ": not a backup directory (it holds other files and no meta/)");
}

std::string EncodeBackupDescription(const BackupDescription& description) {
  std::string out;
  for (const auto& [key, value] : description) out += key + "=" + value + "\n";
  return out;
}

BackupDescription DecodeBackupDescription(const std::string& text) {
  BackupDescription out;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, end - at);
    if (const size_t eq = line.find('='); eq != std::string::npos) out[line.substr(0, eq)] = line.substr(eq + 1);
    at = end + 1;
  }
  return out;
}

Result<StoreBackup> Store::BackUp(const std::string& dir, const BackupDescription& description,
                                  std::optional<uint32_t> keep) {
  std::error_code ec;
  // A backup inside the store would be lost with it, and copied into the next one.
  const fs::path store_dir = fs::weakly_canonical(path_, ec);
  const fs::path backup_dir = fs::weakly_canonical(dir, ec);
  const auto [store_end, unused] = std::mismatch(store_dir.begin(), store_dir.end(), backup_dir.begin(), backup_dir.end());
  if (store_end == store_dir.end()) {
    return Status::InvalidArgument(dir + ": a backup cannot be kept inside the store it is of (" + path_ + ")");
  }
  GHSIFT_TRY(CheckBackupDirectory(dir, /*may_be_new=*/true));
  rocksdb::BackupEngine* raw = nullptr;
  rocksdb::IOStatus s = rocksdb::BackupEngine::Open(EngineOptions(dir), rocksdb::Env::Default(), &raw);
  if (!s.ok()) return FromRocks(s, dir + ": cannot write backups there");
  const std::unique_ptr<rocksdb::BackupEngine> engine(raw);
  rocksdb::CreateBackupOptions options;
  // The memtables go to table files first, so that the backup holds the store as files a reader
  // opens without replaying a log.
  options.flush_before_backup = true;
  rocksdb::BackupID id = 0;
  s = engine->CreateNewBackupWithMetadata(options, db_.get(), EncodeBackupDescription(description), &id);
  if (!s.ok()) return FromRocks(s, "backing up " + path_ + " into " + dir);
  if (keep) {
    s = engine->PurgeOldBackups(*keep);
    if (!s.ok()) return FromRocks(s, dir + ": backup " + std::to_string(id) + " written, but older ones not removed");
  }
  std::vector<rocksdb::BackupInfo> infos;
  engine->GetBackupInfo(&infos, /*include_file_details=*/true);
  for (StoreBackup& b : Summarize(std::move(infos))) {
    if (b.id == id) return b;
  }
  return Status::StoreError(dir + ": backup " + std::to_string(id) + " was written but is not listed");
}

Result<std::vector<StoreBackup>> ListBackups(const std::string& dir) {
  GHSIFT_ASSIGN_OR_RETURN(const auto engine, OpenForReading(dir));
  std::vector<rocksdb::BackupInfo> infos;
  engine->GetBackupInfo(&infos, /*include_file_details=*/true);
  return Summarize(std::move(infos));
}

Status VerifyBackup(const std::string& dir, uint32_t id) {
  GHSIFT_ASSIGN_OR_RETURN(const auto engine, OpenForReading(dir));
  const rocksdb::IOStatus s = engine->VerifyBackup(id, /*verify_with_checksum=*/true);
  if (s.ok()) return Status::Ok();
  return Status::Corrupt(dir + ": backup " + std::to_string(id) + " is damaged (RocksDB: " + s.ToString() + ")");
}

Result<StoreBackup> RestoreBackup(const std::string& dir, std::optional<uint32_t> id, const std::string& store_path) {
  std::error_code ec;
  if (fs::exists(store_path, ec) && !(fs::is_directory(store_path, ec) && fs::is_empty(store_path, ec))) {
    return Status::AlreadyExists(store_path + ": exists; a restore writes a new store (name a path that does not "
                                 "exist, or an empty directory)");
  }
  std::string target = store_path;
  while (target.size() > 1 && target.back() == '/') target.pop_back();
  RemoveLeftRestores(target);
  GHSIFT_ASSIGN_OR_RETURN(const std::vector<StoreBackup> backups, ListBackups(dir));
  if (backups.empty()) return Status::NotFound(dir + ": holds no backup");
  const auto chosen = id ? std::find_if(backups.begin(), backups.end(), [&](const auto& b) { return b.id == *id; })
                         : backups.end() - 1;
  if (chosen == backups.end()) {
    return Status::NotFound(dir + ": no backup " + std::to_string(*id) + " (the backups: " + IdList(backups) + ")");
  }
  GHSIFT_TRY(VerifyBackup(dir, chosen->id).WithContext("nothing was restored"));
  GHSIFT_ASSIGN_OR_RETURN(const auto engine, OpenForReading(dir));
  // Written beside the store's path and renamed when whole: a restore cut short (a full disk, a
  // kill) leaves no half store where a command would open it.
  const std::string partial = target + std::string(kRestoring) + std::to_string(::getpid());
  fs::remove_all(partial, ec);  // an earlier process of this pid's, killed
  const auto restored = [&]() -> Status {
    const rocksdb::IOStatus s = engine->RestoreDBFromBackup(rocksdb::RestoreOptions(), chosen->id, partial, partial);
    if (!s.ok()) return FromRocks(s, "restoring backup " + std::to_string(chosen->id) + " of " + dir);
    GHSIFT_TRY(Store::WriteMarker(partial));
    GHSIFT_TRY(OpensAsStore(partial));
    if (fs::exists(target, ec)) fs::remove(target, ec);  // the empty directory it may replace
    fs::rename(partial, target, ec);
    if (ec) return Status::IoError(partial + ": cannot rename it to " + target + " (" + ec.message() + ")");
    return Status::Ok();
  }();
  if (!restored.ok()) {
    fs::remove_all(partial, ec);
    return restored;
  }
  return *chosen;
}

}  // namespace ghsift
