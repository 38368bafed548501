#pragma once
// Helpers shared by the generator tests: scratch directories, reading back (and decompressing)
// what the generator wrote, and pulling counts out of truth.json with simdjson.
#include <gtest/gtest.h>
#include <unistd.h>
#include <simdjson.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gen/generator.hpp"

namespace ghsift::gen::testing {

namespace fs = std::filesystem;

//! An empty path under the test temp dir, named `<prefix><name>_<pid>`: ctest runs every test
//! in its own process, in parallel, so each process needs its own directory.
inline fs::path FreshTestDir(const std::string& prefix, const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / (prefix + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

inline std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

//! Handles multi-member gzip, as a reader of the real archive must.
inline std::string Gunzip(const std::string& data) {
  std::string out;
  z_stream zs{};
  EXPECT_EQ(inflateInit2(&zs, 16 + MAX_WBITS), Z_OK);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  char buf[1 << 16];
  for (;;) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof(buf);
    const int rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof(buf) - zs.avail_out);
    if (rc == Z_STREAM_END) {
      if (zs.avail_in == 0) break;
      inflateReset(&zs);
    } else if (rc != Z_OK) {
      ADD_FAILURE() << "corrupt gzip, zlib rc " << rc;
      break;
    }
  }
  inflateEnd(&zs);
  return out;
}

inline std::string Unzstd(const std::string& data) {
  std::string out;
  ZSTD_DStream* ds = ZSTD_createDStream();
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  char buf[1 << 16];
  while (in.pos < in.size) {
    ZSTD_outBuffer o{buf, sizeof(buf), 0};
    const size_t rc = ZSTD_decompressStream(ds, &o, &in);
    if (ZSTD_isError(rc)) {
      ADD_FAILURE() << "corrupt zstd: " << ZSTD_getErrorName(rc);
      break;
    }
    out.append(buf, o.pos);
  }
  ZSTD_freeDStream(ds);
  return out;
}

//! The text of a generated file, decompressed by its name (.gz, .zst, or plain).
inline std::string Decompressed(const fs::path& path) {
  const std::string raw = ReadFile(path);
  const std::string name = path.filename().string();
  if (name.ends_with(".gz")) return Gunzip(raw);
  if (name.ends_with(".zst")) return Unzstd(raw);
  return raw;
}

//! The lines of `text` without their '\n'; a last line without one still counts.
inline std::vector<std::string_view> Lines(const std::string& text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.emplace_back(text.data() + start, end - start);
    start = end + 1;
  }
  return lines;
}

//! Non-overlapping occurrences of `needle` in `hay`.
inline size_t Count(std::string_view hay, std::string_view needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string_view::npos; at = hay.find(needle, at + needle.size())) ++n;
  return n;
}

inline std::vector<std::string> SortedFileNames(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

inline void GenerateOk(const GenOptions& o, GenSummary* summary = nullptr) {
  const Status s = Generate(o, summary);
  ASSERT_TRUE(s.ok()) << s.message();
}

// ---- reading JSON ----------------------------------------------------------------------------

//! The keys of an object, in the order written.
inline std::vector<std::string> Keys(simdjson::dom::object obj) {
  std::vector<std::string> keys;
  for (auto field : obj) keys.emplace_back(field.key);
  return keys;
}

//! Copies the object out of the simdjson_result: `.value()` on a temporary result would
//! leave a range-for iterating a dangling reference.
inline simdjson::dom::object Obj(simdjson::dom::element e) {
  simdjson::dom::object obj;
  EXPECT_EQ(e.get_object().get(obj), simdjson::SUCCESS);
  return obj;
}

//! The string, or "" when `e` is not one.
inline std::string_view Str(simdjson::dom::element e) {
  std::string_view s;
  return e.get_string().get(s) == simdjson::SUCCESS ? s : std::string_view();
}

inline uint64_t Uint(simdjson::dom::element e) {
  uint64_t v = 0;
  EXPECT_EQ(e.get_uint64().get(v), simdjson::SUCCESS);
  return v;
}

using Counts = std::map<std::string, uint64_t>;
using Nested = std::map<std::string, Counts>;

//! {key: count} of a one-level object in truth.json.
inline Counts ToCounts(simdjson::dom::element e) {
  Counts out;
  for (auto field : Obj(e)) out[std::string(field.key)] = Uint(field.value);
  return out;
}

//! {outer: {inner: count}} of a two-level object in truth.json.
inline Nested ToNested(simdjson::dom::element e) {
  Nested out;
  for (auto field : Obj(e)) out[std::string(field.key)] = ToCounts(field.value);
  return out;
}

}  // namespace ghsift::gen::testing
