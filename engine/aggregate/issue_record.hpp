#pragma once
// Everything the store keeps about one issue or pull request. Records merge commutatively and
// associatively, so the state after any set of files is the same whatever their order.
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "json/report_attribute.hpp"

namespace ghsift {

//! The format IssueRecord::Encode writes (its first byte); Decode reads it and every older one.
inline constexpr uint8_t kIssueRecordFormat = 3;

//! A new field: a member, its Merge, and a tag in issue_record.cpp (Encode writes it, Decode reads
//! it); records written without it decode with its default. A new attribute of the report's
//! snapshot needs none of these: a row of kReportAttributes is enough.
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
  // Lifecycle (for the studies' questions: how and how fast reports get resolved).
  int64_t first_comment_at = 0;       //!< earliest comment event (0 = none seen)
  std::vector<uint64_t> commenters;   //!< distinct comment authors (hashed logins), sorted, capped
  std::vector<std::string> labels_ever;  //!< every label any snapshot carried, sorted
  uint64_t reopened = 0;              //!< IssuesEvent "reopened" actions
  std::vector<int64_t> closing_prs;   //!< merged PRs of the same repo that close it, sorted
  //! Its attributes (json/report_attribute.hpp: each row says how two sightings combine); "" unknown.
  PerAttribute<std::string> attributes;

  //! Only a closing reference was seen, never the report itself (such records are not counted).
  bool reference_only() const { return events == 0; }

  //! The archive held no text of this report: no title in any snapshot and no rule matched
  //! (2012-2014 Timeline IssuesEvent/IssueCommentEvent carry only ids; PullRequestEvent has no
  //! title or body since about October 2025). Such a report is "no text", not "unflagged".
  bool no_text() const { return title.empty() && rules.empty(); }

  //! Folds `other` into this record.
  void Merge(const IssueRecord& other);
  std::string Encode() const;
  static Result<IssueRecord> Decode(std::string_view bytes);
  bool operator==(const IssueRecord&) const = default;
};

//! Adds rule ids to a sorted, distinct list.
void MergeSortedIds(std::vector<std::string>& into, const std::vector<std::string>& more);
template <typename T>
void MergeSorted(std::vector<T>& into, const std::vector<T>& more, size_t cap = SIZE_MAX);

//! Commenters kept per report at most (enough for the studies' per-report counts).
inline constexpr size_t kMaxCommenters = 1000;

}  // namespace ghsift
