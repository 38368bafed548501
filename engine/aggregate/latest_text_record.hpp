#pragma once
// The latest text of a flagged report (title, body, labels) and the comments seen with it, kept
// without `--keep-text` for the label loop: `sample` and `issues --format csv|jsonl` export it,
// and `rules eval` scores it back. Records merge commutatively and associatively (the newest
// snapshot wins, comments are a capped set), so the stored text is the same whatever order
// hours are ingested in, and folding the same record twice changes nothing.
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.hpp"

namespace ghsift {

//! The format LatestTextRecord::Encode writes (its first byte); Decode reads it and every older one.
inline constexpr uint8_t kLatestTextFormat = 2;

struct LatestTextRecord {
  //! Comments kept per report at most: the earliest ones (by event time, then text).
  static constexpr size_t kMaxComments = 64;

  //! Event time of the snapshot (title, body, labels); ties broken by content.
  int64_t time = std::numeric_limits<int64_t>::min();
  std::string title;
  std::string body;  //!< raw markdown: prose and fenced code, as ingest scanned it
  std::vector<std::string> labels;
  //! (event time, raw markdown) of comment events, sorted, distinct, at most kMaxComments.
  std::vector<std::pair<int64_t, std::string>> comments;

  //! Folds `other` in: a snapshot with a title beats one without (an event of a blind spot of
  //! the archive carries none), then the later one wins; comments are united.
  void Merge(const LatestTextRecord& other);
  std::string Encode() const;
  static Result<LatestTextRecord> Decode(std::string_view bytes);
  bool operator==(const LatestTextRecord&) const = default;
};

}  // namespace ghsift
