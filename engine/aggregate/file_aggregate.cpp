#include "aggregate/file_aggregate.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "aggregate/event_type_table.hpp"
#include "common/byte_codec.hpp"
#include "common/hash.hpp"
#include "common/time_util.hpp"

namespace ghsift {
namespace {

// Keeps the earliest few bad lines only (all are counted); whole-file order is restored by
// ResolveLineNumbers.
void TrimBadLineSamples(std::vector<BadLine>& lines) {
  if (lines.size() <= 4 * FileAggregate::kBadLineSamples) return;
  std::sort(lines.begin(), lines.end(), [](const BadLine& a, const BadLine& b) {
    return std::tie(a.chunk, a.line_in_chunk, a.column) < std::tie(b.chunk, b.line_in_chunk, b.column);
  });
  lines.resize(FileAggregate::kBadLineSamples);
}

//! Gives located records their file line numbers (from the lines of the chunks before theirs)
//! and keeps the earliest few in file order.
void PlaceSamples(std::map<uint64_t, uint64_t>& lines_before, std::vector<BadLine>& samples) {
  for (BadLine& b : samples) b.line = lines_before[b.chunk] + b.line_in_chunk + 1;
  std::sort(samples.begin(), samples.end(), [](const BadLine& a, const BadLine& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
  if (samples.size() > FileAggregate::kBadLineSamples) samples.resize(FileAggregate::kBadLineSamples);
}

}  // namespace

void FileAggregate::CountEvent(const Event& event, bool per_repository) {
  ++events_;
  CounterKey key{per_repository ? event.repo_id : kUntrackedRepositories, DayOf(event.created_at),
                 EventTypeId(event.type)};
  if (key.type_id == kUnknownEventType) {
    ++unknown_types_[std::string(event.type)][key];
  } else {
    counters_.Add(key, 1);
  }
  TextShare share;
  if (event.kind == EventKind::kIssues || event.kind == EventKind::kIssueComment) {
    share.issue_events = 1;
    share.issue_events_text = event.report.HasText();
  } else if (event.kind == EventKind::kPullRequest) {
    share.pr_events = 1;
    share.pr_events_text = event.report.HasText();
  }
  const bool report_event = share.issue_events + share.pr_events != 0;
  if (report_event) text_shares_[MonthOfDay(key.day)].Add(share);
  if (event.id != 0) {
    EventRef ref;
    ref.id = event.id;
    ref.key = key;
    if (report_event) ref.share = share;
    if (key.type_id == kUnknownEventType) {
      ref.unknown_type = static_cast<int32_t>(unknown_type_names_.size());
      unknown_type_names_.emplace_back(event.type);
    }
    event_refs_.push_back(ref);
  }
  if (per_repository && event.repo_id != 0 && !event.repo_name.empty()) {
    repo_names_[event.repo_id].Note(event.created_at, event.repo_name);
  }
}

void FileAggregate::AddReport(const Event& event, std::vector<std::string> matched_rule_ids) {
  const ReportFields& report = event.report;
  ++reports_;
  IssueRecord delta;
  delta.kind = static_cast<uint8_t>(report.kind);
  delta.created_at = report.created_at;
  delta.first_seen = delta.last_seen = event.created_at;
  // An event that says nothing of the report's title or state (a 2012-2014 issue event or
  // comment: ids only) is no snapshot of it: a later one must not blank the last that was.
  if (!report.text[Field::kTitle].empty() || !report.state.empty()) delta.snapshot_time = event.created_at;
  delta.title.assign(report.text[Field::kTitle]);
  delta.state.assign(report.state);
  delta.closed_at = report.closed_at;
  for (std::string_view l : report.labels) delta.labels.emplace_back(l);
  std::sort(delta.labels.begin(), delta.labels.end());
  delta.comments = report.comments;
  delta.events = 1;
  delta.labels_ever = delta.labels;
  if (event.kind == EventKind::kIssueComment) {
    delta.first_comment_at = event.created_at;
    if (!event.actor.empty()) delta.commenters.push_back(Fnv1a64(event.actor));
  }
  if (event.kind == EventKind::kIssues && report.action == "reopened") delta.reopened = 1;
  for (const AttributeSpec& spec : kReportAttributes) {
    std::string_view value = report.attributes[spec.attribute];
    if (value.empty() && spec.actor_when_opened && report.action == "opened") value = event.actor;
    delta.attributes[spec.attribute].assign(value);
  }
  std::sort(matched_rule_ids.begin(), matched_rule_ids.end());
  matched_rule_ids.erase(std::unique(matched_rule_ids.begin(), matched_rule_ids.end()), matched_rule_ids.end());
  delta.rules = std::move(matched_rule_ids);
  if (event.id != 0 && !event_refs_.empty() && event_refs_.back().id == event.id) {
    event_refs_.back().has_report = true;
    event_refs_.back().report = IssueKey{event.repo_id, report.number};
  }
  auto [it, inserted] = issues_.try_emplace(IssueKey{event.repo_id, report.number});
  if (inserted) {
    it->second = std::move(delta);
  } else {
    it->second.Merge(delta);
  }
}

std::string FileAggregate::TextKey(int64_t repo_id, int64_t number, std::string_view encoded_text) {
  std::string key;
  PutOrderedInt64(key, repo_id);
  PutOrderedInt64(key, number);
  PutFixed64BE(key, Fnv1a64(encoded_text));
  return key;
}

void FileAggregate::AddText(int64_t repo_id, int64_t number, std::string encoded_text) {
  std::string key = TextKey(repo_id, number, encoded_text);
  texts_.try_emplace(std::move(key), std::move(encoded_text));
}

void FileAggregate::AddLatestText(int64_t repo_id, int64_t number, LatestTextRecord text) {
  auto [it, inserted] = latest_texts_.try_emplace(IssueKey{repo_id, number});
  if (inserted) {
    it->second = std::move(text);
  } else {
    it->second.Merge(text);
  }
}

void FileAggregate::AddClosingReferences(int64_t repo_id, const std::vector<int64_t>& issue_numbers,
                                         int64_t pull_request) {
  for (int64_t number : issue_numbers) {
    IssueRecord reference;  // events == 0: a reference, not a sighting of the issue
    reference.closing_prs.push_back(pull_request);
    auto [it, inserted] = issues_.try_emplace(IssueKey{repo_id, number});
    if (inserted) {
      it->second = std::move(reference);
    } else {
      it->second.Merge(reference);
    }
  }
}

void FileAggregate::AddBadLine(uint64_t chunk, uint64_t line_in_chunk, std::string reason, uint64_t column) {
  ++bad_line_count_;
  bad_lines_.push_back({chunk, line_in_chunk, 0, std::move(reason), column});
  TrimBadLineSamples(bad_lines_);
}

void FileAggregate::AddReportEventWithoutNumber(const Event& event, uint64_t chunk, uint64_t line_in_chunk,
                                                uint64_t column) {
  ++without_number_count_;
  without_number_.push_back({chunk, line_in_chunk, 0, std::string(event.type) + ": " + event.no_report_reason, column});
  TrimBadLineSamples(without_number_);
  // CountEvent came first: a duplicate of this event takes its count back too.
  if (event.id != 0 && !event_refs_.empty() && event_refs_.back().id == event.id) event_refs_.back().without_number = true;
}

void FileAggregate::AddChunkLines(uint64_t chunk, uint64_t lines) { chunk_lines_.emplace_back(chunk, lines); }

uint64_t FileAggregate::lines() const {
  uint64_t total = 0;
  for (const auto& [chunk, n] : chunk_lines_) total += n;
  return total;
}

bool FileAggregate::Untouched() const {
  return counters_.size() == 0 && unknown_types_.empty() && repo_names_.empty() && issues_.empty() && text_shares_.empty() &&
         bad_lines_.empty() && without_number_.empty() && chunk_lines_.empty() && events_ == 0 &&
         bad_line_count_ == 0 && without_number_count_ == 0 && bytes_ == 0 &&
         reports_ == 0 && joined_records_ == 0 && duplicate_events_ == 0 && event_refs_.empty() &&
         unknown_type_names_.empty() && texts_.empty() && latest_texts_.empty();
}

void FileAggregate::Combine(FileAggregate&& other) {
  if (Untouched()) {
    *this = std::move(other);  // the other side's tables are taken over whole, not copied
    return;
  }
  counters_.Merge(other.counters_);
  for (auto& [name, map] : other.unknown_types_) {
    auto& mine = unknown_types_[name];
    for (const auto& [k, v] : map) mine[k] += v;
  }
  for (const auto& [month, share] : other.text_shares_) text_shares_[month].Add(share);
  for (auto& [id, name] : other.repo_names_) {
    auto [mine, added] = repo_names_.Emplace(id);
    if (added) {
      mine = std::move(name);  // a repository this side lacks: taken over, not copied
    } else {
      mine.Merge(name);
    }
  }
  // merge() moves the nodes of keys this side lacks (no copy, no allocation); what stays in
  // `other` is the keys both have, folded one by one.
  issues_.merge(other.issues_);
  for (auto& [key, record] : other.issues_) issues_.at(key).Merge(record);
  for (auto& b : other.bad_lines_) bad_lines_.push_back(std::move(b));
  TrimBadLineSamples(bad_lines_);
  for (auto& b : other.without_number_) without_number_.push_back(std::move(b));
  TrimBadLineSamples(without_number_);
  chunk_lines_.insert(chunk_lines_.end(), other.chunk_lines_.begin(), other.chunk_lines_.end());
  events_ += other.events_;
  bad_line_count_ += other.bad_line_count_;
  without_number_count_ += other.without_number_count_;
  bytes_ += other.bytes_;
  reports_ += other.reports_;
  joined_records_ += other.joined_records_;
  duplicate_events_ += other.duplicate_events_;
  const auto name_offset = static_cast<int32_t>(unknown_type_names_.size());
  for (EventRef ref : other.event_refs_) {
    if (ref.unknown_type >= 0) ref.unknown_type += name_offset;
    event_refs_.push_back(ref);
  }
  for (auto& name : other.unknown_type_names_) unknown_type_names_.push_back(std::move(name));
  texts_.merge(other.texts_);  // a text both have is the same text (the key holds its hash)
  latest_texts_.merge(other.latest_texts_);
  for (auto& [key, text] : other.latest_texts_) latest_texts_.at(key).Merge(text);
}

uint64_t FileAggregate::RemoveDuplicateEvents() {
  // Sorted as (id, position) pairs rather than as whole EventRefs: a swap moves 16 bytes instead
  // of 80, and of two events with one id the later one is the repeat, whatever the sort.
  std::vector<std::pair<uint64_t, uint32_t>> by_id(event_refs_.size());
  for (size_t i = 0; i < event_refs_.size(); ++i) by_id[i] = {event_refs_[i].id, static_cast<uint32_t>(i)};
  std::sort(by_id.begin(), by_id.end());
  uint64_t removed = 0;
  for (size_t i = 1; i < by_id.size(); ++i) {
    if (by_id[i].first != by_id[i - 1].first) continue;
    // A repeat: take back what it added (issue snapshots merge idempotently; counts do not).
    const EventRef& dup = event_refs_[by_id[i].second];
    if (dup.unknown_type < 0) {
      counters_.Subtract(dup.key, 1);
    } else {
      --unknown_types_[unknown_type_names_[static_cast<size_t>(dup.unknown_type)]][dup.key];
    }
    if (dup.share.issue_events + dup.share.pr_events != 0) text_shares_[MonthOfDay(dup.key.day)].Subtract(dup.share);
    if (dup.has_report) {
      --issues_[dup.report].events;
      --reports_;
    }
    if (dup.without_number) --without_number_count_;
    --events_;
    ++removed;
  }
  duplicate_events_ += removed;
  event_refs_.clear();
  event_refs_.shrink_to_fit();
  unknown_type_names_.clear();
  return removed;
}

void FileAggregate::ResolveLineNumbers() {
  std::map<uint64_t, uint64_t> lines_before;  // chunk -> lines in all earlier chunks
  std::sort(chunk_lines_.begin(), chunk_lines_.end());
  uint64_t running = 0;
  for (const auto& [chunk, n] : chunk_lines_) {
    lines_before[chunk] = running;
    running += n;
  }
  PlaceSamples(lines_before, bad_lines_);
  PlaceSamples(lines_before, without_number_);
}

}  // namespace ghsift
