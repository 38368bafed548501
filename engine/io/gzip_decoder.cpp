#include "io/gzip_decoder.hpp"

#include <string>

namespace ghsift {
namespace {

constexpr size_t kInputBlock = 1 << 20;

std::string InflateError(int code) {
  switch (code) {
    case ISAL_INVALID_BLOCK: return "invalid deflate block";
    case ISAL_INVALID_SYMBOL: return "invalid deflate symbol";
    case ISAL_INVALID_LOOKBACK: return "invalid deflate distance";
    case ISAL_INVALID_WRAPPER: return "not a gzip stream (bad header)";
    case ISAL_UNSUPPORTED_METHOD: return "unsupported gzip compression method";
    case ISAL_INCORRECT_CHECKSUM: return "gzip trailer mismatch (CRC-32 or length of a member; corrupt data)";
    default: return "inflate error " + std::to_string(code);
  }
}

}  // namespace

GzipDecoder::GzipDecoder(std::unique_ptr<ByteSource> source)
    : source_(std::move(source)), input_(std::make_unique_for_overwrite<uint8_t[]>(kInputBlock)), state_(std::make_unique<inflate_state>()) {
  isal_inflate_init(state_.get());
  state_->avail_in = 0;
}

void GzipDecoder::StartMember() {
  // Keep the unread input of the previous member: the next member may start inside it.
  uint8_t* next_in = state_->next_in;
  const uint32_t avail_in = state_->avail_in;
  isal_inflate_reset(state_.get());
  state_->next_in = next_in;
  state_->avail_in = avail_in;
  state_->crc_flag = ISAL_GZIP;
  in_member_ = true;
}

Status GzipDecoder::Refill() {
  // A received HTTP block is inflated where it lies; a file is read into input_.
  const std::span<char> scratch(reinterpret_cast<char*>(input_.get()), kInputBlock);
  GHSIFT_ASSIGN_OR_RETURN(const std::span<const char> in, source_->ReadView(scratch));
  if (in.empty()) source_done_ = true;
  // ISA-L only reads through next_in; its type is not const.
  state_->next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(in.data()));
  state_->avail_in = static_cast<uint32_t>(in.size());
  return Status::Ok();
}

Result<size_t> GzipDecoder::Decode(std::span<char> out) {
  size_t produced = 0;
  while (produced < out.size()) {
    if (state_->avail_in == 0 && !source_done_) GHSIFT_TRY(Refill());
    if (!in_member_) {
      if (state_->avail_in == 0) {
        if (members_ == 0) return Status::Corrupt("empty file (no gzip member)");
        break;  // clean end after the last member
      }
      // Bytes after a complete member must start another member; trailing zero padding
      // (written by some tools) is tolerated.
      bool all_zero = true;
      for (uint32_t i = 0; i < state_->avail_in && all_zero; ++i) all_zero = state_->next_in[i] == 0;
      if (all_zero && members_ > 0) {
        state_->avail_in = 0;
        continue;
      }
      StartMember();
    }
    state_->next_out = reinterpret_cast<uint8_t*>(out.data() + produced);
    state_->avail_out = static_cast<uint32_t>(out.size() - produced);
    const uint32_t before = state_->avail_out;
    const int rc = isal_inflate(state_.get());
    produced += before - state_->avail_out;
    if (rc < 0) return Status::Corrupt(InflateError(rc));
    if (state_->block_state == ISAL_BLOCK_FINISH) {
      in_member_ = false;
      ++members_;
      continue;
    }
    if (state_->avail_in == 0 && source_done_ && before == state_->avail_out) {
      // The input ended inside a member: the source may have more (an HTTP body whose end was a
      // cut connection); inflate goes on from where it stopped.
      GHSIFT_ASSIGN_OR_RETURN(const bool more, source_->ReadOnAfterEarlyEnd());
      if (!more) return Status::Corrupt("truncated gzip stream (unexpected end of file)");
      source_done_ = false;
    }
  }
  return produced;
}

}  // namespace ghsift
