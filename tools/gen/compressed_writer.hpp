#pragma once
// Streams bytes into a file as gzip (zlib deflate, windowBits 31), zstd (one frame via
// ZSTD_compressStream2) or plain text. Single-threaded compressors only, so the bytes on
// disk are a pure function of the input and the level.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "common/status.hpp"

typedef struct z_stream_s z_stream;
typedef struct ZSTD_CCtx_s ZSTD_CCtx;

namespace ghsift::gen {

enum class Compression { kNone, kGzip, kZstd };

//! "gz" | "zst" | "none".
Result<Compression> ParseCompression(const std::string& name);
//! ".json.gz", ".json.zst" or ".json".
const char* FileExtension(Compression compression);
//! Checks `level` against what the codec accepts (gzip 0-9, zstd 1-22).
Status CheckLevel(Compression compression, int level);

class CompressedWriter {
 public:
  CompressedWriter() = default;
  ~CompressedWriter();  //!< abandons an unfinished file (already reported by Write/Close)
  CompressedWriter(const CompressedWriter&) = delete;
  CompressedWriter& operator=(const CompressedWriter&) = delete;

  Status Open(const std::string& path, Compression compression, int level);
  Status Write(std::string_view data);
  //! Finishes the stream and closes the file; the file is complete only if this is Ok.
  Status Close();

  uint64_t bytes_written() const { return bytes_written_; }

 private:
  Status WriteOut(const char* data, size_t size);
  void Release();

  std::string path_;
  Compression compression_ = Compression::kNone;
  std::FILE* file_ = nullptr;
  z_stream* zlib_ = nullptr;
  ZSTD_CCtx* zstd_ = nullptr;
  std::vector<char> buffer_;
  uint64_t bytes_written_ = 0;
};

}  // namespace ghsift::gen
