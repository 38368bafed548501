#pragma once
// Scans every field of one report (json/text_field.hpp): the snapshot's (title, body prose, the
// body's code, each label) and the event's own texts (comment prose, with their code and any
// code given apart). Used by ingest and by the rule-tuning tools, so both decide on exactly the
// same text.
#include <string>
#include <string_view>
#include <vector>

#include "json/report_text.hpp"
#include "rules/scanner.hpp"

namespace ghsift {

class ReportScan {
 public:
  //! `memo_slots` > 0 remembers the matches of that many recent snapshot texts (title, body and
  //! labels): every comment event carries its issue's text again, and an issue's text rarely
  //! changes, so ingest scans most of it once. A remembered text is compared in full before its
  //! matches are used: the result is the same as without the memo. Texts longer than
  //! kMemoMaxTextBytes are always scanned, which bounds the memo's memory.
  static constexpr size_t kMemoMaxTextBytes = 8 << 10;
  explicit ReportScan(Scanner& scanner, size_t memo_slots = 0);
  //! Adds every rule that matches the report to `matches`.
  void Scan(const ReportTextView& report, MatchSet& matches);

  uint64_t memo_hits() const { return memo_hits_; }

 private:
  //! The snapshot part: what a comment event repeats.
  void ScanSnapshot(const ReportTextView& report, MatchSet& matches);
  void ScanField(Field field, std::string_view text, MatchSet& matches);

  struct MemoSlot {
    bool used = false;
    uint64_t hash = 0;
    PerField<std::vector<std::string>> texts;  //!< of the snapshot fields
    std::vector<uint32_t> ids;
  };
  bool SameText(const MemoSlot& slot, const ReportTextView& report) const;

  Scanner& scanner_;
  RuleTextSplitter splitter_;  //!< its buffers are reused across reports
  std::vector<MemoSlot> memo_;
  MatchSet snapshot_matches_;
  uint64_t memo_hits_ = 0;
};

}  // namespace ghsift
