#pragma once
// The report filters the listing commands share (issues, sample, query; report: --repo), made
// from the dimension table (query/dimensions.hpp): each value-filter row is an option
// `--<name> V[,V...]`, repeatable, on every such command, with the row's help. Which reports by
// flag and kind (--category, --subcategory, --kind) is declared here too, once for every
// command that selects reports: declared per command, their help and checks had drifted apart.
#include <CLI/CLI.hpp>

#include <map>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "query/query.hpp"

namespace ghsift::cli {

struct ReportFilterArgs {
  std::vector<std::string> repo;  //!< --repo (and its alias --repos), repeatable, comma lists
  std::map<std::string, std::vector<std::string>> values;  //!< one per value-filter row of the table
  std::string since, until;  //!< creation range (commands that take `with_created_range`)
};

//! --category, --subcategory and --kind: which reports, by what they were flagged with and kind.
struct ReportSelectionArgs {
  std::string category, subcategory, kind = "issue";
};

//! What --category takes.
enum class CategoryForm {
  kOneOrFacet,         //!< one problem category (performance, ...) or facet (stage, info); empty: any problem
  kOneOrFacetElseAll,  //!< the same, but empty counts every report, flagged or not (query)
  kProblemList,  //!< a comma list of problem categories, required (sample draws from their union)
};

//! Adds --category (in `form`), --subcategory and --kind (issue, pr or all; checked here).
void AddReportSelectionOptions(CLI::App& cmd, ReportSelectionArgs& args, CategoryForm form);
//! --kind issue|pr|all (of AddReportSelectionOptions; `report` takes it alone).
void AddKindOption(CLI::App& cmd, std::string& kind);
//! " --category c --kind issue" for a message that explains an empty answer.
std::string DescribeReportSelection(const ReportSelectionArgs& args);

//! Adds --repo (repeatable, comma lists; `--repos` too when `repos_alias`), an option per
//! value-filter dimension (unless `repo_only`), and --since/--until when `with_created_range`.
void AddReportFilterOptions(CLI::App& cmd, ReportFilterArgs& args, bool with_created_range,
                            bool repo_only = false, bool repos_alias = false);
//! The repositories asked for (comma lists split, spaces trimmed).
AnyOf RepoFilter(const ReportFilterArgs& args);
//! The value filters asked for, by dimension name.
ValueFilters ValueFiltersOf(const ReportFilterArgs& args);
//! Fills created_from/created_to from --since/--until; a message on a bad time.
Status CreatedRange(const ReportFilterArgs& args, IssueListOptions& options);
//! " --repo a,b --state open ..." for a message that explains an empty answer.
std::string DescribeReportFilters(const ReportFilterArgs& args);
//! Why an `issues` or `sample` answer is empty: "no flagged report matches --category c --since
//! .. (the store holds N reports of kind issue, M of them flagged)", so a user sees which filter
//! emptied it. `reports` and `flagged` are of the kind, in the --repo given.
std::string NothingMatchedText(const ReportFilterArgs& filters, const ReportSelectionArgs& selection,
                               uint64_t reports, uint64_t flagged);

}  // namespace ghsift::cli
