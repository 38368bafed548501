#include "commands/report_fields.hpp"

#include <cstdlib>

#include "common/number_text.hpp"
#include "output.hpp"

namespace ghsift::cli {
namespace {

using Form = ReportField::Form;

std::string Score(double score) { return Fixed(score, 2); }

std::vector<ReportField> MakeReportFields() {
  using I = const ListedIssue&;
  return {
      {"url", Form::kText, [](I i) { return i.url; }},
      {"state", Form::kText, [](I i) { return i.state; }},
      {"created", Form::kText, [](I i) { return i.created; }},
      {"updated", Form::kText, [](I i) { return i.updated; }},
      {"categories", Form::kList, nullptr, [](I i) -> const std::vector<std::string>& { return i.categories; }},
      {"subcategories", Form::kList, nullptr, [](I i) -> const std::vector<std::string>& { return i.subcategories; }},
      {"facets", Form::kList, nullptr, [](I i) -> const std::vector<std::string>& { return i.facets; }},
      {"labels", Form::kList, nullptr, [](I i) -> const std::vector<std::string>& { return i.labels; }},
      {"title", Form::kText, [](I i) { return i.title; }},
      {"repo", Form::kText, [](I i) { return i.repo; }},
      {"number", Form::kNumber, [](I i) { return std::to_string(i.number); }},
      {"kind", Form::kText, [](I i) { return i.kind; }},
      {"verdict", Form::kText, [](I i) { return i.verdict; }},
      {"score", Form::kNumber, [](I i) { return Score(i.score); }},
      {"rules", Form::kList, nullptr, [](I i) -> const std::vector<std::string>& { return i.rules; }},
  };
}

}  // namespace

const std::vector<ReportField>& ReportFields() {
  static const std::vector<ReportField> fields = MakeReportFields();
  return fields;
}

const ReportField& ReportFieldNamed(std::string_view name) {
  for (const ReportField& field : ReportFields()) {
    if (field.name == name) return field;
  }
  std::fprintf(stderr, "ghsift: internal error: no report field '%.*s'\n", static_cast<int>(name.size()),
               name.data());
  std::abort();
}

std::string CsvCellOf(const ReportField& field, const ListedIssue& issue) {
  return field.form == Form::kList ? Join(field.list(issue), ";") : field.text(issue);
}

std::string JsonCellOf(const ReportField& field, const ListedIssue& issue) {
  return field.form == Form::kList ? JsonArray(field.list(issue)) : field.text(issue);
}

bool JsonIsRaw(const ReportField& field) { return field.form != Form::kText; }

std::string JsonMembersOf(const ListedIssue& issue, std::initializer_list<std::string_view> names, bool first) {
  std::string out;
  for (std::string_view name : names) {
    const ReportField& field = ReportFieldNamed(name);
    if (!first) out += ", ";
    first = false;
    const std::string cell = JsonCellOf(field, issue);
    out += JsonString(field.name) + ": " + (JsonIsRaw(field) ? cell : JsonString(cell));
  }
  return out;
}

}  // namespace ghsift::cli
