#pragma once
#include <isa-l/igzip_lib.h>

#include <vector>

#include <memory>

#include "io/decoder.hpp"

namespace ghsift {

//! Inflates gzip with ISA-L, member after member; every member's CRC32 and length are checked.
class GzipDecoder final : public Decoder {
 public:
  explicit GzipDecoder(std::unique_ptr<ByteSource> source);
  Result<size_t> Decode(std::span<char> out) override;
  //! Input left over from the last read does not count: it rarely lasts a whole chunk.
  bool Ready() const override { return source_done_ || source_->Ready(); }
  uint64_t compressed_bytes_read() const override { return source_->bytes_read(); }
  uint64_t compressed_size() const override { return source_->size(); }
  uint64_t content_hash() const override { return source_->content_hash(); }

 private:
  Status Refill();
  void StartMember();

  std::unique_ptr<ByteSource> source_;
  //! Not zero-filled: a file's first read overwrites what it uses (1 MiB of memset per file).
  std::unique_ptr<uint8_t[]> input_;
  std::unique_ptr<inflate_state> state_;
  bool source_done_ = false;
  bool in_member_ = false;       //!< a member's header has been started and not finished
  uint64_t members_ = 0;
};

}  // namespace ghsift
