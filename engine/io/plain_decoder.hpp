#pragma once
#include <memory>

#include "io/decoder.hpp"

namespace ghsift {

//! Passes an uncompressed file through.
class PlainDecoder final : public Decoder {
 public:
  explicit PlainDecoder(std::unique_ptr<ByteSource> source) : source_(std::move(source)) {}
  Result<size_t> Decode(std::span<char> out) override { return source_->Read(out); }
  bool Ready() const override { return source_->Ready(); }
  uint64_t compressed_bytes_read() const override { return source_->bytes_read(); }
  uint64_t compressed_size() const override { return source_->size(); }
  uint64_t content_hash() const override { return source_->content_hash(); }

 private:
  std::unique_ptr<ByteSource> source_;
};

}  // namespace ghsift
