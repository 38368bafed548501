#pragma once
// Collects the tables of `ghsift report` from the store. Every table is the answer of one
// RunQuery, kept together with the `ghsift query` command line that prints the same numbers,
// so that any figure of the report can be reproduced from the store.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "query/blind_months.hpp"
#include "query/query.hpp"
#include "store/store.hpp"

namespace ghsift {

struct ReportOptions {
  std::string store_path;          //!< the store as named in the shown commands
  std::vector<std::string> repos;  //!< only these frameworks (any name they had); empty: all
  std::optional<int32_t> from_month;
  std::optional<int32_t> to_month;
  size_t top_labels = 15;          //!< bars drawn in a label chart
  std::string kind = "issue";      //!< the reports counted: issue, pr or all (ReportKindChoices)
};

//! What the report counts, for its head: "Issues only (not pull requests)", ...
std::string KindSentence(const ReportOptions& options);

enum class ChartKind {
  kNone,   //!< a table only
  kBars,   //!< one horizontal bar per row, in the query's row order
  kLines,  //!< --by repo,month: one line per repo, one point per row
};

struct ReportTable {
  std::string id;       //!< file stem of tables/<id>.csv and the chart's data-table attribute
  std::string title;
  std::string caption;  //!< what the numbers are
  QueryOptions query;
  std::string command;  //!< `ghsift query ...` printing exactly `table`'s rows (before the repo filter)
  QueryTable table;     //!< the query's rows (only the chosen repos' when --repos was given)
  ChartKind chart = ChartKind::kBars;
  //! Rows drawn, in drawing order (indices into table.rows): all rows, or the top labels.
  std::vector<size_t> drawn;
  //! For shares: the reports per repo of the same category, and the command that counts them.
  std::map<std::string, int64_t> totals;
  std::string totals_command;
};

struct ReportSection {
  std::string title;
  std::string text;
  std::vector<ReportTable> tables;
};

struct Report {
  ReportOptions options;
  std::vector<std::string> repos;  //!< the latest names of the chosen repos (empty: all)
  //! What the numbers rest on: the hours ingested within the report's months (first to last, and
  //! how many are missing in between) and the rule set's digest, so a reader knows its scope.
  std::string coverage_text;
  //! Months where the archive is blind (no issue text, no pull-request text) within the report's
  //! months (BlindMonths::Within): the head lists them, tables and charts by month mark them and
  //! their legends list them, all from this one list.
  BlindMonthList blind;
  std::vector<ReportSection> sections;
};

//! Runs every query of the report.
Result<Report> BuildReport(const Store& store, const ReportOptions& options);

//! The `ghsift query` command line (with --format csv) that prints `query`'s table.
std::string QueryCommandLine(const std::string& store_path, const QueryOptions& query);

//! A table's value column as text: the count, or the median days with one decimal.
std::string ValueText(const ReportTable& t, size_t row);
//! The row's share of its repo's reports ("" when the table has no totals).
std::string ShareText(const ReportTable& t, size_t row);

}  // namespace ghsift
