#include "aggregate/latest_text_record.hpp"

#include <algorithm>
#include <iterator>
#include <tuple>

#include "common/byte_codec.hpp"

namespace ghsift {
namespace {

constexpr uint8_t kRecordVersion = 1;

bool SnapshotIsNewer(const LatestTextRecord& a, const LatestTextRecord& b) {
  const bool a_text = !a.title.empty(), b_text = !b.title.empty();
  return std::tie(a_text, a.time, a.title, a.body, a.labels) > std::tie(b_text, b.time, b.title, b.body, b.labels);
}

}  // namespace

void LatestTextRecord::Merge(const LatestTextRecord& other) {
  if (SnapshotIsNewer(other, *this)) {
    time = other.time;
    title = other.title;
    body = other.body;
    labels = other.labels;
  }
  if (other.comments.empty()) return;
  std::vector<std::pair<int64_t, std::string>> merged;
  merged.reserve(comments.size() + other.comments.size());
  std::set_union(comments.begin(), comments.end(), other.comments.begin(), other.comments.end(),
                 std::back_inserter(merged));
  // Keeping the smallest kMaxComments keeps the merge commutative and associative.
  if (merged.size() > kMaxComments) merged.resize(kMaxComments);
  comments = std::move(merged);
}

std::string LatestTextRecord::Encode() const {
  std::string out;
  out.push_back(static_cast<char>(kRecordVersion));
  PutSignedVarint(out, time);
  PutLengthPrefixed(out, title);
  PutLengthPrefixed(out, body);
  PutVarint(out, labels.size());
  for (const auto& l : labels) PutLengthPrefixed(out, l);
  PutVarint(out, comments.size());
  for (const auto& [at, text] : comments) {
    PutSignedVarint(out, at);
    PutLengthPrefixed(out, text);
  }
  return out;
}

Result<LatestTextRecord> LatestTextRecord::Decode(std::string_view bytes) {
  if (bytes.empty() || static_cast<uint8_t>(bytes[0]) != kRecordVersion) {
    return Status::StoreError("latest report text has an unknown format");
  }
  ByteReader in(bytes.substr(1));
  LatestTextRecord r;
  r.time = in.SignedVarint();
  r.title = std::string(in.LengthPrefixed());
  r.body = std::string(in.LengthPrefixed());
  const uint64_t label_count = in.Varint();
  for (uint64_t i = 0; i < label_count && in.ok(); ++i) r.labels.emplace_back(in.LengthPrefixed());
  const uint64_t comment_count = in.Varint();
  for (uint64_t i = 0; i < comment_count && in.ok(); ++i) {
    const int64_t at = in.SignedVarint();
    r.comments.emplace_back(at, std::string(in.LengthPrefixed()));
  }
  if (!in.ok() || !in.done()) return Status::StoreError("latest report text is truncated or damaged");
  return r;
}

}  // namespace ghsift
