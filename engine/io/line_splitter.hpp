#pragma once
// The third stage: cuts the decoded stream of one file into chunks of whole lines.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/result.hpp"
#include "common/uninitialized_allocator.hpp"
#include "io/decoder.hpp"

namespace ghsift {

//! Bytes every chunk keeps readable past its last line, as simdjson requires.
inline constexpr size_t kChunkPadding = 64;

//! A run of whole lines of one file, with padding after them.
struct Chunk {
  //! Storage; size() >= size + kChunkPadding. Not zeroed as it grows: only [0, size) and the
  //! padding after it are read, and the splitter zeroes the padding.
  std::vector<char, UninitializedAllocator<char>> buffer;
  size_t size = 0;            //!< bytes of whole lines at the start of buffer
  uint32_t file_index = 0;    //!< which input file (pipeline bookkeeping)
  uint64_t sequence = 0;      //!< 0, 1, 2, ... within the file
  bool last = false;          //!< no chunk follows in this file
  //! Lines longer than the cap that were dropped right before this chunk's first line.
  uint32_t overlong_lines_before = 0;
  const char* data() const { return buffer.data(); }
};

struct LineSplitterOptions {
  size_t chunk_bytes = 4 << 20;       //!< target decoded bytes per chunk
  size_t max_line_bytes = 64 << 20;   //!< longer lines are dropped and counted as bad lines
};

class LineSplitter {
 public:
  LineSplitter(std::unique_ptr<Decoder> decoder, LineSplitterOptions options);

  //! Fills `chunk` with the next whole lines (the file's last line may lack its '\n').
  //! Returns false when the file is exhausted (chunk then holds nothing).
  Result<bool> Next(Chunk& chunk);

  const Decoder& decoder() const { return *decoder_; }
  uint64_t decoded_bytes() const { return decoded_bytes_; }

 private:
  Status Fill(Chunk& chunk, size_t want);
  Status SkipRestOfLine();

  std::unique_ptr<Decoder> decoder_;
  LineSplitterOptions options_;
  std::vector<char> carry_;        //!< the partial last line of the previous chunk
  bool decoder_done_ = false;
  uint64_t decoded_bytes_ = 0;
  uint64_t next_sequence_ = 0;
};

}  // namespace ghsift
