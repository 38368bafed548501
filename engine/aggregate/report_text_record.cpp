#include "aggregate/report_text_record.hpp"

#include "common/byte_codec.hpp"

namespace ghsift {

std::string ReportTextRecord::Encode() const {
  std::string out;
  PutLengthPrefixed(out, title);
  PutLengthPrefixed(out, body);
  PutLengthPrefixed(out, comment);
  PutVarint(out, labels.size());
  for (const auto& l : labels) PutLengthPrefixed(out, l);
  return out;
}

Result<ReportTextRecord> ReportTextRecord::Decode(std::string_view bytes) {
  ByteReader in(bytes);
  ReportTextRecord r;
  r.title = std::string(in.LengthPrefixed());
  r.body = std::string(in.LengthPrefixed());
  r.comment = std::string(in.LengthPrefixed());
  const uint64_t n = in.Varint();
  for (uint64_t i = 0; i < n && in.ok(); ++i) r.labels.emplace_back(in.LengthPrefixed());
  if (!in.ok()) return Status::StoreError("damaged report text record");
  return r;
}

}  // namespace ghsift
