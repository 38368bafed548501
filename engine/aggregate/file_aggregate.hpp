#pragma once
// The sixth stage: per-file aggregate deltas.
//
// Local state is a FileAggregate filled by one pipeline task from one chunk (Sink*; runs in
// parallel, one aggregate per task). The per-file Global state is another FileAggregate into
// which chunk aggregates are folded (Combine; runs in the pipeline's serial stage, in any
// order: every fold is commutative). The store writes a finished file's aggregate in one batch.
#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "aggregate/counter_table.hpp"
#include "aggregate/issue_record.hpp"
#include "aggregate/latest_text_record.hpp"
#include "common/flat_id_map.hpp"
#include "json/event.hpp"

namespace ghsift {


struct IssueKey {
  int64_t repo_id = 0;
  int64_t number = 0;
  bool operator==(const IssueKey&) const = default;
};
struct IssueKeyHash {
  size_t operator()(const IssueKey& k) const {
    const uint64_t h = static_cast<uint64_t>(k.repo_id) * 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(k.number);
    return static_cast<size_t>(h ^ (h >> 31));
  }
};

//! Latest name of a repository, by event time (ties: the greater name).
struct RepoName {
  int64_t time = 0;
  std::string name;  //!< the latest name seen (by event time)
  //! Names seen besides the latest (a rename inside a file or a commit group): each is indexed,
  //! so `--repo` finds the repository under any name it had.
  std::vector<std::string> other_names;

  //! Takes a name seen at `at`: the latest wins, the others are remembered.
  void Note(int64_t at, std::string_view seen) {
    if (seen == name) {
      time = std::max(time, at);
      return;
    }
    const bool newer = name.empty() || at > time || (at == time && seen > name);
    std::string_view other = newer ? std::string_view(name) : seen;
    if (!other.empty() && std::find(other_names.begin(), other_names.end(), other) == other_names.end()) {
      other_names.emplace_back(other);
    }
    if (newer) {
      std::erase(other_names, seen);
      time = at;
      name.assign(seen);
    }
  }
  void Merge(const RepoName& other) {
    Note(other.time, other.name);
    for (const std::string& n : other.other_names) {
      if (n != name && std::find(other_names.begin(), other_names.end(), n) == other_names.end()) {
        other_names.push_back(n);
      }
    }
  }
};

//! Report events of one month, and how many of them carry text: the archive's blind spots
//! (2012-2014 issue events hold only ids; pull requests lost title and body in late 2025).
struct TextShare {
  uint64_t issue_events = 0;       //!< IssuesEvent and IssueCommentEvent
  uint64_t issue_events_text = 0;  //!< ... with a title, body or comment
  uint64_t pr_events = 0;          //!< PullRequestEvent
  uint64_t pr_events_text = 0;     //!< ... with a title or body
  void Add(const TextShare& o) {
    issue_events += o.issue_events;
    issue_events_text += o.issue_events_text;
    pr_events += o.pr_events;
    pr_events_text += o.pr_events_text;
  }
  //! Takes back what one event added (a duplicate's share).
  void Subtract(const TextShare& o) {
    issue_events -= o.issue_events;
    issue_events_text -= o.issue_events_text;
    pr_events -= o.pr_events;
    pr_events_text -= o.pr_events_text;
  }
};

//! A bad record, located by chunk and line within it until the file's line numbers are known.
//! Usually a whole line; in a line of glued records (`}{`), one of them, found by its column.
//! Also a record read as an event that lacked something (a report event without a number).
struct BadLine {
  uint64_t chunk = 0;
  uint64_t line_in_chunk = 0;  //!< 0-based; for an over-long line, the count of lines before it
  uint64_t line = 0;           //!< 1-based line in the file, filled in when the file is done
  std::string reason;
  uint64_t column = 1;         //!< 1-based byte in the line where the bad record starts
};

//! The repository id under which events of repositories outside a tracked scope are counted
//! together: queries only ever ask about tracked repositories and totals there, and real hours
//! hold about one repository per two events, each a counter and a name to store otherwise.
inline constexpr int64_t kUntrackedRepositories = -1;

class FileAggregate {
 public:
  //! Kept details per file of bad lines, and of report events without a number (all are counted).
  static constexpr size_t kBadLineSamples = 10;

  //! Counts an event under its repository, or under kUntrackedRepositories (and without noting
  //! the repository's name) when `per_repository` is false.
  void CountEvent(const Event& event, bool per_repository = true);
  //! Folds one report snapshot and the rules it matched into the issue state.
  void AddReport(const Event& event, std::vector<std::string> matched_rule_ids);
  //! A merged pull request of the same repository closes these issues.
  void AddClosingReferences(int64_t repo_id, const std::vector<int64_t>& issue_numbers, int64_t pull_request);
  //! A bad record (counted in `bad_lines`): a whole line, or one record of a glued line.
  void AddBadLine(uint64_t chunk, uint64_t line_in_chunk, std::string reason, uint64_t column = 1);
  //! A report event that names no usable report number (Event::no_report_reason), located as a bad
  //! record is: counted as an event (CountEvent, called for it as for any), and here apart, so
  //! that the report it could not make is said rather than missing without a word.
  void AddReportEventWithoutNumber(const Event& event, uint64_t chunk, uint64_t line_in_chunk, uint64_t column = 1);
  void AddBytes(uint64_t decoded_bytes) { bytes_ += decoded_bytes; }
  //! Keeps one report event's text (deduplicated per report) for later rescans.
  void AddText(int64_t repo_id, int64_t number, std::string encoded_text);
  //! Folds the text of one event of a report that matched a problem rule into the report's
  //! latest text (kept for the label loop, with or without --keep-text).
  void AddLatestText(int64_t repo_id, int64_t number, LatestTextRecord text);
  //! A record that shared its line with the next one (`}{`); both are counted as events.
  void AddJoinedRecord() { ++joined_records_; }
  void AddChunkLines(uint64_t chunk, uint64_t lines);

  //! Counts every event of a duplicated event id once (an archive quirk): call once per file,
  //! after all chunks are combined. Returns the number of duplicates removed.
  uint64_t RemoveDuplicateEvents();

  //! Folds another aggregate into this one (into an untouched one, it takes `other` over whole).
  void Combine(FileAggregate&& other);
  //! Turns chunk-relative bad-line positions into file line numbers (call once, at file end).
  void ResolveLineNumbers();

  const CounterTable& counters() const { return counters_; }
  const std::unordered_map<std::string, std::unordered_map<CounterKey, uint64_t, CounterKeyHash>>& unknown_types()
      const {
    return unknown_types_;
  }
  //! Month index -> report events with and without text.
  const std::unordered_map<int32_t, TextShare>& text_shares() const { return text_shares_; }
  const FlatIdMap<RepoName>& repo_names() const { return repo_names_; }
  const std::unordered_map<IssueKey, IssueRecord, IssueKeyHash>& issues() const { return issues_; }
  const std::vector<BadLine>& bad_line_samples() const { return bad_lines_; }
  //! The first few report events without a usable number, located and with their reason.
  const std::vector<BadLine>& without_number_samples() const { return without_number_; }
  uint64_t report_events_without_number() const { return without_number_count_; }
  uint64_t events() const { return events_; }
  uint64_t bad_lines() const { return bad_line_count_; }
  uint64_t bytes() const { return bytes_; }
  uint64_t reports() const { return reports_; }
  uint64_t joined_records() const { return joined_records_; }
  uint64_t duplicate_events() const { return duplicate_events_; }
  //! (repo id, number, text hash) -> encoded ReportTextRecord.
  const std::unordered_map<std::string, std::string>& texts() const { return texts_; }
  //! Report -> its latest text and comments, for the reports that matched a problem rule here.
  const std::unordered_map<IssueKey, LatestTextRecord, IssueKeyHash>& latest_texts() const { return latest_texts_; }
  //! The identity of a text in `texts()`: repo id, number and a hash of the text.
  static std::string TextKey(int64_t repo_id, int64_t number, std::string_view encoded_text);
  uint64_t lines() const;

 private:
  //! Nothing added yet (every member as constructed).
  bool Untouched() const;

  CounterTable counters_;
  std::unordered_map<std::string, std::unordered_map<CounterKey, uint64_t, CounterKeyHash>> unknown_types_;
  FlatIdMap<RepoName> repo_names_;  //!< looked up for every event: a flat table
  std::unordered_map<int32_t, TextShare> text_shares_;
  std::unordered_map<IssueKey, IssueRecord, IssueKeyHash> issues_;
  std::vector<BadLine> bad_lines_;
  std::vector<BadLine> without_number_;
  std::vector<std::pair<uint64_t, uint64_t>> chunk_lines_;  //!< (chunk, lines incl. over-long ones)
  uint64_t events_ = 0;
  uint64_t bad_line_count_ = 0;
  uint64_t without_number_count_ = 0;
  uint64_t bytes_ = 0;
  uint64_t reports_ = 0;
  uint64_t joined_records_ = 0;
  uint64_t duplicate_events_ = 0;
  //! What each event with an id added, so that a duplicate's share can be taken back. Plain
  //! data: one is kept per event, so it must be cheap to append and sort.
  struct EventRef {
    uint64_t id = 0;
    CounterKey key;
    int32_t unknown_type = -1;  //!< index into unknown_type_names_ when the type is not in the table
    bool has_report = false;
    bool without_number = false;  //!< a report event that named no usable number
    IssueKey report;
    TextShare share;  //!< what the event added to its month's text share (zero for most types)
  };
  std::vector<EventRef> event_refs_;
  std::vector<std::string> unknown_type_names_;
  std::unordered_map<std::string, std::string> texts_;
  std::unordered_map<IssueKey, LatestTextRecord, IssueKeyHash> latest_texts_;
};

}  // namespace ghsift
