#include "commands/labeling_export.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "aggregate/report_text_record.hpp"
#include "common/csv.hpp"
#include "output.hpp"

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
    kept.title = latest->title;
    kept.body = latest->body;
    for (const auto& [at, comment] : latest->comments) {
      if (std::find(kept.comments.begin(), kept.comments.end(), comment) == kept.comments.end()) {
        kept.comments.push_back(comment);
      }
    }
  }
  if (!keep_text) return kept;
  std::set<std::string> bodies, comments;
  GHSIFT_TRY(store.ScanTexts(issue.repo_id, issue.number, [&](std::string_view bytes) -> Status {
    GHSIFT_ASSIGN_OR_RETURN(ReportTextRecord text, ReportTextRecord::Decode(bytes));
    if (!text.body.empty()) bodies.insert(std::move(text.body));
    if (!text.comment.empty()) comments.insert(std::move(text.comment));
    return Status::Ok();
  }));
  if (bodies.empty() && comments.empty()) return kept;
  kept.found = true;
  kept.body.clear();
  for (const std::string& body : bodies) kept.body += (kept.body.empty() ? "" : "\n\n") + body;
  kept.comments.assign(comments.begin(), comments.end());
  return kept;
}

std::string LabelingTitle(const ListedIssue& issue, const KeptText& kept) {
  return kept.title.empty() ? issue.title : kept.title;
}

std::string LabelingCsvHeader(const std::vector<std::string>& extra) {
  std::string out = "Repository,Number,State,Title,Body,Labels,Comments,Codes,class";
  for (const std::string& column : extra) out += "," + column;
  return out + "\n";
}

std::string LabelingCsvRow(const ListedIssue& issue, const KeptText& kept, const std::vector<std::string>& extra) {
  // Every label the report carried (the rules saw each of them), as a list: the MHNurf form joins
  // labels by spaces, which cannot be split again where a label holds a space.
  std::string out = CsvField(issue.repo) + "," + std::to_string(issue.number) + "," + CsvField(issue.state) + "," +
                    CsvField(LabelingTitle(issue, kept)) + "," + CsvField(kept.body) + "," + CsvField(PythonList(issue.labels_ever)) +
                    "," + CsvField(PythonList(kept.comments)) + ",[],";
  for (const std::string& field : extra) out += "," + CsvField(field);
  return out + "\n";
}

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
    out += ", " + JsonString(names[i]) + ": " + JsonString(values[i]);
  }
  return out;
}

}  // namespace ghsift::cli
