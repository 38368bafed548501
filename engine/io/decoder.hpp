#pragma once
// The second stage: turns a compressed byte stream into the plain NDJSON bytes.
#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "common/result.hpp"
#include "io/byte_source.hpp"

namespace ghsift {

enum class Compression {
  kNone,  //!< plain .json
  kGzip,  //!< .json.gz, one or more gzip members (inflated with ISA-L)
  kZstd,  //!< .json.zst, one or more zstd frames
};

//! Chooses the decoder from the file name's ending.
Compression CompressionFromName(const std::string& path);

//! Chooses the decoder from an input's first bytes: gzip and zstd by their magic numbers, plain
//! NDJSON when it starts with '{' or whitespace; otherwise (empty, damaged header) the name's
//! ending decides, so a damaged .gz still reports the gzip error.
Compression CompressionFromContent(std::span<const char> head, const std::string& name);

class Decoder {
 public:
  virtual ~Decoder() = default;
  //! Fills `out` with up to out.size() decoded bytes. Returns 0 only at the clean end of the
  //! stream; a truncated or damaged stream returns a kCorruptInput status instead.
  virtual Result<size_t> Decode(std::span<char> out) = 0;
  //! False while decoding would first wait for input that has not arrived (see ByteSource::Ready).
  virtual bool Ready() const = 0;
  //! Compressed bytes consumed so far (for progress).
  virtual uint64_t compressed_bytes_read() const = 0;
  virtual uint64_t compressed_size() const = 0;
  //! CRC-64 of the compressed bytes read so far (the file's identity once all is read).
  virtual uint64_t content_hash() const = 0;
};

//! Opens the file at `path` with the decoder its content asks for.
Result<std::unique_ptr<Decoder>> OpenDecoder(const std::string& path);
//! Wraps any byte source (`name` is its file name or URL) with the decoder its content asks for.
//! Reads the source's first bytes, which the decoder then sees again.
Result<std::unique_ptr<Decoder>> OpenDecoder(std::unique_ptr<ByteSource> source, const std::string& name);

}  // namespace ghsift
