#include "commands/labeling_export.hpp"

#include <set>

#include "aggregate/report_text_record.hpp"

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

Result<KeptText> ReadKeptText(const Store& store, const ListedIssue& issue) {
  std::set<std::string> bodies, comments;
  GHSIFT_TRY(store.ScanTexts(issue.repo_id, issue.number, [&](std::string_view bytes) -> Status {
    GHSIFT_ASSIGN_OR_RETURN(ReportTextRecord text, ReportTextRecord::Decode(bytes));
    if (!text.body.empty()) bodies.insert(std::move(text.body));
    if (!text.comment.empty()) comments.insert(std::move(text.comment));
    return Status::Ok();
  }));
  KeptText kept;
  for (const std::string& body : bodies) kept.body += (kept.body.empty() ? "" : "\n\n") + body;
  kept.comments.assign(comments.begin(), comments.end());
  return kept;
}

}  // namespace ghsift::cli
