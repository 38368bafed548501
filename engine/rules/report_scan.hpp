#pragma once
// Scans all fields of one report: title, body prose, code (fenced blocks of the body; those of
// the comments with any code given apart), comment prose and each label. Used by ingest and by
// the rule-tuning tools, so both decide on exactly the same text.
#include <span>
#include <string>
#include <string_view>
#include <vector>

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
  //! `memo_slots` > 0 remembers the matches of that many recent issue texts (title, body and
  //! labels): every comment event carries its issue's text again, and an issue's text rarely
  //! changes, so ingest scans most of it once. A remembered text is compared in full before its
  //! matches are used: the result is the same as without the memo. Texts longer than
  //! kMemoMaxTextBytes are always scanned, which bounds the memo's memory.
  static constexpr size_t kMemoMaxTextBytes = 8 << 10;
  explicit ReportScan(Scanner& scanner, size_t memo_slots = 0);
  //! Adds every rule that matches the report to `matches`.
  void Scan(const ReportText& report, MatchSet& matches);

  uint64_t memo_hits() const { return memo_hits_; }

 private:
  //! Title, body prose, body code and labels: the part a comment event repeats.
  void ScanIssueText(const ReportText& report, MatchSet& matches);
  void ScanField(Field field, std::string_view text, MatchSet& matches);

  struct MemoSlot {
    bool used = false;
    uint64_t hash = 0;
    std::string title, body;
    std::vector<std::string> labels;
    std::vector<uint32_t> ids;
  };
  bool SameText(const MemoSlot& slot, const ReportText& report) const;

  Scanner& scanner_;
  std::string prose_, comment_prose_, code_;  //!< reused across reports
  std::vector<MemoSlot> memo_;
  MatchSet issue_matches_;
  uint64_t memo_hits_ = 0;
};

}  // namespace ghsift
