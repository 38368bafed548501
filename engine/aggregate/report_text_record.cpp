#include "aggregate/report_text_record.hpp"

#include "aggregate/tagged_fields.hpp"
#include "common/byte_codec.hpp"

namespace ghsift {
namespace {

//! A field the record holds (code stays in the fences of the texts it came from).
constexpr bool Stored(const TextFieldSpec& spec) { return spec.source != TextSource::kFences; }

void PutTexts(std::string& out, const std::vector<std::string>& texts) {
  PutVarint(out, texts.size());
  for (const auto& t : texts) PutLengthPrefixed(out, t);
}

void ReadTexts(ByteReader& in, std::vector<std::string>& texts) {
  const uint64_t n = in.Varint();
  for (uint64_t i = 0; i < n && in.ok(); ++i) texts.emplace_back(in.LengthPrefixed());
}

}  // namespace

std::string EncodeReportTextRecord(const ReportText& text) {
  std::string out;
  // Fixed places: each one-text field (title, body, comment), then the labels.
  for (const TextFieldSpec& spec : kTextFields) {
    if (Stored(spec) && spec.store_tag == 0 && spec.source != TextSource::kLabels) {
      PutLengthPrefixed(out, text.First(spec.field));
    }
  }
  for (const TextFieldSpec& spec : kTextFields) {
    if (spec.store_tag == 0 && spec.source == TextSource::kLabels) PutTexts(out, text[spec.field]);
  }
  TaggedFields fields;
  for (const TextFieldSpec& spec : kTextFields) {
    if (!Stored(spec) || spec.store_tag == 0 || text[spec.field].empty()) continue;
    std::string bytes;
    PutTexts(bytes, text[spec.field]);
    fields.Add(spec.store_tag, bytes);
  }
  if (!fields.empty()) fields.AppendTo(out);
  return out;
}

Result<ReportText> DecodeReportTextRecord(std::string_view bytes) {
  ByteReader in(bytes);
  ReportText text;
  for (const TextFieldSpec& spec : kTextFields) {
    if (Stored(spec) && spec.store_tag == 0 && spec.source != TextSource::kLabels) {
      text.Add(spec.field, in.LengthPrefixed());
    }
  }
  for (const TextFieldSpec& spec : kTextFields) {
    if (spec.store_tag == 0 && spec.source == TextSource::kLabels) ReadTexts(in, text[spec.field]);
  }
  if (!in.ok()) return Status::StoreError("damaged report text record");
  if (in.done()) return text;  // no field added since the first format
  const bool fields_ok = ReadTaggedFields(in, [&](uint64_t tag, std::string_view field_bytes) {
    for (const TextFieldSpec& spec : kTextFields) {
      if (!Stored(spec) || spec.store_tag == 0 || spec.store_tag != tag) continue;
      ByteReader field_in(field_bytes);
      ReadTexts(field_in, text[spec.field]);
    }
  });
  if (!fields_ok) return Status::StoreError("damaged report text record (a field added since its first format)");
  return text;
}

}  // namespace ghsift
