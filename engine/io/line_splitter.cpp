#include "io/line_splitter.hpp"

#include <cstring>

namespace ghsift {

LineSplitter::LineSplitter(std::unique_ptr<Decoder> decoder, LineSplitterOptions options)
    : decoder_(std::move(decoder)), options_(options) {}

Status LineSplitter::Fill(Chunk& chunk, size_t want) {
  if (chunk.buffer.size() < want + kChunkPadding) chunk.buffer.resize(want + kChunkPadding);
  while (chunk.size < want && !decoder_done_) {
    auto n = decoder_->Decode({chunk.buffer.data() + chunk.size, want - chunk.size});
    if (!n.ok()) return n.status();
    if (*n == 0) decoder_done_ = true;
    chunk.size += *n;
    decoded_bytes_ += *n;
  }
  return Status::Ok();
}

// Drops bytes up to and including the next '\n'; what follows goes to carry_.
Status LineSplitter::SkipRestOfLine() {
  std::vector<char> block(1 << 20);
  while (!decoder_done_) {
    auto n = decoder_->Decode(block);
    if (!n.ok()) return n.status();
    if (*n == 0) {
      decoder_done_ = true;
      break;
    }
    decoded_bytes_ += *n;
    const char* newline = static_cast<const char*>(std::memchr(block.data(), '\n', *n));
    if (newline != nullptr) {
      const size_t after = static_cast<size_t>(newline - block.data()) + 1;
      carry_.assign(block.data() + after, block.data() + *n);
      return Status::Ok();
    }
  }
  carry_.clear();
  return Status::Ok();
}

Result<bool> LineSplitter::Next(Chunk& chunk) {
  chunk.size = 0;
  chunk.overlong_lines_before = 0;
  chunk.last = false;
  while (true) {
    if (chunk.buffer.size() < carry_.size() + kChunkPadding) chunk.buffer.resize(carry_.size() + kChunkPadding);
    // memcpy from an empty vector's null data() is undefined even for 0 bytes (found by fuzz_decoder).
    if (!carry_.empty()) std::memcpy(chunk.buffer.data(), carry_.data(), carry_.size());
    chunk.size = carry_.size();
    carry_.clear();
    size_t want = std::max(options_.chunk_bytes, chunk.size + 1);
    GHSIFT_TRY(Fill(chunk, want));
    // Find the last newline; grow the chunk while one line is longer than it, up to the cap.
    const char* end = nullptr;
    // A line of exactly max_line_bytes is kept: the cap counts its bytes, not its '\n'.
    const size_t cap_with_newline = options_.max_line_bytes + 1;
    while (true) {
      end = static_cast<const char*>(memrchr(chunk.buffer.data(), '\n', chunk.size));
      if (end != nullptr || decoder_done_ || chunk.size >= cap_with_newline) break;
      want = std::min(cap_with_newline, chunk.size * 2);
      GHSIFT_TRY(Fill(chunk, want));
    }
    if (end == nullptr && !decoder_done_) {
      // One line exceeds the cap: drop it whole and start again after it.
      ++chunk.overlong_lines_before;
      GHSIFT_TRY(SkipRestOfLine());
      chunk.size = 0;
      continue;
    }
    if (end != nullptr) {
      const size_t keep = static_cast<size_t>(end - chunk.buffer.data()) + 1;
      carry_.assign(chunk.buffer.data() + keep, chunk.buffer.data() + chunk.size);
      chunk.size = keep;
    }
    if (decoder_done_ && carry_.empty()) chunk.last = true;
    if (chunk.size == 0 && chunk.last && chunk.overlong_lines_before == 0) return false;
    std::memset(chunk.buffer.data() + chunk.size, 0, kChunkPadding);
    chunk.sequence = next_sequence_++;
    return true;
  }
}

}  // namespace ghsift
