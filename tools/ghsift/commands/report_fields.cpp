#include "commands/report_fields.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "common/number_text.hpp"
#include "eval/labeled_report.hpp"
#include "output.hpp"

namespace ghsift::cli {
namespace {

using Form = ReportField::Form;

std::string Score(double score) { return Fixed(score, 2); }

std::vector<ReportField> MakeReportFields() {
  using I = const ListedIssue&;
  using List = std::vector<std::string>;
  // In the order of `issues --format json`; the labeling exports keep their own (labeling_place),
  // the kind second, after the url.
  return {
      {.name = "url", .text = [](I i) { return i.url; }, .labeling_place = 1, .sampled = true},
      {.name = "state", .text = [](I i) { return i.state; }},
      {.name = "created", .text = [](I i) { return i.created; }, .labeling_place = 3},
      {.name = "updated", .text = [](I i) { return i.updated; }, .labeling_place = 4},
      {.name = kExportedCategoriesKey, .form = Form::kList, .list = [](I i) -> const List& { return i.categories; },
       .labeling_place = 5, .sampled = true},
      {.name = "subcategories", .form = Form::kList, .list = [](I i) -> const List& { return i.subcategories; },
       .labeling_place = 6},
      {.name = "facets", .form = Form::kList, .list = [](I i) -> const List& { return i.facets; },
       .labeling_place = 7},
      {.name = "labels", .form = Form::kList, .list = [](I i) -> const List& { return i.labels; }},
      {.name = "title", .text = [](I i) { return i.title; }},
      {.name = "repo", .text = [](I i) { return i.repo; }},
      {.name = "number", .form = Form::kNumber, .text = [](I i) { return std::to_string(i.number); }},
      {.name = "kind", .text = [](I i) { return i.kind; }, .labeling_place = 2},
      {.name = "verdict", .text = [](I i) { return i.verdict; }, .labeling_place = 8, .sampled = true},
      {.name = "score", .form = Form::kNumber, .text = [](I i) { return Score(i.score); }, .labeling_place = 9},
      {.name = "rules", .form = Form::kList, .list = [](I i) -> const List& { return i.rules; },
       .labeling_place = 10},
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
  return field.form == Form::kList ? Join(field.list(issue), kCsvListSeparator) : field.text(issue);
}

std::string JsonCellOf(const ReportField& field, const ListedIssue& issue) {
  return field.form == Form::kList ? JsonArray(field.list(issue)) : field.text(issue);
}

bool JsonIsRaw(const ReportField& field) { return field.form != Form::kText; }

std::vector<const ReportField*> LabelingFields(LabelingExport which) {
  std::vector<const ReportField*> fields;
  for (const ReportField& field : ReportFields()) {
    if (field.labeling_place > 0 && (which == LabelingExport::kIssues || field.sampled)) fields.push_back(&field);
  }
  std::sort(fields.begin(), fields.end(),
            [](const ReportField* a, const ReportField* b) { return a->labeling_place < b->labeling_place; });
  return fields;
}

std::vector<std::string> CsvCellsOf(const std::vector<const ReportField*>& fields, const ListedIssue& issue) {
  std::vector<std::string> cells;
  for (const ReportField* field : fields) cells.push_back(CsvCellOf(*field, issue));
  return cells;
}

namespace {

std::string JsonMemberOf(const ReportField& field, const ListedIssue& issue) {
  const std::string cell = JsonCellOf(field, issue);
  return JsonString(field.name) + ": " + (JsonIsRaw(field) ? cell : JsonString(cell));
}

}  // namespace

std::string JsonMembersOf(const ListedIssue& issue, const std::vector<const ReportField*>& fields) {
  std::string out;
  for (const ReportField* field : fields) out += ", " + JsonMemberOf(*field, issue);
  return out;
}

std::string JsonMembersOf(const ListedIssue& issue, std::initializer_list<std::string_view> names, bool first) {
  std::string out;
  for (std::string_view name : names) {
    if (!first) out += ", ";
    first = false;
    out += JsonMemberOf(ReportFieldNamed(name), issue);
  }
  return out;
}

}  // namespace ghsift::cli
