// ghsift stats --store DIR [--format table|json]
#include <iostream>

#include "commands/commands.hpp"
#include "output.hpp"
#include "query/coverage.hpp"
#include "store/store.hpp"

namespace ghsift::cli {
namespace {

struct StatsArgs {
  std::string store;
  std::string format = "table";
  bool coverage = false;
  std::string from, to;
  double low_ratio = 0.1;
};

int RunCoverage(const Store& store, const StatsArgs& args, Format format) {
  std::optional<int64_t> from, to;
  if (!args.from.empty() && !(from = ParseHour(args.from))) return Fail("--from must be YYYY-MM-DD or YYYY-MM-DD-H");
  if (!args.to.empty() && !(to = ParseHour(args.to))) return Fail("--to must be YYYY-MM-DD or YYYY-MM-DD-H");
  if (to && args.to.size() == 10) *to += 23;  // a day names all its hours
  auto c = ComputeCoverage(store, from, to, args.low_ratio);
  if (!c.ok()) return Fail(c.status().message());
  if (format == Format::kJson) {
    std::cout << "{\n  \"from\": " << JsonString(FormatHour(c->from_hour)) << ",\n  \"to\": "
              << JsonString(FormatHour(c->to_hour)) << ",\n  \"hours_ingested\": " << c->hours_ingested
              << ",\n  \"median_events\": " << c->median_events << ",\n  \"missing_hours\": [";
    for (size_t i = 0; i < c->missing_hours.size(); ++i) {
      std::cout << (i ? ", " : "") << JsonString(FormatHour(c->missing_hours[i]));
    }
    std::cout << "],\n  \"low_hours\": [";
    for (size_t i = 0; i < c->low_hours.size(); ++i) {
      std::cout << (i ? ", " : "") << "{\"hour\": " << JsonString(FormatHour(c->low_hours[i].first))
                << ", \"events\": " << c->low_hours[i].second << "}";
    }
    std::cout << "],\n  \"failed_files\": [";
    for (size_t i = 0; i < c->failed_files.size(); ++i) {
      std::cout << (i ? ", " : "") << "{\"file\": " << JsonString(c->failed_files[i].first)
                << ", \"reason\": " << JsonString(c->failed_files[i].second) << "}";
    }
    std::cout << "],\n  \"missing_at_source\": [";
    for (size_t i = 0; i < c->missing_at_source.size(); ++i) {
      std::cout << (i ? ", " : "") << "{\"file\": " << JsonString(c->missing_at_source[i].first)
                << ", \"reason\": " << JsonString(c->missing_at_source[i].second) << "}";
    }
    std::cout << "]\n}\n";
    return kExitOk;
  }
  std::cout << "hours " << FormatHour(c->from_hour) << " .. " << FormatHour(c->to_hour) << ": " << c->hours_ingested
            << " ingested, " << c->missing_hours.size() << " missing, " << c->low_hours.size()
            << " with fewer than " << args.low_ratio << " x the median of " << c->median_events << " events\n";
  for (int64_t h : c->missing_hours) std::cout << "missing  " << FormatHour(h) << "\n";
  for (const auto& [h, n] : c->low_hours) std::cout << "low      " << FormatHour(h) << "  " << n << " events\n";
  for (const auto& [file, reason] : c->failed_files) std::cout << "failed   " << file << "  " << reason << "\n";
  for (const auto& [file, reason] : c->missing_at_source) {
    std::cout << "absent   " << file << "  " << reason << "\n";  // a gap of the archive, not a failure
  }
  return kExitOk;
}

int RunStats(const StatsArgs& args) {
  Format format;
  if (!ParseFormat(args.format, &format) || format == Format::kCsv) return Fail("--format must be table or json");
  auto store = Store::Open(args.store, StoreMode::kRead);
  if (!store.ok()) return Fail(store.status().message());
  if (args.coverage) return RunCoverage(**store, args, format);
  std::map<std::string, int64_t> stats = (*store)->Stats();
  // Always present, even when zero, so scripts can rely on the keys.
  for (const char* key : {"files", "skipped_files", "failed_files", "events", "bad_lines", "bytes",
                          "compressed_bytes", "reports", "joined_records", "duplicate_events"}) {
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
  cmd->add_flag("--coverage", args->coverage, "List missing hours, hours with few events, and failed files");
  cmd->add_option("--from", args->from, "With --coverage: first hour, YYYY-MM-DD[-H] (default: first ingested)");
  cmd->add_option("--to", args->to, "With --coverage: last hour, YYYY-MM-DD[-H] (default: last ingested)");
  cmd->add_option("--low-ratio", args->low_ratio, "With --coverage: an hour below this share of the median is low")
      ->capture_default_str();
  cmd->callback([args, &exit_code] { exit_code = RunStats(*args); });
}

}  // namespace ghsift::cli
