#pragma once
// Scans all fields of one report: title, body prose, code (fenced blocks of the body and of
// comments, plus code given apart), comment prose and each label. Used by ingest and by the
// rule-tuning tools, so both decide on exactly the same text.
#include <span>
#include <string>
#include <string_view>

#include "rules/scanner.hpp"

namespace ghsift {

struct ReportText {
  std::string_view title;
  std::string_view body;                     //!< markdown: fences go to `code`
  std::span<const std::string_view> comments;  //!< markdown each
  std::span<const std::string_view> code;    //!< code blocks already taken out of the body
  std::span<const std::string_view> labels;
};

class ReportScan {
 public:
  explicit ReportScan(Scanner& scanner) : scanner_(scanner) {}
  //! Adds every rule that matches the report to `matches`.
  void Scan(const ReportText& report, MatchSet& matches);

 private:
  void ScanField(Field field, std::string_view text, MatchSet& matches);
  Scanner& scanner_;
  std::string prose_, comment_prose_, code_;  //!< reused across reports
};

}  // namespace ghsift
