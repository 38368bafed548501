#pragma once
// The latest text of a flagged report (its snapshot: title, body, labels) and the texts of the
// events seen with it (comments, ...: json/text_field.hpp), kept without `--keep-text` for the
// label loop: `sample` and `issues --format csv|jsonl` export it, and `rules eval` scores it
// back. Records merge commutatively and associatively (the newest snapshot wins, event texts are
// capped sets), so the stored text is the same whatever order hours are ingested in, and
// folding the same record twice changes nothing.
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.hpp"
#include "json/report_text.hpp"

namespace ghsift {

//! The format LatestTextRecord::Encode writes (its first byte); Decode reads it and every older one.
inline constexpr uint8_t kLatestTextFormat = 2;

struct LatestTextRecord {
  //! Texts kept per event-text field of a report at most: the earliest (by event time, then text).
  static constexpr size_t kMaxComments = 64;
  //! (event time, raw markdown)
  using TimedText = std::pair<int64_t, std::string>;

  //! Event time of the snapshot; ties broken by content.
  int64_t time = std::numeric_limits<int64_t>::min();
  //! The snapshot's fields (TextSource::kSnapshot and kLabels): raw markdown as ingest scanned
  //! it; label names sorted.
  ReportText snapshot;
  //! Of each TextSource::kEventText field: its texts, sorted, distinct, at most kMaxComments.
  PerField<std::vector<TimedText>> events;

  //! Folds `other` in: a snapshot with a title beats one without (an event of a blind spot of
  //! the archive carries none), then the later one wins; event texts are united.
  void Merge(const LatestTextRecord& other);
  std::string Encode() const;
  static Result<LatestTextRecord> Decode(std::string_view bytes);
  //! The snapshot and every event text, as one ReportText.
  ReportText Text() const;
  bool operator==(const LatestTextRecord&) const = default;
};

}  // namespace ghsift
