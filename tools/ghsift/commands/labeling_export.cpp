#include "commands/labeling_export.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "aggregate/report_text_record.hpp"
#include "commands/report_fields.hpp"
#include "json/text_field.hpp"
#include "common/csv.hpp"
#include "eval/labeled_report.hpp"
#include "output.hpp"
#include "query/dimensions.hpp"

namespace ghsift::cli {

std::string PythonList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    out += i ? ", '" : "'";
    for (const char c : items[i]) {
      if (c == '\\' || c == '\'') out += '\\', out += c;
      else if (c == '\n') out += "\\n";
      else if (c == '\r') out += "\\r";
      else if (c == '\t') out += "\\t";
      else out += c;
    }
    out += '\'';
  }
  return out + "]";
}

Result<KeptText> ReadKeptText(const Store& store, const ListedIssue& issue, bool keep_text) {
  KeptText kept;
  GHSIFT_ASSIGN_OR_RETURN(const std::optional<LatestTextRecord> latest, store.GetLatestText(issue.repo_id, issue.number));
  if (latest) {
    kept.found = true;
    for (const TextFieldSpec& spec : kTextFields) {
      if (spec.source == TextSource::kSnapshot) kept.text[spec.field] = latest->snapshot[spec.field];
      std::vector<std::string>& texts = kept.text[spec.field];
      for (const auto& [at, text] : latest->events[spec.field]) {
        if (std::find(texts.begin(), texts.end(), text) == texts.end()) texts.push_back(text);
      }
    }
  }
  if (!keep_text) return kept;
  // Every text kept: each version of a markdown snapshot field (the body), each event text.
  PerField<std::set<std::string>> versions;
  bool any = false;
  GHSIFT_TRY(store.ScanTexts(issue.repo_id, issue.number, [&](std::string_view bytes) -> Status {
    GHSIFT_ASSIGN_OR_RETURN(ReportText text, DecodeReportTextRecord(bytes));
    for (const TextFieldSpec& spec : kTextFields) {
      if ((spec.source == TextSource::kSnapshot && spec.markdown) || spec.source == TextSource::kEventText) {
        for (std::string& t : text[spec.field]) any = versions[spec.field].insert(std::move(t)).second || any;
      }
    }
    return Status::Ok();
  }));
  if (!any) return kept;
  kept.found = true;
  for (const TextFieldSpec& spec : kTextFields) {
    std::vector<std::string>& texts = kept.text[spec.field];
    if (spec.source == TextSource::kSnapshot && spec.markdown) {
      std::string joined;
      for (const std::string& version : versions[spec.field]) joined += (joined.empty() ? "" : "\n\n") + version;
      texts.clear();
      kept.text.Add(spec.field, joined);
    } else if (spec.source == TextSource::kEventText) {
      texts.assign(versions[spec.field].begin(), versions[spec.field].end());
    }
  }
  return kept;
}

std::string LabelingTitle(const ListedIssue& issue, const KeptText& kept) {
  const std::string_view title = kept.text.First(Field::kTitle);
  return title.empty() ? issue.title : std::string(title);
}

namespace {

//! A field's exported texts: the title as LabelingTitle gives it, every label the report ever
//! carried (the rules saw each of them), the kept texts otherwise.
std::vector<std::string> ExportedTexts(const ListedIssue& issue, const KeptText& kept, const TextFieldSpec& spec) {
  if (spec.field == Field::kTitle) return {LabelingTitle(issue, kept)};
  if (spec.source == TextSource::kLabels) return issue.labels_ever;
  return kept.text[spec.field];
}

}  // namespace

std::vector<std::string> LabelingCsvColumns(const std::vector<std::string>& extra) {
  std::vector<std::string> columns = {std::string(kCsvRepositoryColumn), std::string(kCsvNumberColumn), "State"};
  for (const TextFieldSpec& spec : kTextFields) columns.emplace_back(spec.csv_column);
  columns.emplace_back(kDefaultLabelKey);
  columns.insert(columns.end(), extra.begin(), extra.end());
  return columns;
}

std::string LabelingCsvHeader(const std::vector<std::string>& extra) {
  std::string out;
  for (const std::string& column : LabelingCsvColumns(extra)) {
    if (!out.empty()) out += ',';
    out += column;
  }
  return out + "\n";
}

std::string LabelingCsvRow(const ListedIssue& issue, const KeptText& kept, const std::vector<std::string>& extra) {
  // Labels as a list, one label an item: the MHNurf form joins labels by spaces, which cannot be
  // split again where a label holds a space.
  std::string out = CsvField(issue.repo) + "," + std::to_string(issue.number) + "," + CsvField(issue.state);
  for (const TextFieldSpec& spec : kTextFields) {
    const std::vector<std::string> texts = ExportedTexts(issue, kept, spec);
    if (spec.source == TextSource::kSnapshot) {
      out += ',';
      out += CsvField(texts.empty() ? std::string() : texts.front());
    } else {
      out += ',';
      out += CsvField(PythonList(texts));
    }
  }
  out += ",";  // class, for the labeler
  for (const std::string& field : extra) {
    out += ',';
    out += CsvField(field);
  }
  return out + "\n";
}

std::string LabelingJsonOpening(const ListedIssue& issue, const KeptText& kept) {
  std::string out = "{" + JsonMembersOf(issue, {kJsonlRepoKey, kJsonlNumberKey, "state"}, true);
  for (const TextFieldSpec& spec : kTextFields) {
    if (spec.source == TextSource::kFences) continue;
    const std::vector<std::string> texts = ExportedTexts(issue, kept, spec);
    out += ", " + JsonString(spec.jsonl_key) + ": ";
    out += spec.source == TextSource::kSnapshot ? JsonString(texts.empty() ? std::string() : texts.front())
                                                : JsonArray(texts);
  }
  return out;
}

std::string LabelingJsonClosing() { return ", " + JsonString(kDefaultLabelKey) + ": null}\n"; }

void NoteMissingTexts(size_t missing, size_t total) {
  if (missing == 0) return;
  std::fprintf(stderr,
               "ghsift: %zu of %zu reports have no kept text (Body and Comments empty): they were ingested before "
               "ghsift kept the latest text of flagged reports, or matched no problem rule since; ingest them into "
               "a new store to get it\n",
               missing, total);
}

std::vector<std::string> ExportedValues(const ListedIssue& issue, size_t first) {
  std::vector<std::string> out;
  for (size_t i = first; i < issue.values.size(); ++i) out.push_back(issue.values[i].empty() ? "" : issue.values[i][0]);
  return out;
}

std::string ExportedJsonMembers(const ListedIssue& issue, size_t first) {
  const std::vector<std::string> names = ExportedDimensionNames();
  const std::vector<std::string> values = ExportedValues(issue, first);
  std::string out;
  for (size_t i = 0; i < names.size() && i < values.size(); ++i) {
    // A numeric column (the dimension table's flag) as numbers, null for no value.
    const Dimension* d = FindDimension(names[i]);
    out += ", " + JsonString(names[i]) + ": " + (d && d->numeric ? JsonNumberCell(values[i]) : JsonString(values[i]));
  }
  return out;
}

}  // namespace ghsift::cli
