// ghsift sample --store DIR --category C[,C...] [--stratify DIMENSION] [--repo R,...] [--since T] [filters]
//               (--n N | --confidence 0.95 --margin 0.05) --seed S [--kind issue|pr|all] [--subcategory T]
//               --format csv|jsonl [--out FILE]
// Draws flagged reports for hand labeling. The rows go to `ghsift rules eval --labels` once the
// labeler has filled `class` with 0 or 1.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "commands/commands.hpp"
#include "commands/labeling_export.hpp"
#include "commands/report_fields.hpp"
#include "commands/report_filter_options.hpp"
#include "commands/store_notes.hpp"
#include "common/closest_name.hpp"
#include "eval/labeled_report.hpp"
#include "output.hpp"
#include "terminal_stdout.hpp"
#include "pipelines/store_scope.hpp"
#include "query/query.hpp"
#include "report/sampling.hpp"

namespace ghsift::cli {
namespace {

struct SampleArgs {
  std::string store, stratify, format = "csv", out;
  ReportFilterArgs filters;  //!< --repo, --since, --until, --state, --label, ...
  ReportSelectionArgs selection;  //!< --category (a list), --subcategory, --kind
  int64_t n = -1;
  double confidence = 0.95;
  double margin = 0.05;
  uint64_t seed = 0;
  bool scan = false;  //!< read every report instead of the listing index
};

std::string Percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g%%", fraction * 100);
  return buf;
}

//! The names of the report dimensions, for --stratify.
std::string StratifyNames() {
  std::string out;
  for (const std::string& name : DimensionNames(false)) out += (out.empty() ? "" : ", ") + name;
  return out;
}

//! What a draw column reads of a drawn report.
struct DrawnReport {
  const SamplingFrame& frame;
  size_t index;                                   //!< in the frame
  const std::vector<std::string>& also_flagged;  //!< its problem categories not asked for
};

//! The columns sample writes of the draw, after the report fields (ReportField::sampled) and
//! before the exported dimensions: the header, each CSV row and each jsonl record read this list.
//! A list is joined by ";" in a CSV cell and a JSON array in jsonl, as the report fields' lists.
struct DrawColumn {
  std::string_view name;
  bool list;
  std::vector<std::string> (*values)(const DrawnReport& drawn);  //!< one value unless `list`
  bool in_jsonl;  //!< notes is a cell for the labeler's hand in the CSV: jsonl has no such key
};
constexpr DrawColumn kDrawColumns[] = {
    {"stratum", false, [](const DrawnReport& d) { return std::vector{d.frame.StratumOf(d.index)}; }, true},
    // `categories` holds what it was drawn as, the categories the labeler's class answers; the
    // others the report is flagged with are said beside them, not hidden.
    {"also_flagged", true, [](const DrawnReport& d) { return d.also_flagged; }, true},
    {"notes", false, [](const DrawnReport&) { return std::vector<std::string>{std::string()}; }, false},
};

//! Every column after `class`: the report fields, the draw's, the exported dimensions'.
std::vector<std::string> SampleExtraColumnNames(const std::vector<const ReportField*>& fields) {
  std::vector<std::string> names;
  for (const ReportField* field : fields) names.emplace_back(field->name);
  for (const DrawColumn& column : kDrawColumns) names.emplace_back(column.name);
  for (const std::string& name : ExportedDimensionNames()) names.push_back(name);
  return names;
}

//! A hidden temporary file beside `target` (".NAME.tmp-PID"), removed unless renamed over it.
class TemporaryBeside {
 public:
  explicit TemporaryBeside(const std::string& target)
      : target_(target),
        path_(target_.parent_path() / ("." + target_.filename().string() + ".tmp-" + std::to_string(::getpid()))) {}
  TemporaryBeside(const TemporaryBeside&) = delete;
  TemporaryBeside& operator=(const TemporaryBeside&) = delete;
  ~TemporaryBeside() {
    std::error_code ec;
    if (!renamed_) std::filesystem::remove(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  Status RenameOverTarget() {
    std::error_code ec;
    std::filesystem::rename(path_, target_, ec);
    if (ec) return Status::IoError(target_.string() + ": cannot write (" + ec.message() + ")");
    renamed_ = true;
    return Status::Ok();
  }

 private:
  std::filesystem::path target_, path_;
  bool renamed_ = false;
};

int RunSample(const SampleArgs& args, bool sized_by_n) {
  if (args.format != "csv" && args.format != "jsonl") {
    return Fail("--format must be csv or jsonl, not '" + TerminalSafe(args.format) + "'" +
                DidYouMean(args.format, {"csv", "jsonl"}));
  }
  const Dimension* stratify = args.stratify.empty() ? nullptr : FindDimension(args.stratify);
  if (!args.stratify.empty() && (stratify == nullptr || !stratify->of_reports() || !stratify->groupable)) {
    return Fail("--stratify must be a report dimension: " + StratifyNames() + ", not '" + args.stratify + "'" +
                DidYouMean(args.stratify, DimensionNames(false)));
  }
  if (sized_by_n && args.n < 1) return Fail("--n must be at least 1, not " + std::to_string(args.n));
  if (!sized_by_n && !(args.confidence > 0 && args.confidence < 1)) return Fail("--confidence must be in (0, 1)");
  if (!sized_by_n && !(args.margin > 0 && args.margin < 1)) return Fail("--margin must be in (0, 1)");
  const std::vector<std::string> categories = SplitList(args.selection.category);
  if (categories.empty()) return Fail("--category needs at least one category");
  const std::set<std::string> chosen(categories.begin(), categories.end());
  // A tag belongs to one category: sampling it among several would ask it of the others too.
  if (!args.selection.subcategory.empty() && chosen.size() != 1) return Fail("--subcategory needs one --category");

  auto store = Store::Open(args.store, StoreMode::kRead);
  if (!store.ok()) return Fail(store.status().message());
  auto model = LoadStoreModel(**store);
  if (!model.ok()) return Fail(model.status().message());
  std::set<std::string> known;
  for (const CategoryScore& s : model->Score({})) known.insert(s.category);
  for (const std::string& c : chosen) {
    if (known.count(c)) continue;
    const std::vector<std::string> names(known.begin(), known.end());
    return Fail("--category: the store's rules have no category '" + c + "'" +
                DidYouMean(c, names) + "; they have " + JoinNames(names, 20));
  }

  // The population: reports of the kind flagged with any chosen category, keyed by (repo, number).
  // Read twice: once as a frame (keys and the stratum only: the frame holds every report, so no
  // text is copied, and each report goes straight into it), then the drawn rows with everything
  // the export shows.
  uint64_t reports_of_kind = 0, flagged_of_kind = 0;
  // The frame: each report once (listed under several categories, or in two repositories of one
  // name), the one of the first category, then of the lowest repository id, whatever order the
  // reports were listed in.
  FrameBuilder frame_builder;
  size_t category_index = 0;
  std::vector<std::string> sorted_values;
  std::string stratum;
  auto add_to_frame = [&](const ListedKey& issue) {
    // A report with several values of the dimension (categories, labels, facets) is in the stratum
    // of their combination ("performance;silent"): strata must not overlap, and a report counted
    // in the stratum of one of its values would leave the others' strata short.
    stratum = "(all)";
    if (stratify != nullptr) {
      sorted_values = issue.values->front();
      std::sort(sorted_values.begin(), sorted_values.end());
      stratum = sorted_values.empty() ? "(none)" : Join(sorted_values, kCsvListSeparator);
    }
    constexpr uint64_t kRepoIdBits = 48;
    const uint64_t repo_id = static_cast<uint64_t>(issue.repo_id) & ((uint64_t{1} << kRepoIdBits) - 1);
    frame_builder.Add(issue.repo_id, issue.repo, issue.number, stratum,
                      (static_cast<uint64_t>(category_index) << kRepoIdBits) | repo_id);
  };
  auto list_population = [&](bool frame_only, const std::vector<std::pair<int64_t, int64_t>>* only,
                             std::map<std::pair<std::string, int64_t>, ListedIssue>& into) -> Status {
    category_index = 0;
    for (const std::string& c : chosen) {
      IssueListOptions options;
      options.category = c;
      if (!args.selection.subcategory.empty()) options.subcategory = args.selection.subcategory;
      options.kind = args.selection.kind;
      options.limit = 0;
      options.repo = RepoFilter(args.filters);
      options.where = ValueFiltersOf(args.filters);
      GHSIFT_TRY(CreatedRange(args.filters, options));
      // Strata show the chosen categories only (a report's subcategory among them).
      options.show_categories = categories;
      if (stratify != nullptr) options.with_values = {args.stratify};
      if (!frame_only) {
        for (const std::string& name : ExportedDimensionNames()) options.with_values.push_back(name);
      }
      options.keys_only = frame_only;
      if (frame_only) options.each = add_to_frame;
      options.only = only;
      options.use_listing = !args.scan;
      GHSIFT_ASSIGN_OR_RETURN(IssueList issues, ListIssues(**store, options));
      // What the store holds of the kind, to say why nothing was drawn (the same for every
      // category; the drawn rows' pass reads those rows only).
      if (frame_only) {
        reports_of_kind = issues.reports_in_store;
        flagged_of_kind = issues.flagged_in_store;
      }
      for (ListedIssue& i : issues.issues) {
        const auto key = std::make_pair(i.repo, i.number);
        into.emplace(key, std::move(i));
      }
      ++category_index;
    }
    return Status::Ok();
  };
  std::map<std::pair<std::string, int64_t>, ListedIssue> no_rows;  // (the frame takes every report)
  const Status listed = list_population(true, nullptr, no_rows);
  if (!listed.ok()) return Fail(listed.message());
  const SamplingFrame frame = std::move(frame_builder).Build();

  const int64_t n_population = static_cast<int64_t>(frame.items.size());
  int64_t n = 0;
  std::string how;
  if (sized_by_n) {
    n = std::min(args.n, n_population);
    how = "fixed --n " + std::to_string(args.n);
  } else {
    const SampleSize size = CochranSampleSize(n_population, args.confidence, args.margin);
    n = size.n;
    how = "Cochran, " + Percent(args.confidence) + " confidence, " + Percent(args.margin) + " margin" +
          (size.corrected ? ", finite population correction" : "");
  }
  const StratifiedSample sample = DrawStratified(frame, n, args.seed);
  // The drawn rows, read by key: each is the frame's member (of the repository id it kept).
  std::vector<std::pair<int64_t, int64_t>> drawn;
  for (size_t index : sample.chosen) drawn.emplace_back(frame.items[index].repo_id, frame.items[index].number);
  std::sort(drawn.begin(), drawn.end());
  std::map<std::pair<std::string, int64_t>, ListedIssue> rows;
  const Status read_rows = list_population(false, &drawn, rows);
  if (!read_rows.ok()) return Fail(read_rows.message());
  std::fprintf(stderr, "ghsift: population %lld, sample %lld (%s)\n", static_cast<long long>(n_population),
               static_cast<long long>(sample.chosen.size()), how.c_str());
  if (n_population == 0) {
    std::fprintf(stderr, "ghsift: %s\n",
                 NothingMatchedText(args.filters, args.selection, reports_of_kind, flagged_of_kind).c_str());
  }
  // Listed in the order of the dimension's values, as query lists its groups (a numeric one by
  // number: 9 before 10); the draw keeps its own order, so a seed draws the same reports.
  std::vector<StratumDraw> strata = sample.strata;
  const bool numeric = stratify != nullptr && stratify->numeric;
  std::stable_sort(strata.begin(), strata.end(), [&](const StratumDraw& a, const StratumDraw& b) {
    return ValueLess(numeric, a.name, b.name);
  });
  for (const StratumDraw& s : strata) {
    std::fprintf(stderr, "  %s: population %lld, allocated %lld, drawn %lld\n", TerminalSafe(s.name).c_str(),
                 static_cast<long long>(s.population), static_cast<long long>(s.allocated),
                 static_cast<long long>(s.drawn));
  }

  auto scope = DescribeStoreScope(**store);
  if (!scope.ok()) return Fail(scope.status().message());
  // What a study's methods section states of its sample: how it was drawn and which rules made
  // the population (`rules eval` on the labeled rows names the rules it scores the same way).
  if (scope->known) {
    std::fprintf(stderr, "ghsift: drawn with --seed %llu from the reports flagged by rule set %s (%s)\n",
                 static_cast<unsigned long long>(args.seed), scope->rules_digest.c_str(),
                 scope->default_rules ? "the default rule set" : "custom");
  }

  // --out is written whole or not at all: the rows go to a hidden temporary beside it, renamed
  // over it at the end. A run that fails part-way (the store damaged under a drawn row) leaves
  // the earlier file or none, never some of the rows.
  std::ofstream file;
  std::optional<TemporaryBeside> temporary;
  if (!args.out.empty()) {
    temporary.emplace(args.out);
    file.open(temporary->path(), std::ios::binary | std::ios::trunc);
    if (!file) return Fail(Status::IoErrorFromErrno(args.out + ": cannot write").message());
  }
  std::ostream& out = args.out.empty() ? std::cout : file;
  std::optional<EscapedOnATerminal> on_terminal;  // csv and jsonl keep the exact text, but not on a terminal
  if (args.out.empty()) on_terminal.emplace();
  // The exported dimensions' values follow the stratum's in ListedIssue::values.
  const size_t exported_from = stratify != nullptr ? 1 : 0;
  const std::vector<const ReportField*> fields = LabelingFields(LabelingExport::kSample);
  if (args.format == "csv") out << LabelingCsvHeader(SampleExtraColumnNames(fields));
  size_t missing = 0;
  for (size_t index : sample.chosen) {
    const auto row = rows.find({frame.RepoOf(index), frame.items[index].number});
    if (row == rows.end()) return Fail("the store changed while the sample was drawn: run it again");
    ListedIssue& issue = row->second;
    // Its categories are those of the sample (`--category`); the others go to also_flagged.
    std::vector<std::string> also_flagged;
    std::erase_if(issue.categories, [&](const std::string& c) {
      if (chosen.count(c) != 0) return false;
      also_flagged.push_back(c);
      return true;
    });
    const DrawnReport drawn_report{frame, index, also_flagged};
    auto read = ReadKeptText(**store, issue, scope->keep_text);
    if (!read.ok()) return Fail(read.status().message());
    const KeptText& kept = *read;
    missing += !kept.found;
    if (args.format == "csv") {
      std::vector<std::string> extra = CsvCellsOf(fields, issue);
      for (const DrawColumn& column : kDrawColumns) {
        extra.push_back(Join(column.values(drawn_report), kCsvListSeparator));
      }
      for (std::string& value : ExportedValues(issue, exported_from)) extra.push_back(std::move(value));
      out << LabelingCsvRow(issue, kept, extra);
    } else {
      out << LabelingJsonOpening(issue, kept) << JsonMembersOf(issue, fields);
      for (const DrawColumn& column : kDrawColumns) {
        if (!column.in_jsonl) continue;
        const std::vector<std::string> values = column.values(drawn_report);
        out << ", " << JsonString(column.name) << ": "
            << (column.list ? JsonArray(values) : JsonString(values.front()));
      }
      out << ExportedJsonMembers(issue, exported_from) << LabelingJsonClosing();
    }
  }
  NoteMissingTexts(missing, sample.chosen.size());
  PrintFailedFilesNote(**store);
  out.flush();
  // A closed stdout (`ghsift sample ... | head`) is a normal end; a file that cannot be written is not.
  if (temporary) {
    file.close();
    if (!file) return Fail(args.out + ": write failed");
    const Status kept = temporary->RenameOverTarget();
    if (!kept.ok()) return Fail(kept.message());
  }
  return sample.chosen.empty() ? kExitNoHit : kExitOk;
}

}  // namespace

void AddSampleCommand(CLI::App& command, int& exit_code) {
  auto args = std::make_shared<SampleArgs>();
  CLI::App* cmd = &command;
  cmd->add_option("--store", args->store, "Store directory")->required();
  AddReportSelectionOptions(*cmd, args->selection, CategoryForm::kProblemList);
  cmd->add_option("--stratify", args->stratify,
                  "A report dimension (" + StratifyNames() +
                      "); a report of several values is in the stratum of their combination, such as performance;silent");
  AddReportFilterOptions(*cmd, args->filters, true);
  CLI::Option* n = cmd->add_option("--n", args->n, "Sample size");
  CLI::Option* confidence =
      cmd->add_option("--confidence", args->confidence, "Confidence level for Cochran's size")->capture_default_str();
  CLI::Option* margin = cmd->add_option("--margin", args->margin, "Margin of error for Cochran's size")
                            ->capture_default_str();
  n->excludes(confidence)->excludes(margin);
  cmd->add_option("--seed", args->seed, "Seed: the same seed draws the same rows")->required();
  cmd->add_option("--format", args->format, "csv (MHNurf columns) or jsonl")->capture_default_str();
  cmd->add_option("--out", args->out, "Output file (default: stdout)");
  cmd->add_flag("--scan", args->scan,
                "Read every report instead of the listing index (same answer, slower: for checking and timing)");
  cmd->callback([args, n, &exit_code] { exit_code = RunSample(*args, n->count() > 0); });
}

}  // namespace ghsift::cli
