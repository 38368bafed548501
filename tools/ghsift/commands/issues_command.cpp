// ghsift issues --store DIR [--since T] [--until T] [--state S] [--sort K] [--category C]
//               [--subcategory T] [--repo R] [--kind K] [--limit N] [--exit-zero] [--format ...]
// The weekly triage list: flagged reports (a problem category), newest first, with their facets.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>

#include "commands/commands.hpp"
#include "commands/common_options.hpp"
#include "commands/labeling_export.hpp"
#include "commands/report_fields.hpp"
#include "commands/report_filter_options.hpp"
#include "commands/store_notes.hpp"
#include "common/closest_name.hpp"
#include "common/time_range.hpp"
#include "output.hpp"
#include "terminal_stdout.hpp"
#include "pipelines/store_scope.hpp"
#include "query/dimensions.hpp"
#include "query/query.hpp"

namespace ghsift::cli {
namespace {

struct IssuesArgs {
  std::string store;
  std::string sort = "created";
  ReportFilterArgs filters;  //!< --repo, --since, --until, --state, --label, ...
  ReportSelectionArgs selection;  //!< --category, --subcategory, --kind
  size_t limit = 50;
  std::optional<size_t> title_width;  //!< unset: what fits the terminal
  bool exit_zero = false;
  bool scan = false;  //!< read every report instead of the listing index
  std::string format = "table";
};

//! --sort's values: the only list of them (the option's help, its check and the order).
struct SortChoice {
  std::string_view name;
  IssueSort sort;
  std::string_view help;
};
constexpr SortChoice kSortChoices[] = {
    {"created", IssueSort::kCreated, "when it was opened"},
    {"updated", IssueSort::kUpdated, "its latest event"},
    {"score", IssueSort::kScore, "the sum of its problem categories' scores"},
};

std::vector<std::string_view> SortNames() {
  std::vector<std::string_view> names;
  for (const SortChoice& choice : kSortChoices) names.push_back(choice.name);
  return names;
}

std::string SortHelp() {
  std::vector<std::string> parts;
  for (const SortChoice& choice : kSortChoices) {
    parts.push_back(std::string(choice.name) + " (" + std::string(choice.help) + ")");
  }
  return JoinChoices(parts) + "; newest or highest first";
}

//! What a report was flagged with, in one column: each problem category's subcategory tags
//! (with their category: "performance/memory"), or the category alone when it has none.
std::string FlaggedWith(const ListedIssue& i) {
  std::vector<std::string> out;
  for (const std::string& category : i.categories) {
    size_t tagged = 0;
    for (const std::string& tag : i.subcategories) {
      if (tag.size() > category.size() && tag.starts_with(category) && tag[category.size()] == '/') {
        out.push_back(tag);
        ++tagged;
      }
    }
    if (tagged == 0) out.push_back(category);
  }
  return Join(out, ",");
}

//! Facet tags grouped by their facet, each named once: "stage/training, stage/inference,
//! info/repro" -> "stage:training,inference info:repro".
std::string ShortFacets(const std::vector<std::string>& facets) {
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;  // in the order first seen
  for (const std::string& tag : facets) {
    const size_t slash = tag.find('/');
    const std::string facet = tag.substr(0, slash);
    const std::string value = slash == std::string::npos ? "" : tag.substr(slash + 1);
    auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == facet; });
    if (group == groups.end()) group = groups.insert(groups.end(), {facet, {}});
    if (!value.empty()) group->second.push_back(value);
  }
  std::string out;
  for (const auto& [facet, values] : groups) {
    out += (out.empty() ? "" : " ") + facet + (values.empty() ? "" : ":" + Join(values, ","));
  }
  return out;
}

//! The table's width when stdout is no terminal and COLUMNS is not set.
constexpr size_t kDefaultTableColumns = 120;

//! The triage table for a person: the report and its title first, then what it is, so that it
//! fits the terminal. Columns give way in this order until the table fits: the labels, the facets
//! (to a few columns), the title (to 40), what it was flagged with (to 20), then the facets go,
//! the title and the flags shrink further, and the date and the verdict go; a terminal narrower
//! than that gets a wider table. `sort` (as --sort named it) decides the date column: created, or updated.
std::string FormatIssueTable(const std::vector<ListedIssue>& issues, const IssuesArgs& args, IssueSort sort) {
  const bool show_kind = args.selection.kind == "all";
  const bool by_updated = sort == IssueSort::kUpdated;
  // Sorted by score, the score is shown: an order by a number the table hides reads as arbitrary.
  const bool by_score = sort == IssueSort::kScore;
  // The topic (flagged) and, beside it, whether it is a bug (verdict): see the README's "What each
  // command shows by default".
  std::vector<std::string> header = {"report", "title", "state", by_updated ? "updated" : "created", "flagged", "verdict",
                                     "facets", "labels"};
  if (by_score) header.insert(header.begin() + 5, "score");
  if (show_kind) header.insert(header.begin() + 2, "kind");
  const auto column_of = [&](std::string_view name) {
    return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  const size_t title = column_of("title"), labels = column_of("labels"), facets = column_of("facets"),
               flagged = column_of("flagged"), verdict = column_of("verdict"),
               date = column_of(by_updated ? "updated" : "created");
  std::vector<std::vector<std::string>> rows;
  for (const ListedIssue& i : issues) {
    std::vector<std::string> row = {TableCell(i.repo + "#" + std::to_string(i.number)), TableCell(i.title),
                                    i.state, by_updated ? i.updated : i.created, TableCell(FlaggedWith(i)),
                                    TableCell(i.verdict), TableCell(ShortFacets(i.facets)),
                                    TableCell(Join(i.labels, ","))};
    if (by_score) row.insert(row.begin() + 5, CsvCellOf(ReportFieldNamed("score"), i));
    if (show_kind) row.insert(row.begin() + 2, i.kind);
    rows.push_back(std::move(row));
  }
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = DisplayWidth(header[c]);
    for (const auto& row : rows) width[c] = std::max(width[c], DisplayWidth(row[c]));
  }
  const size_t natural_title = width[title];
  if (args.title_width) width[title] = *args.title_width == 0 ? width[title] : std::min(width[title], *args.title_width);
  const size_t total = TerminalColumns() > 0 ? TerminalColumns() : kDefaultTableColumns;
  // (column, the width it may shrink to; 0: left out)
  std::vector<std::pair<size_t, size_t>> give_way = {{labels, 24}, {facets, 24}, {labels, 0},   {facets, 14},
                                                     {title, 40},  {flagged, 20}, {facets, 0},   {title, 24},
                                                     {flagged, 12}, {date, 0},    {verdict, 0}, {title, 16}};
  if (args.title_width) std::erase_if(give_way, [&](const auto& step) { return step.first == title; });
  const auto table_width = [&] {
    size_t sum = 0, shown = 0;
    for (const size_t w : width) {
      sum += w;
      shown += w > 0;
    }
    return sum + 2 * (shown - 1);
  };
  for (const auto& [column, floor] : give_way) {
    const size_t now = table_width();
    if (now <= total) break;
    if (width[column] <= floor) continue;
    const size_t excess = now - total;
    // A column left out goes whole: a few columns of it would say nothing.
    width[column] = floor == 0 ? 0 : std::max(floor, width[column] > excess ? width[column] - excess : 0);
    if (width[column] > 0) width[column] = std::max(width[column], DisplayWidth(header[column]));
  }
  // A column left out can leave room: the title takes it back.
  if (!args.title_width && table_width() < total) {
    width[title] = std::min(natural_title, width[title] + (total - table_width()));
  }
  for (auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      if (width[c] > 0) row[c] = TableCell(row[c], width[c]);
    }
  }
  // Left-out columns go, from the last.
  for (size_t c = header.size(); c-- > 0;) {
    if (width[c] > 0) continue;
    header.erase(header.begin() + c);
    for (auto& row : rows) row.erase(row.begin() + c);
  }
  std::vector<bool> numeric(header.size(), false);
  for (size_t c = 0; c < header.size(); ++c) numeric[c] = header[c] == "score";
  return FormatTable(Format::kTable, header, rows, numeric);
}

//! The columns the labeling exports write after `class` (CSV) or the texts (jsonl): the report
//! fields they carry (ReportField::labeling_place), then the exported dimensions'. The header, each
//! row of either and --format's help read this one list.
std::vector<std::string> LabelingExtraColumnNames() {
  std::vector<std::string> names;
  for (const ReportField* field : LabelingFields(LabelingExport::kIssues)) names.emplace_back(field->name);
  for (const std::string& name : ExportedDimensionNames()) names.push_back(name);
  return names;
}

//! One report a line (jsonl) or a CSV row in the MHNurf columns, with what a labeler needs: the
//! fields `rules eval --labels` reads, and `class` to fill in. The body and comments are the
//! kept text of each flagged report (every text of it in a --keep-text store).
Status WriteLabelingRows(const Store& store, const std::vector<ListedIssue>& issues, bool csv) {
  GHSIFT_ASSIGN_OR_RETURN(const StoreScopeDescription scope, DescribeStoreScope(store));
  if (csv) std::cout << LabelingCsvHeader(LabelingExtraColumnNames());
  const std::vector<const ReportField*> fields = LabelingFields(LabelingExport::kIssues);
  size_t missing = 0;
  for (const ListedIssue& i : issues) {
    GHSIFT_ASSIGN_OR_RETURN(const KeptText kept, ReadKeptText(store, i, scope.keep_text));
    missing += !kept.found;
    if (csv) {
      std::vector<std::string> extra = CsvCellsOf(fields, i);
      for (std::string& value : ExportedValues(i, 0)) extra.push_back(std::move(value));
      std::cout << LabelingCsvRow(i, kept, extra);
      continue;
    }
    std::cout << LabelingJsonOpening(i, kept) << JsonMembersOf(i, fields) << ExportedJsonMembers(i, 0)
              << LabelingJsonClosing();
  }
  NoteMissingTexts(missing, issues.size());
  return Status::Ok();
}

int RunIssues(const IssuesArgs& args) {
  Format format = Format::kJson;
  // jsonl and csv are the labeling exports (MHNurf columns for csv); table and json list only.
  const bool labeling = args.format == "jsonl" || args.format == "csv";
  if (!labeling && !ParseFormat(args.format, &format)) return Fail(FormatRefusal(args.format, {"jsonl"}));
  IssueListOptions options;
  const auto sort = std::find_if(std::begin(kSortChoices), std::end(kSortChoices),
                                 [&](const SortChoice& choice) { return choice.name == args.sort; });
  if (sort == std::end(kSortChoices)) {
    const std::vector<std::string_view> names = SortNames();
    return Fail("--sort must be " + JoinChoices(names) + ", not '" + TerminalSafe(args.sort) + "'" +
                DidYouMean(args.sort, std::vector<std::string>(names.begin(), names.end())));
  }
  options.sort = sort->sort;
  const Status range = CreatedRange(args.filters, options);
  if (!range.ok()) return Fail(range.message());
  if (!args.selection.category.empty()) options.category = args.selection.category;
  if (!args.selection.subcategory.empty()) options.subcategory = args.selection.subcategory;
  options.repo = RepoFilter(args.filters);
  options.where = ValueFiltersOf(args.filters);
  options.kind = args.selection.kind;
  options.limit = args.limit;
  options.with_values = ExportedDimensionNames();
  options.use_listing = !args.scan;
  auto store = Store::Open(args.store, StoreMode::kRead);
  if (!store.ok()) return Fail(store.status().message());
  auto list = ListIssues(**store, options);
  if (!list.ok()) return Fail(list.status().message());
  // The machine formats keep the exact text, but not on a terminal (the table is escaped already).
  std::optional<EscapedOnATerminal> on_terminal;
  if (labeling || format != Format::kTable) on_terminal.emplace();
  if (labeling) {
    const Status written = WriteLabelingRows(**store, list->issues, args.format == "csv");
    if (!written.ok()) return Fail(written.message());
  } else if (format == Format::kTable) {
    if (!list->issues.empty()) std::cout << FormatIssueTable(list->issues, args, options.sort);
  } else {
    std::vector<std::string> header;
    std::vector<bool> raw;
    for (const ReportField& field : ReportFields()) {
      header.emplace_back(field.name);
      raw.push_back(JsonIsRaw(field));
    }
    for (const std::string& name : ExportedDimensionNames()) {
      header.push_back(name);
      raw.push_back(false);
    }
    std::vector<std::vector<std::string>> rows;
    for (const ListedIssue& i : list->issues) {
      std::vector<std::string>& row = rows.emplace_back();
      for (const ReportField& field : ReportFields()) row.push_back(JsonCellOf(field, i));
      for (std::string& value : ExportedValues(i, 0)) row.push_back(std::move(value));
    }
    // A numeric column (the dimension table's flag) as numbers, null for no value.
    for (size_t c = ReportFields().size(); c < header.size(); ++c) {
      const Dimension* d = FindDimension(header[c]);
      raw[c] = d != nullptr && d->numeric && IsNumberColumn(rows, c);
    }
    WriteTable(std::cout, format, header, rows, raw);
  }
  std::cout.flush();
  if (list->issues.size() < list->matched) {
    std::fprintf(stderr, "ghsift: showing %zu of %zu; --limit 0 for all\n", list->issues.size(), list->matched);
  }
  PrintFailedFilesNote(**store);
  if (list->matched == 0) {
    std::fprintf(stderr, "ghsift: %s\n",
                 NothingMatchedText(args.filters, args.selection, list->reports_in_store, list->flagged_in_store).c_str());
    return args.exit_zero ? kExitOk : kExitNoHit;
  }
  return kExitOk;
}

//! "Repository, Number, State, Title, ..., class, url, ..." : every column the CSV has.
std::string LabelingColumnsHelp() { return Join(LabelingCsvColumns(LabelingExtraColumnNames()), ", "); }

}  // namespace

void AddIssuesCommand(CLI::App& command, int& exit_code) {
  auto args = std::make_shared<IssuesArgs>();
  CLI::App* cmd = &command;
  cmd->add_option("--store", args->store, "Store directory")->required();
  AddReportFilterOptions(*cmd, args->filters, true);
  cmd->add_option("--sort", args->sort, SortHelp())->capture_default_str();
  AddReportSelectionOptions(*cmd, args->selection, CategoryForm::kOneOrFacet);
  cmd->add_option("--limit", args->limit, "At most N reports (0: all); a cut list is said on stderr")
      ->check(CountCheck())
      ->capture_default_str();
  cmd->add_option("--title-width", args->title_width,
                  "Cut titles to N columns in tables (0: never; default: what the other columns leave of the "
                  "terminal's width, $COLUMNS, or 120 columns when stdout is no terminal)")
      ->check(CountCheck());
  cmd->add_flag("--exit-zero", args->exit_zero, "Exit 0 when no report matches (for cron jobs)");
  cmd->add_flag("--scan", args->scan,
                "Read every report instead of the listing index (same answer, slower: for checking and timing)");
  cmd->add_option("--format", args->format,
                  "table, json, or for labeling csv (the columns " + LabelingColumnsHelp() +
                      ") or jsonl (one report a line): the kept text of each report, every label carried, class "
                      "empty; `rules eval --labels` reads either back")
      ->capture_default_str();
  cmd->callback([args, &exit_code] { exit_code = RunIssues(*args); });
}

}  // namespace ghsift::cli
