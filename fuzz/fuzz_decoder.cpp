// The decoders and the line splitter on arbitrary files: the first input byte picks the file
// kind (.json.gz, .json.zst or .json), the rest is the file. LineSplitter::Next runs until the
// end or an error; every chunk must be whole lines, padded.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "io/decoder.hpp"
#include "io/line_splitter.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return -1;
  static const char* const kSuffixes[] = {".json.gz", ".json.zst", ".json"};
  static const std::string dir = [] {
    char tmpl[] = "/tmp/ghsift-fuzz-decoder-XXXXXX";
    return std::string(::mkdtemp(tmpl));
  }();
  const std::string path = dir + "/input" + kSuffixes[data[0] % 3];
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return 0;
  std::fwrite(data + 1, 1, size - 1, f);
  std::fclose(f);

  auto decoder = ghsift::OpenDecoder(path);
  if (decoder.ok()) {
    ghsift::LineSplitterOptions options;
    options.chunk_bytes = 1 << 12;      // small, so chunk boundaries and line growth get exercised
    options.max_line_bytes = 1 << 14;   // and the overlong-line path too
    ghsift::LineSplitter splitter(std::move(decoder).value(), options);
    ghsift::Chunk chunk;
    uint64_t decoded = 0;
    for (int i = 0; i < 1 << 16; ++i) {
      auto more = splitter.Next(chunk);
      if (!more.ok() || !*more) break;
      if (chunk.buffer.size() < chunk.size + ghsift::kChunkPadding) __builtin_trap();
      if (chunk.size > 0 && !chunk.last && chunk.data()[chunk.size - 1] != '\n') __builtin_trap();
      for (size_t k = 0; k < ghsift::kChunkPadding; ++k) {
        if (chunk.data()[chunk.size + k] != '\0') __builtin_trap();
      }
      decoded += chunk.size;
      if (decoded > splitter.decoded_bytes()) __builtin_trap();
      if (decoded > (uint64_t{1} << 30)) break;  // a decompression bomb: enough
    }
  }
  std::remove(path.c_str());
  return 0;
}
