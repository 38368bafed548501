// ghsift stats --store DIR [--files | --coverage ...] [--format table|json]
#include <algorithm>
#include <climits>
#include <cstdio>
#include <iostream>

#include "commands/commands.hpp"
#include "pipelines/rule_layers_meta.hpp"
#include "common/time_range.hpp"
#include "common/time_util.hpp"
#include "output.hpp"
#include "pipelines/store_scope.hpp"
#include "query/coverage.hpp"
#include "query/query.hpp"
#include "rollup/rollup.hpp"
#include "store/store.hpp"

namespace ghsift::cli {
namespace {

struct StatsArgs {
  std::string store;
  std::string format = "table";
  bool coverage = false;
  bool files = false;
  std::string from, to;
  double low_ratio = 0.1;
  bool check = false;
};

//! --check: whether the range lacks hours a run could still fill (not ingested, failed or never
//! read; not the archive's own gaps, which no run fills). When it does, one line on stderr says
//! so and the status is kExitCheckFailed, for a monitoring script or the end of a backfill.
int CheckedExit(const Coverage& c, const StatsArgs& args) {
  if (!args.check) return kExitOk;
  const size_t to_fill = HoursToFill(c);
  if (to_fill == 0 && c.failed_files.empty()) return kExitOk;
  std::cout.flush();  // after the listing it sums up
  std::fprintf(stderr,
               "ghsift: --check: %s of %s .. %s not in the store, %s failed when ingested (the archive's own gaps "
               "left out)\n",
               Counted(to_fill, "hour").c_str(), FormatHour(c.from_hour).c_str(), FormatHour(c.to_hour).c_str(),
               Counted(c.failed_files.size(), "file").c_str());
  return kExitCheckFailed;
}

int RunCoverage(const Store& store, const StatsArgs& args, Format format) {
  std::optional<int64_t> from, to;
  // The command line's one time syntax; a month or a day names all its hours.
  const int64_t now = NowSeconds();
  auto range = ParseTimeRange(args.from, "--from", args.to, "--to", now, true);
  if (!range.ok()) return Fail(range.status().message());
  if (range->begin) from = *range->begin / 3600;
  if (range->end) to = (*range->end + 3599) / 3600 - 1;
  if (!(args.low_ratio >= 0 && args.low_ratio <= 1)) return Fail("--low-ratio must be between 0 and 1");
  // A span back from now (--from 12h) asks about the hours up to now: they end at the newest
  // hour that has ended, not at the last one ingested, which would hide a stalled ingest.
  const int64_t newest_ended = now / 3600 - 1;
  if (!args.from.empty() && args.to.empty()) {
    auto start = ParseTimeArgument(args.from, "--from", now, true);
    if (start.ok() && start->precision == TimePrecision::kRelative) to = std::max(newest_ended, *from);
  }
  auto c = ComputeCoverage(store, from, to, args.low_ratio);
  if (!c.ok()) return Fail(c.status().message());
  if (from && !to && !c->placed_any) {
    // No hour ingested yet (every one asked for was missing or failed): up to now, as above.
    c = ComputeCoverage(store, from, std::max(newest_ended, *from), args.low_ratio);
    if (!c.ok()) return Fail(c.status().message());
  }
  if (format == Format::kJson) {
    const bool no_hours = !c->placed_any && args.from.empty() && args.to.empty();
    std::cout << "{\n  \"from\": " << (no_hours ? "null" : JsonString(FormatHour(c->from_hour))) << ",\n  \"to\": "
              << (no_hours ? "null" : JsonString(FormatHour(c->to_hour))) << ",\n  \"hours_ingested\": " << c->hours_ingested
              << ",\n  \"median_events\": " << c->median_events << ",\n  \"missing_hours\": [";
    for (size_t i = 0; i < c->missing_hours.size(); ++i) {
      std::cout << (i ? ", " : "") << JsonString(FormatHour(c->missing_hours[i]));
    }
    std::cout << "],\n  \"low_hours\": [";
    for (size_t i = 0; i < c->low_hours.size(); ++i) {
      std::cout << (i ? ", " : "") << "{\"hour\": " << JsonString(FormatHour(c->low_hours[i].first))
                << ", \"events\": " << c->low_hours[i].second << "}";
    }
    std::cout << "],\n  \"unplaced_files\": [";
    for (size_t i = 0; i < c->unplaced_files.size(); ++i) std::cout << (i ? ", " : "") << JsonString(c->unplaced_files[i]);
    std::cout << "],\n  \"failed_files\": [";
    for (size_t i = 0; i < c->failed_files.size(); ++i) {
      std::cout << (i ? ", " : "") << "{\"file\": " << JsonString(c->failed_files[i].first)
                << ", \"reason\": " << JsonString(c->failed_files[i].second) << "}";
    }
    std::cout << "],\n  \"text_by_month\": [";
    for (size_t i = 0; i < c->text_shares.size(); ++i) {
      const TextShare& s = c->text_shares[i].second;
      std::cout << (i ? ", " : "") << "{\"month\": " << JsonString(FormatMonth(c->text_shares[i].first))
                << ", \"issue_events\": " << s.issue_events << ", \"issue_events_with_text\": " << s.issue_events_text
                << ", \"pr_events\": " << s.pr_events << ", \"pr_events_with_text\": " << s.pr_events_text << "}";
    }
    std::cout << "],\n  \"missing_at_source\": [";
    for (size_t i = 0; i < c->missing_at_source.size(); ++i) {
      std::cout << (i ? ", " : "") << "{\"file\": " << JsonString(c->missing_at_source[i].first)
                << ", \"reason\": " << JsonString(c->missing_at_source[i].second) << "}";
    }
    std::cout << "]\n}\n";
    return CheckedExit(*c, args);
  }
  // Hours are known from file names: files named otherwise are in no hour, and said so.
  if (!c->unplaced_files.empty()) {
    std::string names;
    for (size_t i = 0; i < c->unplaced_files.size() && i < 5; ++i) names += (i ? ", " : "") + TerminalSafe(c->unplaced_files[i]);
    if (c->unplaced_files.size() > 5) names += ", ...";
    std::cout << "(" << Counted(c->unplaced_files.size(), "ingested file") << " not named by its hour "
              << "(YYYY-MM-DD-H.json.gz), so in no hour below: " << names << ")\n";
  }
  if (!c->placed_any && args.from.empty() && args.to.empty()) {
    std::cout << "no ingested file is named by its hour: no hour to show (give --from and --to to list the "
                 "missing hours of a range)\n";
    return kExitOk;
  }
  std::cout << "hours (UTC) " << FormatHour(c->from_hour) << " .. " << FormatHour(c->to_hour) << ": "
            << WithCommas(c->hours_ingested) << " ingested, " << WithCommas(c->missing_hours.size()) << " missing, "
            << WithCommas(c->low_hours.size()) << " with fewer than " << args.low_ratio << " x the median of "
            << WithCommas(c->median_events) << " events\n";
  // Timeline-era files (2012-03-11 to 2014) are named by the US-Pacific hour of their events.
  const auto timeline_from = ParseHour("2012-03-11"), timeline_to = ParseHour("2015-01-01");
  if (c->from_hour < *timeline_to && c->to_hour >= *timeline_from) {
    std::cout << "(files of 2012-03-11 to 2014 are named by the US-Pacific hour: such a file fills the UTC hour 7 or "
                 "8 hours after its name)\n";
  }
  // One line per run of consecutive missing hours: a sparse store misses thousands in a row.
  std::vector<std::pair<std::string, std::string>> lines;  // (first column, rest)
  for (size_t i = 0; i < c->missing_hours.size();) {
    size_t j = i;
    while (j + 1 < c->missing_hours.size() && c->missing_hours[j + 1] == c->missing_hours[j] + 1) ++j;
    const int64_t first = c->missing_hours[i], last = c->missing_hours[j];
    lines.push_back({"missing", FormatHour(first) + (j == i ? "" : " .. " + FormatHour(last) + "  (" +
                                                                     WithCommas(j - i + 1) + " hours)")});
    i = j + 1;
  }
  for (const auto& [h, n] : c->low_hours) lines.push_back({"low", FormatHour(h) + "  " + WithCommas(n) + " events"});
  for (const auto& [file, reason] : c->failed_files) lines.push_back({"failed", file + "  " + reason});
  // Hours missing at the source (a gap of the archive, not a failure): one line per run of
  // consecutive hours, as for missing hours; a single one with its reason.
  const auto& absent = c->missing_at_source;
  for (size_t i = 0; i < absent.size();) {
    size_t j = i;
    // Consecutive in UTC hours: the Pacific-named files of 2012-2014 skip or repeat a name at
    // the clock changes.
    const auto follows = [&](size_t k) {
      const std::vector<int64_t> before = UtcHoursOfFileName(absent[k].first);
      const std::vector<int64_t> after = UtcHoursOfFileName(absent[k + 1].first);
      return !before.empty() && !after.empty() && after.front() == before.back() + 1;
    };
    while (j + 1 < absent.size() && follows(j)) ++j;
    lines.push_back({"absent", j == i ? absent[i].first + "  " + absent[i].second
                                      : absent[i].first + " .. " + absent[j].first + "  (" + WithCommas(j - i + 1) +
                                            " files, " + std::string(kMissingAtSource) + ")"});
    i = j + 1;
  }
  // File names and reasons (a server's words) are shown safely, as report text is.
  for (const auto& [kind, rest] : lines) std::cout << kind << std::string(9 - kind.size(), ' ') << TerminalSafe(rest) << "\n";
  // Where the archive holds no report text (2012-2014 issue events, late-2025+ pull requests).
  const auto percent = [](uint64_t part, uint64_t whole) {
    return whole == 0 ? std::string("-") : std::to_string((part * 1000 / whole + 5) / 10) + "%";
  };
  for (const auto& [month, s] : c->text_shares) {
    std::cout << "text     " << FormatMonth(month) << "  issue events with text " << percent(s.issue_events_text, s.issue_events)
              << " of " << WithCommas(s.issue_events) << ", pull-request events with title/body "
              << percent(s.pr_events_text, s.pr_events) << " of " << WithCommas(s.pr_events) << "\n";
  }
  return CheckedExit(*c, args);
}

//! Every ingested file with its counts, then the files that failed and were not ingested since.
int RunFiles(const Store& store, Format format) {
  std::vector<std::vector<std::string>> rows;
  const Status scanned = store.ScanFiles([&](const std::string& name, const FileEntry& e) {
    rows.push_back({name, "ingested", std::to_string(e.events), std::to_string(e.bad_lines),
                    std::to_string(e.report_events_without_number), std::to_string(e.size),
                    std::to_string(e.decoded_bytes), e.ingested_at ? FormatIsoTime(e.ingested_at) : "", ""});
  });
  if (!scanned.ok()) return Fail(scanned.message());
  // The reason last: a long one would widen every row of the table otherwise. An hour missing at
  // the source is not a failure of ghsift's: its own status.
  const std::string none = format == Format::kJson ? "null" : "";
  for (const auto& [name, reason] : store.Failures()) {
    rows.push_back({name, IsMissingAtSource(reason) ? "missing at source" : "failed", none, none, none, none, none,
                    "", reason});
  }
  // In time order, as the archive's hours run (names sort 2026-12-01-10 before -2).
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return HourOfFileName(a[0]).value_or(INT64_MAX) < HourOfFileName(b[0]).value_or(INT64_MAX);
  });
  WriteTable(std::cout, format,
             {"file", "status", "events", "bad_lines", "report_events_without_number", "bytes", "decoded_bytes",
              "ingested_at", "reason"},
             rows, {false, false, true, true, true, true, true, false, false});
  return kExitOk;
}

int RunStats(const StatsArgs& args) {
  Format format;
  if (!ParseFormat(args.format, &format)) return Fail(FormatRefusal(args.format));
  if (format == Format::kCsv && !args.files) return Fail("--format csv goes with --files; stats: table or json");
  if (args.files && args.coverage) return Fail("--files and --coverage are two views: give one");
  if (!args.coverage && (!args.from.empty() || !args.to.empty())) return Fail("--from and --to go with --coverage");
  if (!args.coverage && args.check) return Fail("--check goes with --coverage");
  auto store = Store::Open(args.store, StoreMode::kRead);
  if (!store.ok()) return Fail(store.status().message());
  if (args.coverage) return RunCoverage(**store, args, format);
  if (args.files) return RunFiles(**store, format);
  auto counters = (*store)->Stats();
  if (!counters.ok()) return Fail(counters.status().message());
  std::map<std::string, int64_t> stats = std::move(*counters);
  // Always present, even when zero, so scripts can rely on the keys.
  for (const char* key : {"files", "skipped_files", "failed_files", "missing_at_source", "events", "bad_lines",
                          "report_events_without_number", "bytes", "compressed_bytes", "reports", "joined_records",
                          "duplicate_events"}) {
    stats.try_emplace(key, 0);
  }
  // The stored counter adds each file's report events (a report seen in N hours counts N
  // times): shown as such, beside the number of distinct reports, which query gives.
  stats["report_events"] = stats["reports"];
  QueryOptions distinct;
  distinct.kind = "all";
  auto reports = RunQuery(**store, distinct);
  if (!reports.ok()) return Fail(reports.status().message());
  stats["reports"] = reports->counts.empty() ? 0 : reports->counts[0];
  // Files failed and not ingested since (a failure clears once its file is ingested), apart from
  // hours missing at the source (404: a gap of the archive).
  int64_t failed = 0, missing = 0;
  for (const auto& [name, reason] : (*store)->Failures()) ++(IsMissingAtSource(reason) ? missing : failed);
  stats["failed_files"] = failed;
  stats["missing_at_source"] = missing;
  stats["store_bytes"] = static_cast<int64_t>((*store)->DiskBytes());
  auto scope = DescribeStoreScope(**store);
  if (!scope.ok()) return Fail(scope.status().message());
  const StoreScopeDescription& d = *scope;
  const std::string repos = !d.known        ? "(nothing ingested yet)"
                            : d.all_repos   ? "all repositories"
                                            : std::to_string(d.tracked_repos) + " tracked repositories" +
                                                (d.default_repos ? " (the default rules/repos.txt)"
                                                                 : " (list digest " + d.scope_digest + ")");
  const std::string rules = !d.known ? "" : d.rules_digest + (d.default_rules ? " (the default rule set)" : " (custom)");
  const std::string options = d.options.empty() ? "(none: the defaults)" : d.options;
  // The categories of the store's rule model (problems flag a report, facets describe it), and
  // the rule layers its ingests were given.
  std::vector<std::string> problems, facets;
  if (d.known) {
    auto model = LoadStoreModel(**store);
    if (!model.ok()) return Fail(model.status().message());
    for (const std::string& c : model->categories()) (model->IsFacet(c) ? facets : problems).push_back(c);
  }
  auto layers = ReadRuleLayers(**store);
  if (!layers.ok()) return Fail(layers.status().message());
  if (format == Format::kJson) {
    std::cout << "{";
    bool first = true;
    for (const auto& [key, value] : stats) {
      std::cout << (first ? "\n  " : ",\n  ") << JsonString(key) << ": " << value;
      first = false;
    }
    std::cout << ",\n  \"scope\": " << JsonString(!d.known ? "" : d.all_repos ? "all" : "tracked")
              << ",\n  \"tracked_repos\": " << d.tracked_repos << ",\n  \"scope_digest\": " << JsonString(d.scope_digest)
              << ",\n  \"keep_text\": " << (d.keep_text ? "true" : "false")
              << ",\n  \"rules_digest\": " << JsonString(d.rules_digest)
              << ",\n  \"default_rules\": " << (d.default_rules ? "true" : "false")
              << ",\n  \"ingest_options\": " << JsonString(d.options) << ",\n  \"categories\": " << JsonArray(problems)
              << ",\n  \"facets\": " << JsonArray(facets) << ",\n  \"rule_layers\": [";
    for (size_t i = 0; i < layers->size(); ++i) std::cout << (i ? ", " : "") << JsonArray((*layers)[i]);
    std::cout << "]\n}\n";
  } else {
    std::vector<std::vector<std::string>> rows;
    for (const auto& [key, value] : stats) rows.push_back({key, std::to_string(value)});
    WriteTable(std::cout, Format::kTable, {"statistic", "value"}, rows, {false, true});
    std::cout << "\nscope        " << repos << "\nkeep text    " << (d.keep_text ? "yes" : "no") << "\nrule set     "
              << rules << "\ningest with  " << options << "\n";
    for (const std::string& note : d.notes) std::cout << "             " << note << "\n";
    const auto joined = [](const std::vector<std::string>& items) {
      std::string out;
      for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
      return out.empty() ? std::string("(none)") : out;
    };
    if (d.known) std::cout << "categories   " << joined(problems) << "\nfacets       " << joined(facets) << "\n";
    // Each list of layers an ingest was given, in order (a later layer overrides an earlier).
    for (size_t i = 0; i < layers->size(); ++i) {
      std::vector<std::string> shown;
      for (const std::string& layer : (*layers)[i]) shown.push_back(DescribeRuleLayer(layer));
      std::string line;
      for (const std::string& s : shown) line += (line.empty() ? "" : " + ") + s;
      std::cout << (i == 0 ? "rule layers  " : "             ") << TerminalSafe(line) << "\n";
    }
    if (d.known && layers->empty()) std::cout << "rule layers  (not recorded: the store was built before ghsift kept them)\n";
  }
  return kExitOk;
}

}  // namespace

void AddStatsCommand(CLI::App& command, int& exit_code) {
  auto args = std::make_shared<StatsArgs>();
  CLI::App* cmd = &command;
  cmd->add_option("--store", args->store, "Store directory")->required();
  cmd->add_option("--format", args->format, "table or json (csv too with --files)")->capture_default_str();
  cmd->add_flag("--coverage", args->coverage, "List missing hours, hours with few events, and failed files");
  cmd->add_flag("--files", args->files, "List every ingested file with its counts, and files that failed");
  cmd->add_option("--from", args->from, "With --coverage: first hour, YYYY-MM[-DD[THH]] or 7d, 4w back from now (default: first ingested)");
  cmd->add_option("--to", args->to, "With --coverage: last hour, YYYY-MM[-DD[THH]] (default: last ingested; after a span such as 7d, or in a store of no hour, the newest hour that has ended)");
  cmd->add_option("--low-ratio", args->low_ratio, "With --coverage: an hour below this share of the median is low")
      ->capture_default_str();
  cmd->add_flag("--check", args->check,
                "With --coverage: exit 1 when an hour of the range is not in the store or a file failed (hours "
                "missing at the source, the archive's own gaps, excepted)");
  cmd->callback([args, &exit_code] { exit_code = RunStats(*args); });
}

}  // namespace ghsift::cli
