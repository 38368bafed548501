#include "rules/report_scan.hpp"

#include <algorithm>

#include "common/assert.hpp"
#include "common/hash.hpp"

namespace ghsift {
namespace {

//! The fields of the snapshot part, which the memo keeps.
constexpr bool InSnapshot(const TextFieldSpec& spec) {
  return spec.source == TextSource::kSnapshot || spec.source == TextSource::kLabels;
}

}  // namespace

ReportScan::ReportScan(Scanner& scanner, size_t memo_slots) : scanner_(scanner), memo_(memo_slots) {}

void ReportScan::ScanField(Field field, std::string_view text, MatchSet& matches) {
  // A scan fails only on a Hyperscan bug or memory exhaustion: the database is ours.
  const Status s = scanner_.Scan(field, text, matches);
  GHSIFT_ASSERT(s.ok());
}

void ReportScan::ScanSnapshot(const ReportTextView& report, MatchSet& matches) {
  splitter_.Snapshot(report, [&](Field field, std::string_view text) { ScanField(field, text, matches); });
}

bool ReportScan::SameText(const MemoSlot& slot, const ReportTextView& report) const {
  if (!slot.used) return false;
  for (const TextFieldSpec& spec : kTextFields) {
    if (!InSnapshot(spec)) continue;
    const auto& kept = slot.texts[spec.field];
    const auto given = report[spec.field];
    if (!std::equal(kept.begin(), kept.end(), given.begin(), given.end())) return false;
  }
  return true;
}

void ReportScan::Scan(const ReportTextView& report, MatchSet& matches) {
  size_t snapshot_bytes = 0;  // labels aside: they are short, and many
  for (const TextFieldSpec& spec : kTextFields) {
    if (spec.source != TextSource::kSnapshot) continue;
    for (std::string_view text : report[spec.field]) snapshot_bytes += text.size();
  }
  if (memo_.empty() || snapshot_bytes > kMemoMaxTextBytes) {
    ScanSnapshot(report, matches);
  } else {
    uint64_t hash = snapshot_bytes;
    for (const TextFieldSpec& spec : kTextFields) {
      if (!InSnapshot(spec)) continue;
      for (std::string_view text : report[spec.field]) hash = WordHash64(text, hash);
    }
    MemoSlot& slot = memo_[hash % memo_.size()];
    if (slot.hash == hash && SameText(slot, report)) {
      ++memo_hits_;
    } else {
      snapshot_matches_.Clear();
      ScanSnapshot(report, snapshot_matches_);
      slot.used = true;
      slot.hash = hash;
      for (const TextFieldSpec& spec : kTextFields) {
        if (InSnapshot(spec)) slot.texts[spec.field].assign(report[spec.field].begin(), report[spec.field].end());
      }
      slot.ids = snapshot_matches_.ids();
    }
    for (const uint32_t id : slot.ids) matches.Add(id);
  }
  splitter_.Events(report, [&](Field field, std::string_view text) { ScanField(field, text, matches); });
}

}  // namespace ghsift
