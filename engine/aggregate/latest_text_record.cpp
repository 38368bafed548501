#include "aggregate/latest_text_record.hpp"

#include <algorithm>
#include <iterator>
#include <tuple>

#include "aggregate/tagged_fields.hpp"
#include "common/byte_codec.hpp"

namespace ghsift {
namespace {

//! Format 1: the fixed fields below. Format 2: the same, then tagged fields (tagged_fields.hpp).
constexpr uint8_t kFixedOnlyFormat = 1;

//! Tags of the fields that came after format 1 (never reuse a number).
enum FieldTag : uint64_t {};

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
  out.push_back(static_cast<char>(kLatestTextFormat));
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
  TaggedFields fields;  // each only when set
  fields.AppendTo(out);
  return out;
}

Result<LatestTextRecord> LatestTextRecord::Decode(std::string_view bytes) {
  const uint8_t format = bytes.empty() ? 0 : static_cast<uint8_t>(bytes[0]);
  if (format < kFixedOnlyFormat || format > kLatestTextFormat) {
    return Status::StoreError("latest report text has an unknown format (" + std::to_string(format) +
                              "; this ghsift reads " + std::to_string(kFixedOnlyFormat) + " to " +
                              std::to_string(kLatestTextFormat) + ": a newer ghsift wrote it?)");
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
  if (!in.ok() || (format == kFixedOnlyFormat && !in.done())) {
    return Status::StoreError("latest report text is truncated or damaged");
  }
  if (format == kFixedOnlyFormat) return r;
  const bool fields_ok = ReadTaggedFields(in, [&](uint64_t tag, std::string_view) {
    switch (static_cast<FieldTag>(tag)) {
      default: break;  // a field of a newer ghsift
    }
  });
  if (!fields_ok) return Status::StoreError("latest report text has a damaged field");
  return r;
}

}  // namespace ghsift
