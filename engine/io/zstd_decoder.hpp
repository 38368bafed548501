#pragma once
#include <zstd.h>

#include <vector>

#include <memory>

#include "io/decoder.hpp"

namespace ghsift {

//! Decompresses one or more zstd frames with the streaming API.
class ZstdDecoder final : public Decoder {
 public:
  explicit ZstdDecoder(std::unique_ptr<ByteSource> source);
  ~ZstdDecoder() override;
  Result<size_t> Decode(std::span<char> out) override;
  //! Input left over from the last read does not count: it rarely lasts a whole chunk.
  bool Ready() const override { return source_done_ || source_->Ready(); }
  uint64_t compressed_bytes_read() const override { return source_->bytes_read(); }
  uint64_t compressed_size() const override { return source_->size(); }
  uint64_t content_hash() const override { return source_->content_hash(); }

 private:
  std::unique_ptr<ByteSource> source_;
  std::vector<char> input_;
  ZSTD_inBuffer in_{nullptr, 0, 0};
  ZSTD_DStream* stream_ = nullptr;
  bool source_done_ = false;
  size_t last_hint_ = 0;  //!< 0 after a frame ended cleanly
  bool any_input_ = false;
};

}  // namespace ghsift
