// ghsift query --store DIR --by DIMS [--metric M[,M...]] [--fill-zeros] [filters] [--format table|csv|json]
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>
#include <string_view>

#include "commands/commands.hpp"
#include "commands/report_filter_options.hpp"
#include "commands/store_notes.hpp"
#include "common/closest_name.hpp"
#include "common/terminal_safe.hpp"
#include "common/time_range.hpp"
#include "common/time_util.hpp"
#include "output.hpp"
#include "terminal_stdout.hpp"
#include "query/blind_months.hpp"
#include "query/dimensions.hpp"
#include "query/metric.hpp"
#include "query/query.hpp"
#include "query/query_metrics.hpp"
#include "rollup/rollup.hpp"

namespace ghsift::cli {
namespace {

struct QueryArgs {
  std::string store;
  std::string by;
  std::string metric = "issues";
  std::string from, to;
  ReportFilterArgs filters;  //!< --repo, and --state, --label, ... (report metrics)
  ReportSelectionArgs selection;  //!< --category, --subcategory, --kind
  std::string format = "table";
  bool scan = false;
  bool fill_zeros = false;
};

int RunQueryCommand(const QueryArgs& args) {
  Format format;
  if (!ParseFormat(args.format, &format)) return Fail(FormatRefusal(args.format));
  QueryOptions options;
  std::vector<Metric> metrics;
  for (const std::string& name : SplitList(args.metric)) {
    const auto metric = MetricFromName(name);
    if (!metric) {
      return Fail("--metric must be " + JoinChoices(MetricNames()) + ", not '" + name + "'" +
                  DidYouMean(name, MetricNames()));
    }
    if (std::find(metrics.begin(), metrics.end(), *metric) != metrics.end()) {
      return Fail("metric '" + name + "' is given twice in --metric");
    }
    metrics.push_back(*metric);
  }
  if (metrics.empty()) return Fail("--metric needs a metric: " + JoinChoices(MetricNames()));
  const bool events = std::find(metrics.begin(), metrics.end(), Metric::kEvents) != metrics.end();
  // One metric at a time through the checks below, which speak of "the" metric.
  options.metric = events ? Metric::kEvents : metrics.front();
  if (events && args.selection.kind != ReportSelectionArgs{}.kind) {
    return Fail("--kind applies to report metrics; events are counted by --by type");
  }
  options.dimensions = SplitList(args.by);
  options.repo = RepoFilter(args.filters);
  options.where = ValueFiltersOf(args.filters);
  if (!args.selection.category.empty()) options.category = args.selection.category;
  options.kind = args.selection.kind;
  options.use_rollup = !args.scan;
  // Counts are kept per month: a range must start and end on a month's edges.
  for (const auto& [text, option] : {std::pair{&args.from, "--from"}, std::pair{&args.to, "--to"}}) {
    if (!text->empty() && !ParseMonth(*text)) {
      return Fail(std::string(option) + " '" + *text + "': query counts by month; give YYYY-MM");
    }
  }
  auto range = ParseTimeRange(args.from, "--from", args.to, "--to", NowSeconds(), false);
  if (!range.ok()) return Fail(range.status().message());
  if (range->begin) options.from_month = MonthOfDay(DayOf(*range->begin));
  if (range->end) options.to_month = MonthOfDay(DayOf(*range->end - 1));
  if (!args.selection.subcategory.empty()) options.subcategory = args.selection.subcategory;
  auto store = Store::Open(args.store, StoreMode::kRead);
  if (!store.ok()) return Fail(store.status().message());
  auto table = RunQueryMetrics(**store, options, metrics, args.fill_zeros);
  if (!table.ok()) return Fail(table.status().message());
  // Months where the archive is blind: a note on stderr, so that stdout stays the table.
  std::vector<std::string> blind_notes;
  const auto month_at = std::find(options.dimensions.begin(), options.dimensions.end(), dimension::kMonth);
  if (metrics != std::vector<Metric>{Metric::kEvents} && month_at != options.dimensions.end() && !table->rows.empty()) {
    auto blind = BlindMonths::Load(**store);
    if (!blind.ok()) return Fail(blind.status().message());
    // The list the report prints for the same months (its head, legends and marks): the months
    // the store read, not every month a row's report was created in.
    const BlindMonthList list = blind->Within(options.from_month, options.to_month);
    const std::vector<int32_t>& no_issue_text = list.no_issue_text;
    const std::vector<int32_t>& no_pull_request_text = list.no_pull_request_text;
    auto note = [&](const std::vector<int32_t>& months, std::string_view legend) {
      if (months.empty()) return;
      blind_notes.push_back("ghsift: note: " + MonthRuns(months) + ": " + std::string(legend) +
                            " (`ghsift stats --coverage` shows the shares)");
    };
    // Each note where it bears on the answer: issue text on issues; pull-request text on pull
    // requests' own flags, and on a dimension that reads it (resolution: a closing PR's "fixes #12").
    const bool by_pull_request_text = ReadsPullRequestText(options.dimensions);
    if (options.kind != "pr") note(no_issue_text, kNoIssueTextLegend);
    if (options.kind == "pr") {
      note(no_pull_request_text, "the archive holds no pull-request text for these months: counts of flagged pull "
                                 "requests are not comparable");
    } else if (options.kind == "all" || by_pull_request_text) {
      note(no_pull_request_text, kNoPullRequestTextLegend);
    }
  }
  // A facet describes reports whether or not they are flagged: query counts all that have it,
  // `issues` and `sample` list the flagged ones. Said, so that a population read here is not
  // taken for the one a sample is drawn from.
  if (options.category) {
    auto model = LoadStoreModel(**store);
    if (!model.ok()) return Fail(model.status().message());
    if (model->IsFacet(*options.category)) {
      blind_notes.push_back("ghsift: note: --category " + TerminalSafe(*options.category) +
                            " is a facet: these are all the reports that have it, flagged or not; `issues` and "
                            "`sample` list only the flagged ones among them");
    }
  }
  std::vector<std::vector<std::string>> rows;
  rows.reserve(table->rows.size());
  const bool nothing = !table->matched;
  for (size_t i = 0; i < table->rows.size(); ++i) {
    rows.push_back(std::move(table->rows[i]));
    for (size_t m = 0; m < metrics.size(); ++m) {
      const std::optional<double> value = table->values[i][m];
      rows.back().push_back(value ? MetricValueText(metrics[m], *value) : "");  // "": a median of nothing
    }
  }
  std::vector<bool> numeric(table->columns.size(), false);
  for (size_t m = 0; m < metrics.size(); ++m) numeric[options.dimensions.size() + m] = true;
  // A numeric dimension (the table's flag: reopened) is a column of numbers too, right-aligned and
  // unquoted in JSON, so whoever sorts the answer sorts numbers; only while every cell is one (or
  // empty: null), so that a value that is none stays valid JSON as text.
  for (size_t d = 0; d < options.dimensions.size(); ++d) {
    const Dimension* dimension = FindDimension(options.dimensions[d]);
    numeric[d] = dimension != nullptr && dimension->numeric && IsNumberColumn(rows, d);
  }
  const std::string out = FormatTable(format, table->columns, rows, numeric);
  {
    // Through std::cout, where the Python module captures the table; csv and json shown escaped
    // on a terminal (the table is already).
    std::optional<EscapedOnATerminal> on_terminal;
    if (format != Format::kTable) on_terminal.emplace();
    std::cout.write(out.data(), static_cast<std::streamsize>(out.size()));
  }
  if (nothing) {
    std::fflush(stdout);
    const std::string what = metrics.size() > 1 ? "reports or events" : std::string(SpecOf(metrics.front()).counts);
    // Open sets (labels, logins, repositories) are matched as given, unchecked: say where their
    // values are listed.
    std::fprintf(stderr, "ghsift: no %s in the store match these filters (try fewer filters or a wider range; "
                         "`--by label` lists the labels it holds, and so for each filter)\n", what.c_str());
  }
  std::fflush(stdout);
  for (const std::string& line : blind_notes) std::fprintf(stderr, "%s\n", line.c_str());
  PrintFailedFilesNote(**store);
  return kExitOk;
}

//! The --metric help, from the metric table.
std::string MetricHelp() {
  std::vector<std::string> metrics;
  for (const MetricSpec& m : Metrics()) metrics.push_back(std::string(m.name) + " (" + std::string(m.help) + ")");
  return JoinChoices(metrics) + "; a comma list gives one column each, over the same groups";
}

//! The --by help, from the dimension table.
std::string ByHelp() {
  std::string reports, events;
  for (const Dimension& d : Dimensions()) {
    if (d.of_reports() && d.groupable) {
      reports += (reports.empty() ? "" : "; ") + std::string(d.name) + ": " + std::string(d.help);
    }
    if (d.of_events()) events += (events.empty() ? "" : ", ") + std::string(d.name);
  }
  return "Comma list of dimensions. Of reports: " + reports + ". Of events (--metric events): " + events +
         ". Empty: one total";
}

//! The --fill-zeros help, from the dimension rows that know every value they can have
//! (Dimension::every_value).
std::string FillZerosHelp() {
  std::vector<std::string> filled;
  for (const Dimension& d : Dimensions()) {
    if (d.every_value == nullptr) continue;
    const std::string_view what = d.every_value_help;
    filled.push_back(std::string(d.name) + (what.empty() ? "" : " (" + std::string(what) + ")"));
  }
  return "Also the groups without any, by each dimension that knows every value it can have: " +
         JoinChoices(filled) + "; other dimensions keep the values found. Counts 0, medians empty";
}

}  // namespace

void AddQueryCommand(CLI::App& command, int& exit_code) {
  auto args = std::make_shared<QueryArgs>();
  CLI::App* cmd = &command;
  cmd->add_option("--store", args->store, "Store directory")->required();
  // Given empty (`--by "$UNSET"`), it would answer one total: refused, as an empty filter is.
  cmd->add_option("--by", args->by, ByHelp())
      ->check(CLI::Validator(
          [](const std::string& value) {
            return SplitList(value).empty() ? std::string("an empty value (leave the option out for one total)")
                                            : std::string();
          },
          ""));
  cmd->add_option("--metric", args->metric, MetricHelp())->capture_default_str();
  cmd->add_flag("--fill-zeros", args->fill_zeros, FillZerosHelp());
  AddReportFilterOptions(*cmd, args->filters, false);
  AddReportSelectionOptions(*cmd, args->selection, CategoryForm::kOneOrFacetElseAll);
  cmd->add_option("--from", args->from, "First month, YYYY-MM");
  cmd->add_option("--to", args->to, "Last month, YYYY-MM");
  cmd->add_option("--format", args->format, "table, csv or json")->capture_default_str();
  cmd->add_flag("--scan", args->scan,
                "Read every report instead of the rollup (same answer, slower: for checking and timing)");
  cmd->callback([args, &exit_code] { exit_code = RunQueryCommand(*args); });
}

}  // namespace ghsift::cli
