// ghsift backup --store DIR --to BACKUPS [--keep N]
// ghsift backup --to BACKUPS --list [--check] [--format table|json]
// ghsift restore --from BACKUPS --store NEW [--backup ID]
#include <cstdio>
#include <iostream>

#include "commands/commands.hpp"
#include "common/time_util.hpp"
#include "output.hpp"
#include "pipelines/store_backups.hpp"
#include "store/store.hpp"
#include "store/store_backup.hpp"

namespace ghsift::cli {
namespace {

struct BackupArgs {
  std::string store;
  std::string to;
  std::optional<uint32_t> keep;
  bool list = false;
  bool check = false;
  std::string format = "table";
};

struct RestoreArgs {
  std::string from;
  std::string store;
  std::optional<uint32_t> backup;
};

std::string Value(const BackupDescription& d, const char* key) {
  const auto it = d.find(key);
  return it == d.end() ? "" : it->second;
}

//! "12,698 events": a count of the description, as a count of its noun.
std::string CountOf(const BackupDescription& d, const char* key, const std::string& noun) {
  const std::string value = Value(d, key);
  return value.empty() || value.find_first_not_of("0123456789") != std::string::npos
             ? "? " + noun + "s"
             : Counted(std::stoull(value), noun);
}

//! "2024-01-01T05", "no hour" in a store of none. Read from the backup directory: made safe to show.
std::string Hour(const BackupDescription& d) {
  const std::string iso = Value(d, kBackupNewestHourKey);  // 2024-01-01T05:00:00Z
  return iso.empty() ? "no hour" : TerminalSafe(iso.size() >= 13 ? iso.substr(0, 13) : iso);
}

int RunList(const BackupArgs& args) {
  Format format;
  if (!ParseFormat(args.format, &format) || format == Format::kCsv) {
    return Fail("--format must be table or json, not '" + TerminalSafe(args.format) + "'");
  }
  auto backups = ListBackups(args.to);
  if (!backups.ok()) return Fail(backups.status().message());
  std::vector<std::vector<std::string>> rows;
  size_t damaged = 0;
  for (const StoreBackup& b : *backups) {
    std::vector<std::string> row = {std::to_string(b.id),
                                    FormatIsoTime(b.made_at),
                                    Value(b.description, kBackupFilesKey),
                                    Value(b.description, kBackupEventsKey),
                                    Value(b.description, kBackupNewestHourKey).substr(0, 13),
                                    std::to_string(b.bytes),
                                    std::to_string(b.new_bytes)};
    if (args.check) {
      const Status verified = VerifyBackup(args.to, b.id);
      if (!verified.ok()) ++damaged;
      row.push_back(verified.ok() ? "ok" : verified.message());
    }
    if (format == Format::kTable) {
      row[5] = HumanBytes(static_cast<double>(b.bytes));
      row[6] = HumanBytes(static_cast<double>(b.new_bytes));
    }
    rows.push_back(std::move(row));
  }
  // The description's keys name its columns (pipelines/store_backups.hpp holds the only list).
  std::vector<std::string> columns = {"backup",         "made",  kBackupFilesKey, kBackupEventsKey,
                                      kBackupNewestHourKey, "bytes", "new_bytes"};
  std::vector<bool> numeric = {true, false, true, true, false, true, true};
  if (args.check) {
    columns.push_back("check");
    numeric.push_back(false);
  }
  WriteTable(std::cout, format, columns, rows, numeric);
  if (rows.empty()) std::fprintf(stderr, "ghsift: %s holds no backup\n", TerminalSafe(args.to).c_str());
  if (damaged > 0) {
    std::fprintf(stderr, "ghsift: --check: %s of %zu damaged\n", Counted(damaged, "backup").c_str(), rows.size());
    return kExitCheckFailed;
  }
  return kExitOk;
}

int RunBackup(const BackupArgs& args) {
  if (args.list) {
    if (!args.store.empty()) return Fail("--list reads the backup directory alone: no --store");
    if (args.keep) return Fail("--keep goes with a backup, not with --list");
    return RunList(args);
  }
  if (args.check) return Fail("--check goes with --list");
  if (args.store.empty()) return Fail("backup needs --store DIR (or --list)");
  if (args.keep && *args.keep == 0) return Fail("--keep must be at least 1 (the backup just made)");
  // Said as a reader's open says it: the writer's would make a store there.
  if (const Status is_store = Store::CheckIsStore(args.store); !is_store.ok()) return Fail(is_store.message());
  auto store = Store::Open(args.store, StoreMode::kReadWrite);
  if (!store.ok()) return FailOpening(store.status());
  const BackupPolicy policy{.dir = args.to, .keep = args.keep, .create_dir = true};
  auto made = BackUpStore(**store, policy);
  if (!made.ok()) return Fail(made.status().message());
  auto all = ListBackups(args.to);
  const size_t kept = all.ok() ? all->size() : 0;
  std::fprintf(stderr, "ghsift: %s; the store holds %s, %s, up to %s; %s kept there\n",
               BackupMadeText(*made, policy).c_str(), CountOf(made->description, kBackupFilesKey, "file").c_str(),
               CountOf(made->description, kBackupEventsKey, "event").c_str(), Hour(made->description).c_str(),
               Counted(kept, "backup").c_str());
  return kExitOk;
}

int RunRestore(const RestoreArgs& args) {
  auto restored = RestoreBackup(args.from, args.backup, args.store);
  if (!restored.ok()) return Fail(restored.status().message());
  std::fprintf(stderr, "ghsift: restored backup %u of %s (made %s) as %s: %s, %s, up to %s\n",
               restored->id, TerminalSafe(args.from).c_str(), FormatIsoTime(restored->made_at).c_str(),
               TerminalSafe(args.store).c_str(), CountOf(restored->description, kBackupFilesKey, "file").c_str(),
               CountOf(restored->description, kBackupEventsKey, "event").c_str(),
               Hour(restored->description).c_str());
  return kExitOk;
}

}  // namespace

void AddBackupCommand(CLI::App& command, int& exit_code) {
  auto args = std::make_shared<BackupArgs>();
  CLI::App* cmd = &command;
  cmd->add_option("--store", args->store, "Store directory to back up (no ingest may write it meanwhile)");
  cmd->add_option("--to", args->to, "Backup directory (created if missing; one directory holds many backups)")
      ->required();
  cmd->add_option("--keep", args->keep, "Keep the newest N backups there, removing older ones")
      ->type_name("UINT:N >= 1");
  cmd->add_flag("--list", args->list, "List the backups in --to instead: id, when, what the store held, size");
  cmd->add_flag("--check", args->check,
                "With --list: read every backup's files against their checksums; exit 1 when one is damaged");
  cmd->add_option("--format", args->format, "With --list: table or json");
  cmd->callback([args, &exit_code] { exit_code = RunBackup(*args); });
}

void AddRestoreCommand(CLI::App& command, int& exit_code) {
  auto args = std::make_shared<RestoreArgs>();
  CLI::App* cmd = &command;
  cmd->add_option("--from", args->from, "Backup directory (ghsift backup --to)")->required();
  cmd->add_option("--store", args->store, "The new store to write (a path that does not exist, or an empty directory)")
      ->required();
  cmd->add_option("--backup", args->backup, "Which backup (ghsift backup --list); default: the newest")
      ->type_name("ID");
  cmd->callback([args, &exit_code] { exit_code = RunRestore(*args); });
}

}  // namespace ghsift::cli
