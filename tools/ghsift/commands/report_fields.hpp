#pragma once
// The fields of a listed report the exports write (`issues --format json|csv|jsonl`, `sample`'s csv
// and jsonl): one table of name, form, value and which exports carry it, so a field added here is
// one row and reads the same in each export. A list is a JSON array in json and jsonl and joined
// by ";" in a CSV cell.
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "query/query.hpp"

namespace ghsift::cli {

struct ReportField {
  enum class Form { kText, kNumber, kList };
  std::string_view name;
  Form form = Form::kText;
  std::string (*text)(const ListedIssue&) = nullptr;                      //!< kText, kNumber
  const std::vector<std::string>& (*list)(const ListedIssue&) = nullptr;  //!< kList
  //! Its place among the fields the labeling exports (issues --format csv|jsonl, sample) write
  //! after the texts, from 1 in the order written; 0: they leave it out (the repo, number and
  //! state open their records, and the title and labels are among the texts).
  int labeling_place = 0;
  //! `sample` writes it too: of the labeling fields, what a labeler of a drawn report needs.
  bool sampled = false;
};

//! Every field, in the order `issues --format json` writes them.
const std::vector<ReportField>& ReportFields();

//! The field of this name; a name no field has is a programming error (aborts with the name).
const ReportField& ReportFieldNamed(std::string_view name);

//! The field's value in a CSV cell (not yet quoted): a list joined by ";".
std::string CsvCellOf(const ReportField& field, const ListedIssue& issue);
//! Its value for a JSON table (output.hpp's WriteTable): the text itself, which the table quotes,
//! or, where `JsonIsRaw`, a number or an array written as it is.
std::string JsonCellOf(const ReportField& field, const ListedIssue& issue);
bool JsonIsRaw(const ReportField& field);

//! The fields the labeling exports write after the texts, in their order (labeling_place): those
//! of `issues --format csv|jsonl`, or the fewer that `sample` writes.
enum class LabelingExport { kIssues, kSample };
std::vector<const ReportField*> LabelingFields(LabelingExport which);

//! The CSV cells of these fields (not yet quoted), one a column.
std::vector<std::string> CsvCellsOf(const std::vector<const ReportField*>& fields, const ListedIssue& issue);
//! `, "name": value` members of these fields, for the jsonl exports.
std::string JsonMembersOf(const ListedIssue& issue, const std::vector<const ReportField*>& fields);

//! `"name": value` members of the named fields, each after ", " unless `first` (the first member
//! of an object), for the jsonl exports.
std::string JsonMembersOf(const ListedIssue& issue, std::initializer_list<std::string_view> names,
                          bool first = false);

}  // namespace ghsift::cli
