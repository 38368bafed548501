#include "commands/report_filter_options.hpp"

#include <algorithm>

#include "common/time_range.hpp"
#include "common/time_util.hpp"
#include "output.hpp"

namespace ghsift::cli {
namespace {

std::vector<std::string> SplitAll(const std::vector<std::string>& given) {
  std::vector<std::string> out;
  for (const std::string& g : given) {
    for (std::string& item : SplitList(g)) out.push_back(std::move(item));
  }
  return out;
}

//! An option of these given an empty value is refused: `--repo "$REPO"` with REPO unset would
//! otherwise select every report, silently broader than asked.
const CLI::Validator& NotEmpty() {
  static const CLI::Validator check(
      [](const std::string& value) {
        return value.empty() ? std::string("an empty value (leave the option out to select every report)")
                             : std::string();
      },
      "");
  return check;
}

}  // namespace

void AddReportFilterOptions(CLI::App& cmd, ReportFilterArgs& args, bool with_created_range, bool repo_only,
                            bool repos_alias) {
  cmd.add_option(repos_alias ? "--repo,--repos" : "--repo", args.repo,
                 "Only these owner/name (any name the repository had); repeatable, or a comma list")
      ->check(NotEmpty());
  if (with_created_range) {
    cmd.add_option("--since", args.since,
                   "Created at or after: YYYY-MM[-DD[THH]] (UTC) or 7d, 4w, 12h back from now")
        ->check(NotEmpty());
    cmd.add_option("--until", args.until,
                   "Created before the end of: YYYY-MM[-DD[THH]] or 7d, 4w, 12h back from now")
        ->check(NotEmpty());
  }
  if (repo_only) return;
  for (const Dimension& d : Dimensions()) {
    if (d.filter != FilterKind::kValue) continue;
    std::vector<std::string>& into = args.values[std::string(d.name)];
    cmd.add_option(FilterOption(d.name), into,
                   std::string(d.filter_help) + "; repeatable, or a comma list (\\, for a comma in a value)")
        ->check(NotEmpty());
  }
}

void AddReportSelectionOptions(CLI::App& cmd, ReportSelectionArgs& args, CategoryForm form) {
  if (form == CategoryForm::kProblemList) {
    // Repeatable too, as every other filter: `--category a --category b` is `--category a,b`.
    cmd.add_option("--category", args.category,
                   "Comma list: reports flagged with any of these problem categories; repeatable")
        ->required()
        ->check(NotEmpty())
        ->delimiter(',')
        ->multi_option_policy(CLI::MultiOptionPolicy::Join);
  } else {
    cmd.add_option("--category", args.category,
                   std::string("Only this category: a problem (performance, ...) or a facet (stage, info); default ") +
                       (form == CategoryForm::kOneOrFacet ? "any problem" : "every report, flagged or not"))
        ->check(NotEmpty());
  }
  cmd.add_option("--subcategory", args.subcategory,
                 "Only reports with this tag, e.g. performance/memory (or memory, with one --category)")
      ->check(NotEmpty());
  AddKindOption(cmd, args.kind);
}

void AddKindOption(CLI::App& cmd, std::string& kind) {
  const auto known_kind = [](const std::string& given) {
    const auto& kinds = ReportKindChoices();
    return std::find(kinds.begin(), kinds.end(), given) != kinds.end()
               ? std::string()
               : "must be " + ReportKindChoicesText() + ", not '" + TerminalSafe(given) + "'";
  };
  cmd.add_option("--kind", kind, ReportKindChoicesText())
      ->check(CLI::Validator(known_kind, "KIND"))
      ->capture_default_str();
}

std::string DescribeReportSelection(const ReportSelectionArgs& args) {
  std::string out;
  for (const auto& [option, value] : {std::pair{"--category", &args.category},
                                      std::pair{"--subcategory", &args.subcategory}, std::pair{"--kind", &args.kind}}) {
    if (!value->empty()) out += std::string(" ") + option + " " + TerminalSafe(*value);  // echoed to a terminal
  }
  return out;
}

AnyOf RepoFilter(const ReportFilterArgs& args) { return AnyOf(SplitAll(args.repo)); }

ValueFilters ValueFiltersOf(const ReportFilterArgs& args) {
  ValueFilters out;
  for (const auto& [name, given] : args.values) {
    std::vector<std::string> values = SplitAll(given);
    if (!values.empty()) out[name] = std::move(values);
  }
  return out;
}

Status CreatedRange(const ReportFilterArgs& args, IssueListOptions& options) {
  GHSIFT_ASSIGN_OR_RETURN(const TimeRange range,
                          ParseTimeRange(args.since, "--since", args.until, "--until", NowSeconds(), true));
  options.created_from = range.begin;
  options.created_to = range.end;
  return Status::Ok();
}

std::string DescribeReportFilters(const ReportFilterArgs& args) {
  std::string out;
  auto add = [&](const std::string& option, const std::string& value) {
    if (!value.empty()) out += " " + option + " " + TerminalSafe(value);  // echoed to a terminal
  };
  add("--repo", JoinList(SplitAll(args.repo)));
  for (const auto& [name, values] : ValueFiltersOf(args)) add(FilterOption(name), JoinList(values));
  add("--since", args.since);
  add("--until", args.until);
  return out;
}

std::string NothingMatchedText(const ReportFilterArgs& filters, const ReportSelectionArgs& selection,
                               uint64_t reports, uint64_t flagged) {
  const std::vector<std::string> repos = SplitAll(filters.repo);
  const std::string where = repos.size() == 1 ? TerminalSafe(repos[0]) + " has"
                            : !repos.empty()  ? "these repositories have"
                                              : "the store holds";
  const std::string kind = selection.kind == "all" ? "" : " of kind " + selection.kind;
  return "no flagged report matches" + DescribeReportFilters(filters) + DescribeReportSelection(selection) + " (" +
         where + " " + WithCommas(reports) + " report" + (reports == 1 ? "" : "s") + kind + ", " +
         WithCommas(flagged) + " of them flagged)";
}

}  // namespace ghsift::cli
