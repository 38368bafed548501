#include "store/file_entry.hpp"

#include "common/byte_codec.hpp"

namespace ghsift {

std::string FileEntry::Encode() const {
  std::string out;
  PutVarint(out, size);
  PutVarint(out, decoded_bytes);
  PutVarint(out, events);
  PutVarint(out, bad_lines);
  PutSignedVarint(out, ingested_at);
  PutVarint(out, content_hash);
  PutSignedVarint(out, mtime_ns);
  PutVarint(out, report_events_without_number);
  return out;
}

Result<FileEntry> FileEntry::Decode(std::string_view bytes) {
  ByteReader in(bytes);
  FileEntry e;
  e.size = in.Varint();
  e.decoded_bytes = in.Varint();
  e.events = in.Varint();
  e.bad_lines = in.Varint();
  e.ingested_at = in.SignedVarint();
  e.content_hash = in.Varint();
  if (!in.done()) e.mtime_ns = in.SignedVarint();  // absent in entries of older stores
  if (!in.done()) e.report_events_without_number = in.Varint();  // likewise
  if (!in.ok()) return Status::StoreError("damaged file entry");
  return e;
}

}  // namespace ghsift
