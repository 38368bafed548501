// ghsift issues --store DIR [--since T] [--until T] [--state S] [--sort K] [--category C]
//               [--subcategory T] [--repo R] [--kind K] [--limit N] [--exit-zero] [--format ...]
// The weekly triage list: flagged reports (a problem category), newest first, with their facets.
#include <cstdio>
#include <iostream>

#include "commands/commands.hpp"
#include "commands/common_options.hpp"
#include "commands/labeling_export.hpp"
#include "commands/report_filter_options.hpp"
#include "common/time_range.hpp"
#include "output.hpp"
#include "pipelines/store_scope.hpp"
#include "query/query.hpp"

namespace ghsift::cli {
namespace {

struct IssuesArgs {
  std::string store, category, subcategory, kind = "issue";
  std::string sort = "created";
  ReportFilterArgs filters;  //!< --repo, --since, --until, --state, --label, ...
  size_t limit = 50;
  size_t title_width = 80;
  bool exit_zero = false;
  std::string format = "table";
};

std::string Join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : separator) + s;
  return out;
}

//! The subcategory part of each tag ("performance/memory" -> "memory"): the category column says the rest.
std::vector<std::string> TagTails(const std::vector<std::string>& tags) {
  std::vector<std::string> out;
  for (const std::string& t : tags) out.push_back(t.substr(t.find('/') + 1));
  return out;
}

std::string Score(double score) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", score);
  return text;
}

//! What the filters were, for the message that explains an empty answer.
std::string DescribeFilters(const IssuesArgs& args) {
  std::string out;
  auto add = [&](const char* option, const std::string& value) {
    if (!value.empty()) out += std::string(" ") + option + " " + value;
  };
  out += DescribeReportFilters(args.filters);
  add("--category", args.category);
  add("--subcategory", args.subcategory);
  add("--kind", args.kind);
  return out;
}

//! One report a line (jsonl) or a CSV row in the MHNurf columns, with what a labeler needs: the
//! fields `rules eval --labels` reads, and `class` to fill in. The body and comments are the
//! kept text of each flagged report (every text of it in a --keep-text store).
Status WriteLabelingRows(const Store& store, const std::vector<ListedIssue>& issues, bool csv) {
  GHSIFT_ASSIGN_OR_RETURN(const StoreScopeDescription scope, DescribeStoreScope(store));
  if (csv) {
    std::vector<std::string> extra = {"url",    "kind",    "created", "updated", "categories", "subcategories",
                                      "facets", "verdict", "score",   "rules"};
    for (const std::string& name : ExportedDimensionNames()) extra.push_back(name);
    std::cout << LabelingCsvHeader(extra);
  }
  size_t missing = 0;
  for (const ListedIssue& i : issues) {
    GHSIFT_ASSIGN_OR_RETURN(const KeptText kept, ReadKeptText(store, i, scope.keep_text));
    missing += !kept.found;
    if (csv) {
      std::vector<std::string> extra = {i.url, i.kind, i.created, i.updated, Join(i.categories, ";"),
                                        Join(i.subcategories, ";"), Join(i.facets, ";"), i.verdict, Score(i.score),
                                        Join(i.rules, ";")};
      for (std::string& value : ExportedValues(i, 0)) extra.push_back(std::move(value));
      std::cout << LabelingCsvRow(i, kept, extra);
      continue;
    }
    std::cout << "{\"repo\": " << JsonString(i.repo) << ", \"number\": " << i.number << ", \"kind\": "
              << JsonString(i.kind) << ", \"state\": " << JsonString(i.state) << ", \"created\": "
              << JsonString(i.created) << ", \"updated\": " << JsonString(i.updated) << ", \"title\": "
              << JsonString(LabelingTitle(i, kept)) << ", \"body\": " << JsonString(kept.body) << ", \"labels\": "
              << JsonArray(i.labels_ever) << ", \"comments\": " << JsonArray(kept.comments) << ", \"url\": "
              << JsonString(i.url) << ", \"categories\": " << JsonArray(i.categories) << ", \"subcategories\": "
              << JsonArray(i.subcategories) << ", \"facets\": " << JsonArray(i.facets) << ExportedJsonMembers(i, 0)
              << ", \"class\": null}\n";
  }
  NoteMissingTexts(missing, issues.size());
  return Status::Ok();
}

int RunIssues(const IssuesArgs& args) {
  Format format = Format::kJson;
  // jsonl and csv are the labeling exports (MHNurf columns for csv); table and json list only.
  const bool labeling = args.format == "jsonl" || args.format == "csv";
  if (!labeling && !ParseFormat(args.format, &format)) return Fail("--format must be table, csv, json or jsonl");
  IssueListOptions options;
  if (args.sort == "created") options.sort = IssueSort::kCreated;
  else if (args.sort == "updated") options.sort = IssueSort::kUpdated;
  else if (args.sort == "score") options.sort = IssueSort::kScore;
  else return Fail("--sort must be created, updated or score, not '" + args.sort + "'");
  const Status range = CreatedRange(args.filters, options);
  if (!range.ok()) return Fail(range.message());
  if (!args.category.empty()) options.category = args.category;
  if (!args.subcategory.empty()) options.subcategory = args.subcategory;
  options.repo = RepoFilter(args.filters);
  options.where = ValueFiltersOf(args.filters);
  options.kind = args.kind;
  options.limit = args.limit;
  options.with_values = ExportedDimensionNames();
  auto store = Store::Open(args.store, StoreMode::kRead);
  if (!store.ok()) return Fail(store.status().message());
  auto list = ListIssues(**store, options);
  if (!list.ok()) return Fail(list.status().message());
  const std::vector<std::string> columns = {"url",   "state",         "created", "updated", "categories",
                                            "subcategories", "facets", "labels",  "title"};
  std::vector<std::vector<std::string>> rows;
  if (labeling) {
    const Status written = WriteLabelingRows(**store, list->issues, args.format == "csv");
    if (!written.ok()) return Fail(written.message());
  }
  for (const ListedIssue& i : list->issues) {
    if (labeling) break;
    if (format == Format::kTable) {
      rows.push_back({i.url, i.state, i.created, i.updated, Join(i.categories, ","), Join(TagTails(i.subcategories), ","),
                      Join(i.facets, ","), TableCell(Join(i.labels, ","), 30), TableCell(i.title, args.title_width)});
    } else {
      // JSON: lists as arrays, as in the jsonl export.
      rows.push_back({i.url, i.state, i.created, i.updated, JsonArray(i.categories), JsonArray(i.subcategories),
                      JsonArray(i.facets), JsonArray(i.labels), i.title, i.repo, std::to_string(i.number), i.kind,
                      i.verdict, Score(i.score), JsonArray(i.rules)});
      for (std::string& value : ExportedValues(i, 0)) rows.back().push_back(std::move(value));
    }
  }
  std::vector<std::string> header = columns;
  if (format != Format::kTable) {
    header.insert(header.end(), {"repo", "number", "kind", "verdict", "score", "rules"});
    for (const std::string& name : ExportedDimensionNames()) header.push_back(name);
  }
  if (!labeling && (!rows.empty() || format != Format::kTable)) {
    std::vector<bool> numeric(header.size(), false);
    if (format != Format::kTable) {
      // JSON: numbers and lists unquoted (number an integer, as in the jsonl export).
      for (size_t c = 0; c < header.size(); ++c) {
        for (const char* raw : {"number", "score", "categories", "subcategories", "facets", "labels", "rules"}) {
          numeric[c] = numeric[c] || header[c] == raw;
        }
      }
    }
    WriteTable(std::cout, format, header, rows, numeric);
  }
  std::cout.flush();
  if (list->issues.size() < list->matched) {
    std::fprintf(stderr, "ghsift: showing %zu of %zu; --limit 0 for all\n", list->issues.size(), list->matched);
  }
  if (list->matched == 0) {
    // What the filters narrowed: the reports of the kind (in --repo), and the flagged ones.
    const std::string kind = args.kind == "all" ? "" : " of kind " + args.kind;
    const std::string where = options.repo.values.size() == 1 ? options.repo.values[0] + " has"
                              : options.repo                 ? "these repositories have"
                                                             : "the store holds";
    std::fprintf(stderr, "ghsift: no flagged report matches%s (%s %s report%s%s, %s of them flagged)\n",
                 DescribeFilters(args).c_str(), where.c_str(), WithCommas(list->reports_in_store).c_str(),
                 list->reports_in_store == 1 ? "" : "s", kind.c_str(), WithCommas(list->flagged_in_store).c_str());
    return args.exit_zero ? kExitOk : kExitNoHit;
  }
  return kExitOk;
}

//! ", then the exported dimensions' columns: a, b" (none: "").
std::string ExportedColumnsHelp() {
  const std::vector<std::string> names = ExportedDimensionNames();
  return names.empty() ? "" : ", then the exported dimensions' columns: " + Join(names, ", ");
}

}  // namespace

void AddIssuesCommand(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<IssuesArgs>();
  CLI::App* cmd = app.add_subcommand(
      "issues",
      "List flagged reports (a problem category), newest first, with their facets. Exit 0 when some are found, "
      "1 when none (0 with --exit-zero), 2 on an error");
  cmd->add_option("--store", args->store, "Store directory")->required();
  AddReportFilterOptions(*cmd, args->filters, true);
  cmd->add_option("--sort", args->sort, "created, updated (latest event) or score; newest/highest first")
      ->capture_default_str();
  cmd->add_option("--category", args->category,
                  "Only this category: a problem (performance, ...) or a facet (stage, info); default any problem");
  cmd->add_option("--subcategory", args->subcategory, "Only this tag, e.g. performance/memory (or memory)");
  cmd->add_option("--kind", args->kind, "issue, pr or all")->capture_default_str();
  cmd->add_option("--limit", args->limit, "At most N reports (0: all); a cut list is said on stderr")
      ->check(CountCheck())
      ->capture_default_str();
  cmd->add_option("--title-width", args->title_width, "Cut titles to N columns in tables (0: never)")
      ->check(CountCheck())
      ->capture_default_str();
  cmd->add_flag("--exit-zero", args->exit_zero, "Exit 0 when no report matches (for cron jobs)");
  cmd->add_option("--format", args->format,
                  "table, json, or for labeling csv (the MHNurf columns Title, Body, Labels, Comments, Codes, "
                  "class, then url, kind, created, updated, categories, subcategories, facets, verdict, score, "
                  "rules" + ExportedColumnsHelp() +
                      ") or jsonl (one report a line): the kept text of each report, every label carried, class "
                      "empty; `rules eval --labels` reads either back")
      ->capture_default_str();
  cmd->callback([args, &exit_code] { exit_code = RunIssues(*args); });
}

}  // namespace ghsift::cli
