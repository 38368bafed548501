#include "rules/report_scan.hpp"

#include <algorithm>

#include "common/assert.hpp"
#include "common/hash.hpp"
#include "json/markdown_splitter.hpp"

namespace ghsift {

ReportScan::ReportScan(Scanner& scanner, size_t memo_slots) : scanner_(scanner), memo_(memo_slots) {}

void ReportScan::ScanField(Field field, std::string_view text, MatchSet& matches) {
  // A scan fails only on a Hyperscan bug or memory exhaustion: the database is ours.
  const Status s = scanner_.Scan(field, text, matches);
  GHSIFT_ASSERT(s.ok());
}

void ReportScan::ScanIssueText(const ReportText& report, MatchSet& matches) {
  prose_.clear();
  code_.clear();
  SplitMarkdown(report.body, prose_, code_);
  ScanField(Field::kTitle, report.title, matches);
  ScanField(Field::kBody, prose_, matches);
  ScanField(Field::kCode, code_, matches);
  for (std::string_view label : report.labels) ScanField(Field::kLabel, label, matches);
}

bool ReportScan::SameText(const MemoSlot& slot, const ReportText& report) const {
  return slot.used && slot.title == report.title && slot.body == report.body &&
         std::equal(slot.labels.begin(), slot.labels.end(), report.labels.begin(), report.labels.end());
}

void ReportScan::Scan(const ReportText& report, MatchSet& matches) {
  if (memo_.empty() || report.title.size() + report.body.size() > kMemoMaxTextBytes) {
    ScanIssueText(report, matches);
  } else {
    uint64_t hash = WordHash64(report.title, report.body.size());
    hash = WordHash64(report.body, hash);
    for (std::string_view label : report.labels) hash = WordHash64(label, hash);
    MemoSlot& slot = memo_[hash % memo_.size()];
    if (slot.hash == hash && SameText(slot, report)) {
      ++memo_hits_;
    } else {
      issue_matches_.Clear();
      ScanIssueText(report, issue_matches_);
      slot.used = true;
      slot.hash = hash;
      slot.title.assign(report.title);
      slot.body.assign(report.body);
      slot.labels.assign(report.labels.begin(), report.labels.end());
      slot.ids = issue_matches_.ids();
    }
    for (const uint32_t id : slot.ids) matches.Add(id);
  }
  // The comments' part: their prose, and their code with any code given apart, as one text each.
  if (report.comments.empty() && report.code.empty()) return;
  comment_prose_.clear();
  code_.clear();
  for (std::string_view comment : report.comments) SplitMarkdown(comment, comment_prose_, code_);
  for (std::string_view block : report.code) {
    code_.append(block);
    code_.push_back('\n');
  }
  ScanField(Field::kComment, comment_prose_, matches);
  ScanField(Field::kCode, code_, matches);
}

}  // namespace ghsift
