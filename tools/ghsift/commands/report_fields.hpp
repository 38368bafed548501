#pragma once
// The fields of a listed report the exports write (`issues --format json|csv|jsonl`, `sample`'s
// jsonl): one table of name, form and value, so a field added here reads the same in each export.
// A list is a JSON array in json and jsonl and joined by ";" in a CSV cell.
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

//! `"name": value` members of the named fields, each after ", " unless `first` (the first member
//! of an object), for the jsonl exports.
std::string JsonMembersOf(const ListedIssue& issue, std::initializer_list<std::string_view> names,
                          bool first = false);

}  // namespace ghsift::cli
