#pragma once
// Everything the store keeps about one issue or pull request. Records merge commutatively and
// associatively, so the state after any set of files is the same whatever their order.
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"

namespace ghsift {

struct IssueRecord {
  uint8_t kind = 0;                   //!< 0 issue, 1 pull request (a PR sighting wins)
  int64_t created_at = 0;             //!< earliest non-zero creation time seen
  int64_t first_seen = std::numeric_limits<int64_t>::max();  //!< earliest event time
  int64_t last_seen = std::numeric_limits<int64_t>::min();   //!< latest event time
  // The latest snapshot (by event time; ties broken by content so the merge is deterministic).
  int64_t snapshot_time = std::numeric_limits<int64_t>::min();
  std::string title;
  std::string state;                  //!< "open" / "closed" in the latest snapshot
  int64_t closed_at = 0;
  std::vector<std::string> labels;    //!< labels of the latest snapshot
  int64_t comments = 0;               //!< highest comment count seen
  uint64_t events = 0;                //!< events about this report
  std::vector<std::string> rules;     //!< distinct matched rule ids, sorted

  //! Folds `other` into this record.
  void Merge(const IssueRecord& other);
  std::string Encode() const;
  static Result<IssueRecord> Decode(std::string_view bytes);
  bool operator==(const IssueRecord&) const = default;
};

//! Adds rule ids to a sorted, distinct list.
void MergeSortedIds(std::vector<std::string>& into, const std::vector<std::string>& more);

}  // namespace ghsift
