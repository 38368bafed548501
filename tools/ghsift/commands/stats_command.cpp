// ghsift stats --store DIR [--format table|json]
#include <iostream>

#include "commands/commands.hpp"
#include "output.hpp"
#include "store/store.hpp"

namespace ghsift::cli {
namespace {

struct StatsArgs {
  std::string store;
  std::string format = "table";
};

int RunStats(const StatsArgs& args) {
  Format format;
  if (!ParseFormat(args.format, &format) || format == Format::kCsv) return Fail("--format must be table or json");
  auto store = Store::Open(args.store, StoreMode::kRead);
  if (!store.ok()) return Fail(store.status().message());
  std::map<std::string, int64_t> stats = (*store)->Stats();
  // Always present, even when zero, so scripts can rely on the keys.
  for (const char* key : {"files", "skipped_files", "failed_files", "events", "bad_lines", "bytes",
                          "compressed_bytes", "reports"}) {
    stats.try_emplace(key, 0);
  }
  stats["store_bytes"] = static_cast<int64_t>((*store)->DiskBytes());
  std::vector<std::vector<std::string>> rows;
  for (const auto& [key, value] : stats) rows.push_back({key, std::to_string(value)});
  if (format == Format::kJson) {
    std::cout << "{";
    bool first = true;
    for (const auto& [key, value] : stats) {
      std::cout << (first ? "\n  " : ",\n  ") << JsonString(key) << ": " << value;
      first = false;
    }
    std::cout << "\n}\n";
  } else {
    WriteTable(std::cout, Format::kTable, {"statistic", "value"}, rows, {false, true});
  }
  return kExitOk;
}

}  // namespace

void AddStatsCommand(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<StatsArgs>();
  CLI::App* cmd = app.add_subcommand("stats", "What a store holds: files, events, bad lines, bytes, size");
  cmd->add_option("--store", args->store, "Store directory")->required();
  cmd->add_option("--format", args->format, "table or json")->capture_default_str();
  cmd->callback([args, &exit_code] { exit_code = RunStats(*args); });
}

}  // namespace ghsift::cli
