#pragma once
// The dimensions a question can group by (`query --by`), stratify by (`sample --stratify`) and
// filter on (`--state`, `--label`, ...), one row each. Validation, `--by` help, `--stratify`, the
// filter options of issues/sample/query, the report, the README's list and a test all read this
// table: a new dimension is one row in dimensions.cpp.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aggregate/issue_record.hpp"
#include "common/result.hpp"
#include "common/unknown_value.hpp"
#include "query/blind_months.hpp"
#include "query/repo_names.hpp"
#include "rules/decision.hpp"

namespace ghsift {

//! One report as the dimensions see it.
struct ReportView {
  const DecisionModel& model;
  const IssueRecord& record;
  int64_t repo_id = 0;
  //! Its flagged categories (problems and facets), and those a question shows: its problems, or,
  //! under a --category filter, that category.
  const std::vector<std::string>& flagged;
  const std::vector<std::string>& shown;
  const std::optional<std::string>& only_category;
  const BlindMonths& blind;  //!< read by `resolution` only (empty unless a question needs it)
  RepoNames& names;
};

//! One event counter cell as the dimensions see it.
struct EventView {
  int64_t repo_id = 0;
  int32_t day = 0;
  std::string_view type;
  RepoNames& names;
};

//! What `query --fill-zeros` knows of the groups a question could have, for Dimension::every_value.
struct FillContext {
  const DecisionModel& model;
  //! The values the answer holds in the dimension's column, sorted.
  const std::vector<std::string>& seen;
  //! The question's months (--from/--to); unset ends: the answer's first or last.
  std::optional<int32_t> from_month, to_month;
  //! The tracked repositories (or those --repo asks for), as rows name them; empty for a store of
  //! every repository.
  const std::vector<std::string>& repos;
  const std::optional<std::string>& only_category;  //!< --category
  std::string_view kind;                            //!< issue | pr | all
};

//! The rollup column that holds a dimension: questions grouped only by such dimensions are
//! answered from the rollup (rollup/rollup.hpp).
enum class RollupColumn { kNone, kRepo, kMonth, kKind, kState, kCategory };

//! How a dimension filters reports (the options of issues, sample and query).
enum class FilterKind {
  kNone,     //!< no filter
  kValue,    //!< `--<name> V[,V...]` (repeatable): reports with any of these values; one generic match
  kOwnRule,  //!< an option of its own meaning (--repo: any name it had; --category: the rule model; --kind;
             //!< months: --from/--to, --since/--until), parsed apart
};

struct Dimension {
  std::string_view name;
  std::string help;  //!< a few words for `--by` help and the README
  //! The values a report has (a row each; none: the report has no row), or null for an event-only
  //! dimension.
  std::vector<std::string> (*of_report)(const ReportView&) = nullptr;
  //! The value of an event counter cell, or null for a report-only dimension.
  std::string (*of_event)(const EventView&) = nullptr;
  RollupColumn rollup = RollupColumn::kNone;
  FilterKind filter = FilterKind::kNone;
  std::string filter_help = {};  //!< the option's help (kValue)
  //! The values a filter may name when the set is closed (validation lists them; a value any of
  //! them selects is valid too); empty: open.
  std::vector<std::string_view> values = {};
  //! Whether a filter value selects a report value; null: equal. For aliases (`--state unknown`).
  bool (*selects)(std::string_view wanted, std::string_view value) = nullptr;
  //! A column of the report exports (issues --format csv|jsonl|json, sample), after their own
  //! columns: the report's first value ("" without one), for a dimension of one value a report.
  bool exported = false;
  //! Whether questions may group by it (`query --by`, `sample --stratify`): false for a column of
  //! the exports whose values are nearly one a report (times to the second, counts).
  bool groupable = true;
  //! Whether its values are numbers (counts, days, hours): a column of them stays one of numbers
  //! where no report has a value (the Python module gives NaN there, not text).
  bool numeric = false;

  //! Every value a group may have (every month of the range, every tracked repository, every
  //! problem category of the rule set, ...), for `query --fill-zeros`, which writes the groups
  //! without reports with 0; null: only the values the answer holds (an open set: labels, logins).
  std::vector<std::string> (*every_value)(const FillContext&) = nullptr;
  //! What every_value gives, for `query --fill-zeros` help ("every month of the range"); empty
  //! for a closed set of values, which the dimension's help lists.
  std::string_view every_value_help = {};
  //! Its values come from pull requests' text (a closing pull request's "fixes #12"): unknown in
  //! the months the archive holds none, which an answer by it or filtered on it must say.
  bool reads_pull_request_text = false;

  bool of_reports() const { return of_report != nullptr; }
  bool of_events() const { return of_event != nullptr; }
  //! Whether `wanted` (one filter value) selects a report with `value`.
  bool Selects(std::string_view wanted, std::string_view value) const {
    return selects ? selects(wanted, value) : wanted == value;
  }
};

//! Every dimension, in the order help and the README list them.
const std::vector<Dimension>& Dimensions();
//! The row named `name`, or null.
const Dimension* FindDimension(std::string_view name);
//! Whether any of `names` is a dimension that reads pull requests' text.
bool ReadsPullRequestText(const std::vector<std::string>& names);
//! Names of the report (or event) dimensions a question can group by, in table order.
std::vector<std::string> DimensionNames(bool events);
//! Names of the exported dimensions (Dimension::exported), in table order.
std::vector<std::string> ExportedDimensionNames();

//! Whether value `a` comes before `b` where groups are listed by a dimension: for a numeric one
//! (Dimension::numeric) by number, so that 9 comes before 10 (values that are no number, such as
//! "", first, as text); for the others as text.
bool ValueLess(bool numeric, std::string_view a, std::string_view b);

//! The order of the groups of a question (rows of values, one per dimension): column by column,
//! each by ValueLess. Every answer that lists groups sorts them with it.
class RowOrder {
 public:
  //! Every column as text.
  RowOrder() = default;
  //! The columns of these dimensions (names of Dimensions() rows), in this order.
  explicit RowOrder(const std::vector<std::string>& dimensions);
  bool operator()(const std::vector<std::string>& a, const std::vector<std::string>& b) const;

 private:
  std::vector<bool> numeric_;  //!< by column; columns past its end are text
};

//! Value filters (FilterKind::kValue): dimension name -> the values asked for (any of them).
using ValueFilters = std::map<std::string, std::vector<std::string>>;
//! An error naming the option (`--state must be open, closed or unknown, not 'x'`) when a filter
//! is on no value-filter dimension or names a value outside a closed set.
//! The option that filters on a dimension: --NAME, an underscore spelt as a dash (`--author-type`
//! for author_type), as every other option of the command line.
std::string FilterOption(std::string_view dimension_name);
Status CheckValueFilters(const ValueFilters& where);
//! An error when `--verdict` names a value the store's rule set cannot give (the kinds of
//! not-a-bug come from its verdict rules), listing the ones it can.
Status CheckVerdictFilter(const DecisionModel& model, const ValueFilters& where);
//! Whether a report passes every filter: for each, some value of it is selected by some value asked for.
bool PassesValueFilters(const ValueFilters& where, const ReportView& view);

//! Names the engine itself uses, checked against the table by a test.
namespace dimension {
inline constexpr std::string_view kRepo = "repo";
inline constexpr std::string_view kMonth = "month";
inline constexpr std::string_view kCategory = "category";
inline constexpr std::string_view kSubcategory = "subcategory";
inline constexpr std::string_view kVerdict = "verdict";
inline constexpr std::string_view kResolution = "resolution";
inline constexpr std::string_view kState = "state";
inline constexpr std::string_view kKind = "kind";
inline constexpr std::string_view kLabel = "label";
inline constexpr std::string_view kTimeToClose = "time_to_close";
}  // namespace dimension

//! The maintainers' verdict on a report: the one place that decides it (the `verdict` row and
//! `--verdict` read it).
std::string VerdictOf(const DecisionModel& model, const IssueRecord& r);

//! The tags (category/subcategory) of the matched positive rules whose category is among
//! `categories` (and is `only`, when given): what a flagged report is about, one row each.
std::vector<std::string> SubcategoriesOf(const DecisionModel& model, const IssueRecord& r,
                                         const std::vector<std::string>& categories,
                                         const std::optional<std::string>& only);

//! The month (index) a report counts under: that of its creation, or of its first event.
int32_t ReportMonth(const IssueRecord& r);

}  // namespace ghsift
