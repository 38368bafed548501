#include "pipelines/store_backups.hpp"

#include <filesystem>

#include "common/number_text.hpp"
#include "common/terminal_safe.hpp"
#include "common/time_util.hpp"
#include "pipelines/follow.hpp"

namespace ghsift {

Result<BackupDescription> DescribeForBackup(const Store& store) {
  GHSIFT_ASSIGN_OR_RETURN(const auto stats, store.Stats());
  GHSIFT_ASSIGN_OR_RETURN(const std::optional<int64_t> newest, NewestStoredHour(store));
  const auto count = [&](const char* key) {
    const auto it = stats.find(key);
    return std::to_string(it == stats.end() ? 0 : it->second);
  };
  return BackupDescription{{kBackupFilesKey, count("files")},
                           {kBackupEventsKey, count("events")},
                           {kBackupNewestHourKey, newest ? FormatIsoTime(*newest * 3600) : ""}};
}

Result<StoreBackup> BackUpStore(Store& store, const BackupPolicy& policy) {
  std::error_code ec;
  if (!policy.create_dir && !std::filesystem::exists(policy.dir, ec)) {
    return Status::NotFound(policy.dir + ": no such directory (make it once: it is not created, since a missing "
                            "one may be a backup disk not mounted)");
  }
  GHSIFT_ASSIGN_OR_RETURN(const BackupDescription description, DescribeForBackup(store));
  return store.BackUp(policy.dir, description, policy.keep);
}

bool BackupDue(const BackupPolicy& policy, std::optional<int64_t> newest, int64_t now) {
  if (!newest || policy.every_seconds <= 0) return true;
  const auto period = [&](int64_t t) { return t >= 0 ? t / policy.every_seconds : -1; };
  return period(now) > period(*newest);
}

Result<std::optional<int64_t>> NewestBackupTime(const std::string& dir) {
  GHSIFT_TRY(CheckBackupDirectory(dir, /*may_be_new=*/true));
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::path(dir) / "meta", ec)) return std::optional<int64_t>();
  GHSIFT_ASSIGN_OR_RETURN(const std::vector<StoreBackup> backups, ListBackups(dir));
  if (backups.empty()) return std::optional<int64_t>();
  return std::optional<int64_t>(backups.back().made_at);
}

std::string BackupMadeText(const StoreBackup& backup, const BackupPolicy& policy) {
  return "backup " + std::to_string(backup.id) + " into " + TerminalSafe(policy.dir) + ": " +
         HumanBytes(static_cast<double>(backup.new_bytes)) + " copied of " +
         HumanBytes(static_cast<double>(backup.bytes)) + " (the rest was in earlier backups)";
}

}  // namespace ghsift
