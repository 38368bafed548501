#pragma once
// What the store remembers of an ingested file; its presence makes the file count once.
#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.hpp"

namespace ghsift {

struct FileEntry {
  uint64_t size = 0;           //!< bytes on disk when ingested
  uint64_t decoded_bytes = 0;  //!< uncompressed bytes
  uint64_t events = 0;
  uint64_t bad_lines = 0;
  int64_t ingested_at = 0;     //!< Unix seconds
  uint64_t content_hash = 0;   //!< CRC-64 of the file's bytes
  //! Modification time (ns since the epoch) of a local file when ingested; 0 for downloaded
  //! hours and entries written before it was recorded. With the size it lets a re-run skip the
  //! file without reading it.
  int64_t mtime_ns = 0;
  //! Report events that named no usable report number (counted as events, no report made).
  uint64_t report_events_without_number = 0;

  //! A copy another copy of the same name may replace (`ingest --replace`): one with bad lines
  //! (the store keeps what it added), or an empty one, which added nothing but the file.
  bool Replaceable() const { return bad_lines > 0 || events == 0; }
  //! Why `ingest --replace` refuses a copy that is not Replaceable, after its name.
  static constexpr std::string_view kNotReplaceable =
      "was ingested without bad lines: --replace replaces only a copy that had some (or none at all)";
  //! Whether a copy of these bytes under another name is refused as the same content: one that
  //! holds events, which the copy would count twice. Empty hours share their bytes (an empty gzip
  //! member is 20 bytes), and each is recorded under its own name.
  bool RefusesCopies() const { return content_hash != 0 && events > 0; }

  std::string Encode() const;
  static Result<FileEntry> Decode(std::string_view bytes);
};

}  // namespace ghsift
