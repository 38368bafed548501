#include "io/zstd_decoder.hpp"

#include <string>

namespace ghsift {

ZstdDecoder::ZstdDecoder(std::unique_ptr<ByteSource> source)
    : source_(std::move(source)), input_(ZSTD_DStreamInSize()), stream_(ZSTD_createDStream()) {
  ZSTD_initDStream(stream_);
}

ZstdDecoder::~ZstdDecoder() { ZSTD_freeDStream(stream_); }

Result<size_t> ZstdDecoder::Decode(std::span<char> out) {
  ZSTD_outBuffer output{out.data(), out.size(), 0};
  while (output.pos < output.size) {
    if (in_.pos == in_.size) {
      if (source_done_) break;
      GHSIFT_ASSIGN_OR_RETURN(const std::span<const char> in, source_->ReadView(input_));
      if (in.empty()) {
        // The input ended inside a frame (zstd holds back a frame's last byte until its output is
        // flushed, so no input left means the frame is unfinished): the source may have more (an
        // HTTP body whose end was a cut connection).
        if (any_input_ && last_hint_ != 0) {
          GHSIFT_ASSIGN_OR_RETURN(const bool more, source_->ReadOnAfterEarlyEnd());
          if (more) continue;
        }
        source_done_ = true;
        break;
      }
      any_input_ = true;
      in_ = {in.data(), in.size(), 0};
    }
    const size_t hint = ZSTD_decompressStream(stream_, &output, &in_);
    if (ZSTD_isError(hint)) return Status::Corrupt(std::string("zstd: ") + ZSTD_getErrorName(hint));
    last_hint_ = hint;
  }
  if (output.pos == 0 && source_done_) {
    if (!any_input_) return Status::Corrupt("empty file (no zstd frame)");
    if (last_hint_ != 0) return Status::Corrupt("truncated zstd frame (unexpected end of file)");
  }
  return output.pos;
}

}  // namespace ghsift
