#include "rules/report_scan.hpp"

#include "common/assert.hpp"
#include "json/markdown_splitter.hpp"

namespace ghsift {

void ReportScan::ScanField(Field field, std::string_view text, MatchSet& matches) {
  // A scan fails only on a Hyperscan bug or memory exhaustion: the database is ours.
  const Status s = scanner_.Scan(field, text, matches);
  GHSIFT_ASSERT(s.ok());
}

void ReportScan::Scan(const ReportText& report, MatchSet& matches) {
  prose_.clear();
  comment_prose_.clear();
  code_.clear();
  SplitMarkdown(report.body, prose_, code_);
  for (std::string_view comment : report.comments) SplitMarkdown(comment, comment_prose_, code_);
  for (std::string_view block : report.code) {
    code_.append(block);
    code_.push_back('\n');
  }
  ScanField(Field::kTitle, report.title, matches);
  ScanField(Field::kBody, prose_, matches);
  ScanField(Field::kComment, comment_prose_, matches);
  ScanField(Field::kCode, code_, matches);
  for (std::string_view label : report.labels) ScanField(Field::kLabel, label, matches);
}

}  // namespace ghsift
