#pragma once
// Hand-labeled bug reports, for measuring rule sets (`ghsift rules eval|tune`).
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "json/report_text.hpp"

namespace ghsift {

//! The names a labeled file gives a report and its label, the only list of them: the exports
//! (`issues --format csv|jsonl`, `sample`) write them and ReadLabeledReports reads them. The text
//! fields' columns and keys are json/text_field.hpp's.
inline constexpr std::string_view kDefaultLabelKey = "class";  //!< the label column or key, 0 or 1
inline constexpr std::string_view kCsvRepositoryColumn = "Repository", kCsvNumberColumn = "Number";
inline constexpr std::string_view kJsonlRepoKey = "repo", kJsonlNumberKey = "number";
//! The categories the exporting store flagged the report with (CSV: joined by kCsvListSeparator;
//! JSONL: a list).
inline constexpr std::string_view kExportedCategoriesKey = "categories";
//! Joins the items of a list cell of the exports' CSV (the text columns are Python list literals).
inline constexpr std::string_view kCsvListSeparator = ";";

struct LabeledReport {
  std::string id;      //!< e.g. "keras#11776" (for listings)
  std::string group;   //!< framework / repository, for per-group and leave-one-group-out numbers
  //! Its texts by field (json/text_field.hpp); `code` holds code blocks given apart from the body.
  ReportText text;
  std::optional<int> binary;        //!< the binary label (e.g. MHNurf `class`), when present
  std::optional<std::set<std::string>> expected;  //!< expected categories (JSONL `expected`)
  //! The categories the store that exported the report flagged it with (kExportedCategoriesKey),
  //! when the file says: a `sample` or `issues` export. Rules scoring the exported text can
  //! disagree with them (a title edited after the flag).
  std::optional<std::set<std::string>> exported_as;
  size_t line = 0;                  //!< the file's line the record starts on (1-based)
  //! Labeled: a binary label or an expected list. A row left blank is "not labeled yet".
  bool labeled() const { return binary.has_value() || expected.has_value(); }
};

struct LabelOptions {
  std::string label_key{kDefaultLabelKey};  //!< field read as the binary label: 0 or 1 (empty or null: not labeled yet)
  std::string issue_dir;            //!< GitHub API issue objects NUMBER.json that supply bodies
  //! A file none of whose records carries `label_key` (nor an `expected` list) is an error:
  //! scoring it would print zeros for a typo in the key. `rules bench` reads text only.
  bool require_label = true;
};

//! Reads a MHNurf-format CSV (columns Repository, Number, Title, Body, Labels, Comments, Codes,
//! class, ...) or a JSONL file (see README "Labeled data"), chosen by the file's ending. The text
//! columns and keys are those of json/text_field.hpp (TextFieldSpec::csv_column, jsonl_key).
Result<std::vector<LabeledReport>> ReadLabeledReports(const std::string& path, const LabelOptions& options);

//! A report's texts from a JSON object, by the keys of json/text_field.hpp: a string, or a list
//! of strings (label names also as objects with a `name`, as GitHub's API gives them). Members it
//! does not know, or of another type (a GitHub issue's `comments` count), are left aside. So it
//! reads a labeled JSONL record and a GitHub API issue object alike.
ReportText ReportTextOfJson(std::string_view json_object, bool* is_object);

//! Parses a Python list literal of strings ("['a', \"b\"]"), as the MHNurf CSV stores lists.
std::vector<std::string> ParsePythonStringList(std::string_view text);

//! Splits CSV text into records of fields (RFC 4180 quoting; fields may hold newlines), each
//! cell as CsvCellText reads it (common/csv.hpp: a formula guard taken off). When
//! given, `record_lines` gets the line each record starts on (1-based) and `open_quote_line` the
//! line of a quoted field that the text ends inside (0 when none: a cut file).
std::vector<std::vector<std::string>> ParseCsv(std::string_view text, std::vector<size_t>* record_lines = nullptr,
                                               size_t* open_quote_line = nullptr);

}  // namespace ghsift
