#include "aggregate/latest_text_record.hpp"

#include <algorithm>
#include <iterator>
#include <tuple>

#include "aggregate/tagged_fields.hpp"
#include "common/byte_codec.hpp"

namespace ghsift {
namespace {

//! Format 1: the fixed fields below. Format 2: the same, then tagged fields (tagged_fields.hpp):
//! the text fields added since, under their TextFieldSpec::store_tag.
constexpr uint8_t kFixedOnlyFormat = 1;

constexpr bool InSnapshot(const TextFieldSpec& spec) {
  return spec.source == TextSource::kSnapshot || spec.source == TextSource::kLabels;
}

bool SnapshotIsNewer(const LatestTextRecord& a, const LatestTextRecord& b) {
  const bool a_text = !a.snapshot[Field::kTitle].empty(), b_text = !b.snapshot[Field::kTitle].empty();
  return std::tie(a_text, a.time, a.snapshot.texts.by_id) > std::tie(b_text, b.time, b.snapshot.texts.by_id);
}

void PutSnapshotField(std::string& out, const TextFieldSpec& spec, const ReportText& snapshot) {
  if (spec.source == TextSource::kSnapshot) {
    PutLengthPrefixed(out, snapshot.First(spec.field));
    return;
  }
  PutVarint(out, snapshot[spec.field].size());
  for (const auto& t : snapshot[spec.field]) PutLengthPrefixed(out, t);
}

void ReadSnapshotField(ByteReader& in, const TextFieldSpec& spec, ReportText& snapshot) {
  if (spec.source == TextSource::kSnapshot) {
    snapshot.Add(spec.field, in.LengthPrefixed());
    return;
  }
  const uint64_t n = in.Varint();
  for (uint64_t i = 0; i < n && in.ok(); ++i) snapshot[spec.field].emplace_back(in.LengthPrefixed());
}

void PutTimedTexts(std::string& out, const std::vector<LatestTextRecord::TimedText>& texts) {
  PutVarint(out, texts.size());
  for (const auto& [at, text] : texts) {
    PutSignedVarint(out, at);
    PutLengthPrefixed(out, text);
  }
}

void ReadTimedTexts(ByteReader& in, std::vector<LatestTextRecord::TimedText>& texts) {
  const uint64_t n = in.Varint();
  for (uint64_t i = 0; i < n && in.ok(); ++i) {
    const int64_t at = in.SignedVarint();
    texts.emplace_back(at, std::string(in.LengthPrefixed()));
  }
}

//! Format 1's fixed places, in this order: the one-text snapshot fields (title, body), the
//! labels, then the event texts (comments). `fn(spec)` for each.
template <typename Fn>
void ForEachFixedField(Fn&& fn) {
  for (const TextFieldSpec& spec : kTextFields) {
    if (spec.store_tag == 0 && spec.source == TextSource::kSnapshot) fn(spec);
  }
  for (const TextFieldSpec& spec : kTextFields) {
    if (spec.store_tag == 0 && spec.source == TextSource::kLabels) fn(spec);
  }
  for (const TextFieldSpec& spec : kTextFields) {
    if (spec.store_tag == 0 && spec.source == TextSource::kEventText) fn(spec);
  }
}

}  // namespace

void LatestTextRecord::Merge(const LatestTextRecord& other) {
  if (SnapshotIsNewer(other, *this)) {
    time = other.time;
    snapshot = other.snapshot;
  }
  for (const TextFieldSpec& spec : kTextFields) {
    const auto& more = other.events[spec.field];
    if (spec.source != TextSource::kEventText || more.empty()) continue;
    auto& into = events[spec.field];
    std::vector<TimedText> merged;
    merged.reserve(into.size() + more.size());
    std::set_union(into.begin(), into.end(), more.begin(), more.end(), std::back_inserter(merged));
    // Keeping the smallest kMaxComments keeps the merge commutative and associative.
    if (merged.size() > kMaxComments) merged.resize(kMaxComments);
    into = std::move(merged);
  }
}

std::string LatestTextRecord::Encode() const {
  std::string out;
  out.push_back(static_cast<char>(kLatestTextFormat));
  PutSignedVarint(out, time);
  ForEachFixedField([&](const TextFieldSpec& spec) {
    if (InSnapshot(spec)) PutSnapshotField(out, spec, snapshot);
    else PutTimedTexts(out, events[spec.field]);
  });
  TaggedFields fields;  // each only when set
  for (const TextFieldSpec& spec : kTextFields) {
    if (spec.store_tag == 0) continue;
    std::string bytes;
    if (InSnapshot(spec) && !snapshot[spec.field].empty()) {
      PutSnapshotField(bytes, spec, snapshot);
    } else if (spec.source == TextSource::kEventText && !events[spec.field].empty()) {
      PutTimedTexts(bytes, events[spec.field]);
    } else {
      continue;
    }
    fields.Add(spec.store_tag, bytes);
  }
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
  ForEachFixedField([&](const TextFieldSpec& spec) {
    if (!in.ok()) return;
    if (InSnapshot(spec)) ReadSnapshotField(in, spec, r.snapshot);
    else ReadTimedTexts(in, r.events[spec.field]);
  });
  if (!in.ok() || (format == kFixedOnlyFormat && !in.done())) {
    return Status::StoreError("latest report text is truncated or damaged");
  }
  if (format == kFixedOnlyFormat) return r;
  bool field_ok = true;
  const bool fields_ok = ReadTaggedFields(in, [&](uint64_t tag, std::string_view field_bytes) {
    for (const TextFieldSpec& spec : kTextFields) {
      if (spec.store_tag == 0 || spec.store_tag != tag) continue;  // else a field of a newer ghsift
      ByteReader field_in(field_bytes);
      if (InSnapshot(spec)) ReadSnapshotField(field_in, spec, r.snapshot);
      else if (spec.source == TextSource::kEventText) ReadTimedTexts(field_in, r.events[spec.field]);
      field_ok = field_ok && field_in.ok() && field_in.done();
    }
  });
  if (!fields_ok || !field_ok) return Status::StoreError("latest report text has a damaged field");
  return r;
}

ReportText LatestTextRecord::Text() const {
  ReportText text = snapshot;
  for (const TextFieldSpec& spec : kTextFields) {
    for (const auto& [at, t] : events[spec.field]) text[spec.field].push_back(t);
  }
  return text;
}

}  // namespace ghsift
