#include "aggregate/issue_record.hpp"

#include <algorithm>
#include <tuple>

#include "aggregate/tagged_fields.hpp"
#include "common/byte_codec.hpp"

namespace ghsift {
namespace {

//! Format 2: the fixed fields below. Format 3: the same, then tagged fields (tagged_fields.hpp).
constexpr uint8_t kFixedOnlyFormat = 2;

//! The tagged fields after format 2 are the report's attributes, each under its row's record_tag
//! (json/report_attribute.hpp); a field added here would take a tag no row uses.
const AttributeSpec* AttributeOfTag(uint64_t tag) {
  for (const AttributeSpec& spec : kReportAttributes) {
    if (spec.record_tag == tag) return &spec;
  }
  return nullptr;
}

//! The attributes that go with the latest snapshot, in table order.
std::vector<std::string_view> LatestSnapshotAttributes(const IssueRecord& r) {
  std::vector<std::string_view> out;
  for (const AttributeSpec& spec : kReportAttributes) {
    if (spec.merge == AttributeMerge::kLatestSnapshot) out.push_back(r.attributes[spec.attribute]);
  }
  return out;
}

//! Which of two snapshots of the same second came last, without their events' order (the merge
//! must be commutative): GitHub's "Close with comment" writes a comment (state open) and the close
//! in one second, so a snapshot closed in that very second is the later one; an open one is later
//! than one closed before that second (a reopen with a comment). The rest only makes the choice
//! deterministic.
int SameSecondRank(const IssueRecord& r) {
  if (r.state == "closed" && r.closed_at != 0 && r.closed_at >= r.snapshot_time) return 2;
  return r.state == "open" ? 1 : 0;
}

bool SnapshotIsNewer(const IssueRecord& a, const IssueRecord& b) {
  const int rank_a = SameSecondRank(a), rank_b = SameSecondRank(b);
  const auto key_a = std::tie(a.snapshot_time, rank_a, a.state, a.title, a.closed_at, a.labels);
  const auto key_b = std::tie(b.snapshot_time, rank_b, b.state, b.title, b.closed_at, b.labels);
  if (key_a != key_b) return key_a > key_b;
  return LatestSnapshotAttributes(a) > LatestSnapshotAttributes(b);
}

}  // namespace

template <typename T>
void MergeSorted(std::vector<T>& into, const std::vector<T>& more, size_t cap) {
  if (more.empty()) return;
  std::vector<T> merged;
  merged.reserve(into.size() + more.size());
  std::set_union(into.begin(), into.end(), more.begin(), more.end(), std::back_inserter(merged));
  // Keeping the smallest `cap` values keeps the merge commutative and associative.
  if (merged.size() > cap) merged.resize(cap);
  into = std::move(merged);
}
template void MergeSorted(std::vector<std::string>&, const std::vector<std::string>&, size_t);
template void MergeSorted(std::vector<uint64_t>&, const std::vector<uint64_t>&, size_t);
template void MergeSorted(std::vector<int64_t>&, const std::vector<int64_t>&, size_t);

void MergeSortedIds(std::vector<std::string>& into, const std::vector<std::string>& more) { MergeSorted(into, more); }

void IssueRecord::Merge(const IssueRecord& other) {
  kind = std::max(kind, other.kind);
  if (other.created_at != 0 && (created_at == 0 || other.created_at < created_at)) created_at = other.created_at;
  first_seen = std::min(first_seen, other.first_seen);
  last_seen = std::max(last_seen, other.last_seen);
  if (SnapshotIsNewer(other, *this)) {
    snapshot_time = other.snapshot_time;
    title = other.title;
    state = other.state;
    closed_at = other.closed_at;
    labels = other.labels;
    for (const AttributeSpec& spec : kReportAttributes) {
      if (spec.merge == AttributeMerge::kLatestSnapshot) attributes[spec.attribute] = other.attributes[spec.attribute];
    }
  }
  comments = std::max(comments, other.comments);
  events += other.events;
  MergeSortedIds(rules, other.rules);
  if (other.first_comment_at != 0 && (first_comment_at == 0 || other.first_comment_at < first_comment_at)) {
    first_comment_at = other.first_comment_at;
  }
  MergeSorted(commenters, other.commenters, kMaxCommenters);
  MergeSorted(labels_ever, other.labels_ever);
  reopened += other.reopened;
  MergeSorted(closing_prs, other.closing_prs);
  for (const AttributeSpec& spec : kReportAttributes) {
    std::string& mine = attributes[spec.attribute];
    const std::string& theirs = other.attributes[spec.attribute];
    if (spec.merge == AttributeMerge::kSmallest && !theirs.empty() && (mine.empty() || theirs < mine)) mine = theirs;
  }
}

std::string IssueRecord::Encode() const {
  std::string out;
  out.push_back(static_cast<char>(kIssueRecordFormat));
  out.push_back(static_cast<char>(kind));
  PutSignedVarint(out, created_at);
  PutSignedVarint(out, first_seen);
  PutSignedVarint(out, last_seen);
  PutSignedVarint(out, snapshot_time);
  PutLengthPrefixed(out, title);
  PutLengthPrefixed(out, state);
  PutSignedVarint(out, closed_at);
  PutVarint(out, labels.size());
  for (const auto& l : labels) PutLengthPrefixed(out, l);
  PutSignedVarint(out, comments);
  PutVarint(out, events);
  PutVarint(out, rules.size());
  for (const auto& r : rules) PutLengthPrefixed(out, r);
  PutSignedVarint(out, first_comment_at);
  PutVarint(out, commenters.size());
  for (uint64_t c : commenters) PutVarint(out, c);
  PutVarint(out, labels_ever.size());
  for (const auto& l : labels_ever) PutLengthPrefixed(out, l);
  PutVarint(out, reopened);
  PutVarint(out, closing_prs.size());
  for (int64_t pr : closing_prs) PutSignedVarint(out, pr);
  TaggedFields fields;  // each only when set
  for (const AttributeSpec& spec : kReportAttributes) {
    if (!attributes[spec.attribute].empty()) fields.Add(spec.record_tag, attributes[spec.attribute]);
  }
  fields.AppendTo(out);
  return out;
}

Result<IssueRecord> IssueRecord::Decode(std::string_view bytes) {
  const uint8_t format = bytes.empty() ? 0 : static_cast<uint8_t>(bytes[0]);
  if (bytes.size() < 2 || format < kFixedOnlyFormat || format > kIssueRecordFormat) {
    return Status::StoreError("issue record has an unknown format (" + std::to_string(format) + "; this ghsift reads " +
                              std::to_string(kFixedOnlyFormat) + " to " + std::to_string(kIssueRecordFormat) +
                              ": a newer ghsift wrote it?)");
  }
  IssueRecord r;
  r.kind = static_cast<uint8_t>(bytes[1]);
  ByteReader in(bytes.substr(2));
  r.created_at = in.SignedVarint();
  r.first_seen = in.SignedVarint();
  r.last_seen = in.SignedVarint();
  r.snapshot_time = in.SignedVarint();
  r.title = std::string(in.LengthPrefixed());
  r.state = std::string(in.LengthPrefixed());
  r.closed_at = in.SignedVarint();
  const uint64_t label_count = in.Varint();
  for (uint64_t i = 0; i < label_count && in.ok(); ++i) r.labels.emplace_back(in.LengthPrefixed());
  r.comments = in.SignedVarint();
  r.events = in.Varint();
  const uint64_t rule_count = in.Varint();
  for (uint64_t i = 0; i < rule_count && in.ok(); ++i) r.rules.emplace_back(in.LengthPrefixed());
  r.first_comment_at = in.SignedVarint();
  const uint64_t commenter_count = in.Varint();
  for (uint64_t i = 0; i < commenter_count && in.ok(); ++i) r.commenters.push_back(in.Varint());
  const uint64_t labels_ever_count = in.Varint();
  for (uint64_t i = 0; i < labels_ever_count && in.ok(); ++i) r.labels_ever.emplace_back(in.LengthPrefixed());
  r.reopened = in.Varint();
  const uint64_t pr_count = in.Varint();
  for (uint64_t i = 0; i < pr_count && in.ok(); ++i) r.closing_prs.push_back(in.SignedVarint());
  if (!in.ok()) return Status::StoreError("issue record is truncated");
  if (format == kFixedOnlyFormat) return r;
  const bool fields_ok = ReadTaggedFields(in, [&](uint64_t tag, std::string_view bytes) {
    // A tag no row knows is a field of a newer ghsift: skipped.
    if (const AttributeSpec* spec = AttributeOfTag(tag)) r.attributes[spec->attribute] = std::string(bytes);
  });
  if (!fields_ok) return Status::StoreError("issue record has a damaged field");
  return r;
}

}  // namespace ghsift
