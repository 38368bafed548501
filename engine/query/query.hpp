#pragma once
// Answers `ghsift query` and `ghsift issues` from the store alone.
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "rollup/rollup.hpp"
#include "rules/decision.hpp"
#include "query/dimensions.hpp"
#include "query/metric.hpp"
#include "store/store.hpp"

namespace ghsift {

//! The values a filter keeps, any of them; none: no filter. One value assigns as a list of one.
struct AnyOf {
  std::vector<std::string> values;
  AnyOf() = default;
  AnyOf(std::string value) : values{std::move(value)} {}  // NOLINT: one name is the common case
  AnyOf(const char* value) : values{value} {}             // NOLINT
  AnyOf(std::vector<std::string> list) : values(std::move(list)) {}  // NOLINT
  explicit operator bool() const { return !values.empty(); }
  //! The first value: the only one of a filter of one.
  const std::string& operator*() const { return values.front(); }
  void reset() { values.clear(); }
};

//! The report kinds a selection takes: "issue", "pr", or "all" of them (QueryOptions::kind,
//! IssueListOptions::kind); the CLI's --kind reads this list.
const std::vector<std::string>& ReportKindChoices();
//! "issue, pr or all": the choices, for messages and help.
std::string ReportKindChoicesText();
//! A stored report kind (0 issue, 1 pull request) as --kind and the "kind" column spell it.
const std::string& ReportKindName(uint8_t kind);

struct QueryOptions {
  Metric metric = Metric::kIssues;
  //! Names of the dimension table (query/dimensions.hpp): of reports, or of events for kEvents.
  std::vector<std::string> dimensions;
  AnyOf repo;                           //!< owner/name, any name the repo ever had; any of these
  ValueFilters where;                   //!< report metrics: --state, --label, ... (any of their values)
  //! Only reports with this category (issues): a problem category, or a facet (stage, info).
  //! Unset, the `category` dimension shows problem categories only.
  std::optional<std::string> category;
  std::optional<std::string> subcategory;  //!< only reports with this tag (category/subcategory)
  std::string kind = "issue";           //!< issue | pr | all
  std::optional<int32_t> from_month;    //!< inclusive month index
  std::optional<int32_t> to_month;      //!< inclusive month index
  //! Answer from the rollup when it holds the question (issues/closed by repo, month, kind,
  //! state, category); false reads every report (same answer, for checking and timing).
  bool use_rollup = true;
};

struct QueryTable {
  std::vector<std::string> columns;             //!< the dimensions, then the metric name
  std::vector<std::vector<std::string>> rows;   //!< dimension values, sorted (RowOrder: numeric dimensions by number)
  std::vector<int64_t> counts;                  //!< one per row (closed reports for the median metric)
  std::vector<double> values;                   //!< median_days_to_close only: the median per row
};

Result<QueryTable> RunQuery(const Store& store, const QueryOptions& options);

struct ListedIssue {
  int64_t repo_id = 0;
  std::string repo;
  int64_t number = 0;
  std::string kind;   //!< issue | pr
  std::string url;
  std::string title;
  std::string state;
  std::string created;  //!< YYYY-MM-DD
  std::string updated;  //!< YYYY-MM-DD of the latest event seen
  int64_t created_at = 0, updated_at = 0;
  std::vector<std::string> categories;     //!< problem categories, sorted
  std::vector<std::string> subcategories;  //!< their tags (category/subcategory)
  std::vector<std::string> facets;         //!< facet tags (stage/..., info/...), shown beside
  std::string verdict;                     //!< VerdictOf (query/dimensions.hpp)
  std::vector<std::string> labels;         //!< of the latest snapshot
  std::vector<std::string> labels_ever;    //!< every label any snapshot carried, sorted
  double score = 0;                        //!< summed scores of the problem categories
  double sort_key = 0;                     //!< what the list is ordered by (IssueListOptions::sort)
  std::vector<std::string> rules;
  //! The values of IssueListOptions::with_values' dimensions, in that order.
  std::vector<std::vector<std::string>> values;
};

//! A report as IssueListOptions::each receives it: its key and the values asked for. The views
//! are valid during the call only.
struct ListedKey {
  int64_t repo_id = 0;
  std::string_view repo;  //!< its latest name
  int64_t number = 0;
  //! The values of IssueListOptions::with_values' dimensions, in that order.
  const std::vector<std::vector<std::string>>* values = nullptr;
};

enum class IssueSort { kCreated, kUpdated, kScore };  //!< newest (or highest) first

struct IssueListOptions {
  AnyOf repo;                              //!< any name the repo ever had; any of these
  //! A problem category or a facet; listed reports always have a problem category.
  std::optional<std::string> category;
  std::optional<std::string> subcategory;  //!< category/subcategory
  AnyOf state;                             //!< open | closed | unknown: as where["state"]
  ValueFilters where;                      //!< --label, --verdict, ... (query/dimensions.hpp)
  std::optional<int64_t> created_from;     //!< inclusive, Unix seconds
  std::optional<int64_t> created_to;       //!< exclusive
  std::string kind = "issue";
  IssueSort sort = IssueSort::kCreated;
  size_t limit = 50;                       //!< 0 = no limit
  //! Report dimensions whose values each listed report carries (ListedIssue::values).
  std::vector<std::string> with_values;
  //! When set, the problem categories those values show (category, subcategory): sample shows the
  //! ones it draws for.
  std::optional<std::vector<std::string>> show_categories;
  //! Only what a sampling frame needs: repo, number and the with_values dimensions' values; no
  //! title, labels or other text is copied (a frame holds every report of the population).
  bool keys_only = false;
  //! With keys_only: when set, each matching report goes to it instead of into IssueList::issues,
  //! so that a frame of millions of reports is held once, by the caller, in its own lean form
  //! (no ListedIssue is built, and the repository's name is not copied).
  std::function<void(const ListedKey&)> each;
  //! When set, only these reports (repository id, number; sorted), read by key and filtered as
  //! any other: the drawn rows of a sample, read without walking the listing again.
  const std::vector<std::pair<int64_t, int64_t>>* only = nullptr;
  //! Read the reports of the listing index (rollup/listing_index.hpp) when the store has one and
  //! no --repo is given; false: read every report (the reference the index is checked against).
  bool use_listing = true;
};

struct IssueList {
  std::vector<ListedIssue> issues;  //!< the first `limit` of the matching reports, sorted
  size_t matched = 0;               //!< every report that matched (issues.size() when not cut)
  //! To explain an empty answer: reports of the chosen kind (and --repo), and how many of those
  //! have a problem category.
  uint64_t reports_in_store = 0;
  uint64_t flagged_in_store = 0;
};

Result<IssueList> ListIssues(const Store& store, const IssueListOptions& options);

//! Checks a category / subcategory filter against the store's rule model; the error lists the
//! valid values (and the closest one).
Status CheckCategoryFilter(const DecisionModel& model, const std::optional<std::string>& category,
                           std::optional<std::string>* subcategory);

//! The ids of a repository named by any name it had; an error that names the closest repository
//! of the store when none matches.
Result<std::vector<int64_t>> ResolveRepo(const Store& store, const std::string& name);

}  // namespace ghsift
