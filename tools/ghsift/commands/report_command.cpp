// ghsift report --store DIR --out DIR [--repo R1,R2,...] [--from YYYY-MM] [--to YYYY-MM] [--kind issue|pr|all]
// Writes out/index.html (inline SVG charts), out/report.md and out/tables/*.csv; each number
// comes with the `ghsift query` command that prints it. tables/ holds this run's tables only, and
// any other .csv there (no report recorded writing it) is named on stderr.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "commands/commands.hpp"
#include "commands/common_options.hpp"
#include "commands/report_filter_options.hpp"
#include "commands/store_notes.hpp"
#include "common/terminal_safe.hpp"
#include "common/time_util.hpp"
#include "report/html_report.hpp"
#include "report/report_builder.hpp"

namespace ghsift::cli {
namespace {

//! How many .csv files that are not the report's the note names before "... (N more)".
constexpr size_t kOtherCsvNamed = 10;

struct ReportArgs {
  std::string store, out, from, to;
  ReportFilterArgs filters;  //!< --repo (alias --repos)
  size_t top_labels = 15;
  std::string kind = "issue";
};

int RunReport(const ReportArgs& args) {
  ReportOptions options;
  options.store_path = args.store;
  options.top_labels = args.top_labels;
  options.kind = args.kind;
  options.repos = RepoFilter(args.filters).values;
  if (!args.from.empty()) {
    options.from_month = ParseMonth(args.from);
    if (!options.from_month) return Fail("--from must be YYYY-MM");
  }
  if (!args.to.empty()) {
    options.to_month = ParseMonth(args.to);
    if (!options.to_month) return Fail("--to must be YYYY-MM");
  }
  auto store = Store::Open(args.store, StoreMode::kRead);
  if (!store.ok()) return Fail(store.status().message());
  auto report = BuildReport(**store, options);
  if (!report.ok()) return Fail(report.status().message());
  Result<ReportFilesOutcome> written = WriteReportFiles(*report, args.out);
  if (!written.ok()) return Fail(written.status().message());
  size_t tables = 0;
  for (const auto& s : report->sections) tables += s.tables.size();
  // The directory is the user's name for it: shown safe, as every file name on a terminal.
  const std::string out = TerminalSafe(args.out);
  std::fprintf(stderr, "ghsift: wrote %s/index.html, %s/report.md and %zu tables in %s/tables", out.c_str(),
               out.c_str(), tables, out.c_str());
  if (written->removed > 0) {
    std::fprintf(stderr, "; removed %zu tables an earlier report wrote there and this one does not",
                 written->removed);
  }
  std::fprintf(stderr, "\n");
  PrintFailedFilesNote(**store);
  // A mistyped range or repository writes a report of empty tables: said on the terminal too.
  const bool every_table_empty = std::all_of(report->sections.begin(), report->sections.end(), [](const auto& s) {
    return std::all_of(s.tables.begin(), s.tables.end(), [](const ReportTable& t) { return t.table.rows.empty(); });
  });
  if (every_table_empty) {
    std::string asked = DescribeReportFilters(args.filters);
    if (!args.from.empty()) asked += " --from " + TerminalSafe(args.from);
    if (!args.to.empty()) asked += " --to " + TerminalSafe(args.to);
    if (asked.empty()) {
      std::fprintf(stderr, "ghsift: note: every table is empty: the store holds no report\n");
    } else {
      QueryOptions by_month;
      by_month.dimensions = {std::string(dimension::kMonth)};
      std::fprintf(stderr, "ghsift: note: every table is empty: no report of the store matches%s (`%s` lists the "
                   "months its reports were created in)\n",
                   asked.c_str(), TerminalSafe(QueryCommandLine(args.store, by_month)).c_str());
    }
  }
  // A .csv no report recorded (a person's, or an earlier report's from before the record) stays:
  // named, so that none is taken for one of this run's tables.
  if (const size_t n = written->others.size(); n > 0) {
    std::string names;
    for (size_t i = 0; i < n && i < kOtherCsvNamed; ++i) names += (i ? ", " : "") + TerminalSafe(written->others[i]);
    if (n > kOtherCsvNamed) names += ", ... (" + std::to_string(n - kOtherCsvNamed) + " more)";
    std::fprintf(stderr, "ghsift: note: %zu .csv %s in %s/tables %s not this report's (no report recorded writing %s: "
                 "left as %s): %s\n", n, n == 1 ? "file" : "files", out.c_str(), n == 1 ? "is" : "are",
                 n == 1 ? "it" : "them", n == 1 ? "it is" : "they are", names.c_str());
  }
  return kExitOk;
}

}  // namespace

void AddReportCommand(CLI::App& command, int& exit_code) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* cmd = &command;
  cmd->add_option("--store", args->store, "Store directory")->required();
  cmd->add_option("--out", args->out, "Output directory (created)")->required();
  AddReportFilterOptions(*cmd, args->filters, false, true, true);
  cmd->add_option("--from", args->from, "First month, YYYY-MM");
  cmd->add_option("--to", args->to, "Last month, YYYY-MM");
  AddKindOption(*cmd, args->kind);
  cmd->add_option("--top-labels", args->top_labels, "Labels drawn per label chart")
      ->check(PositiveCountCheck())
      ->capture_default_str();
  cmd->callback([args, &exit_code] { exit_code = RunReport(*args); });
}

}  // namespace ghsift::cli
