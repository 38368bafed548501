#pragma once
// Helpers shared by the io unit tests: a fixture that owns a scratch directory, gzip input
// built in memory, and decoding a whole file through a chosen output span.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "io/decoder.hpp"

namespace ghsift::testing {

//! A test fixture with a fresh directory per test (ctest runs tests in parallel), removed after.
class ScratchDirTest : public ::testing::Test {
 protected:
  //! `prefix` names the directory ("ghsift-gzip"), so a leftover one says which test made it.
  explicit ScratchDirTest(std::string prefix) : prefix_(std::move(prefix)) {}

  void SetUp() override {
    std::string pattern = (std::filesystem::path(::testing::TempDir()) / (prefix_ + "-XXXXXX")).string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  //! Writes `bytes` to `name` in the directory and returns its path.
  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = (std::filesystem::path(dir_) / name).string();
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    EXPECT_TRUE(out.good());
    return path;
  }

  std::string dir_;

 private:
  std::string prefix_;
};

//! One complete gzip member (header, deflate data, CRC32 and length trailer).
inline std::string GzipMember(const std::string& text, int level = Z_DEFAULT_COMPRESSION) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, text.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

//! `n` bytes that do not compress, the same for the same seed.
inline std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}

//! Bytes in memory lent by ReadView in pieces of the given sizes, in turn (like received HTTP
//! blocks, which decoders inflate where they lie): each piece is copied into its own buffer,
//! overwritten at the next call, so a decoder that kept a lent view too long reads garbage.
class LendingSource final : public ByteSource {
 public:
  LendingSource(std::string bytes, std::vector<size_t> pieces) : bytes_(std::move(bytes)), pieces_(std::move(pieces)) {}
  Result<size_t> Read(std::span<char> out) override {
    const size_t n = std::min(out.size(), bytes_.size() - at_);
    std::memcpy(out.data(), bytes_.data() + at_, n);
    at_ += n;
    return n;
  }
  Result<std::span<const char>> ReadView(std::span<char> /*scratch*/) override {
    std::fill(lent_.begin(), lent_.end(), '\xee');
    const size_t n = std::min(pieces_[next_++ % pieces_.size()], bytes_.size() - at_);
    lent_.assign(bytes_.data() + at_, n);
    at_ += n;
    ++views_;
    return std::span<const char>(lent_.data(), n);
  }
  uint64_t size() const override { return bytes_.size(); }
  uint64_t bytes_read() const override { return at_; }
  uint64_t content_hash() const override { return ExtendContentHash(0, bytes_); }
  size_t views() const { return views_; }

 private:
  std::string bytes_;
  std::vector<size_t> pieces_;
  size_t next_ = 0, at_ = 0, views_ = 0;
  std::string lent_;
};

//! Bytes that end early, like an HTTP body without a Content-Length whose connection was cut:
//! each piece ends as the input would, and a decoder that finds its stream unfinished there and
//! asks to read on gets the next piece (until none is left, or with `refuse`, never).
class EndingEarlySource final : public ByteSource {
 public:
  EndingEarlySource(std::string bytes, std::vector<size_t> cuts, bool refuse = false)
      : bytes_(std::move(bytes)), cuts_(std::move(cuts)), refuse_(refuse) {
    cuts_.push_back(bytes_.size());
  }
  Result<size_t> Read(std::span<char> out) override {
    const size_t n = std::min(out.size(), cuts_[piece_] - at_);
    std::memcpy(out.data(), bytes_.data() + at_, n);
    at_ += n;
    return n;
  }
  Result<bool> ReadOnAfterEarlyEnd() override {
    ++asked_;
    if (refuse_ || piece_ + 1 == cuts_.size()) return false;
    ++piece_;
    return true;
  }
  uint64_t size() const override { return 0; }
  uint64_t bytes_read() const override { return at_; }
  uint64_t content_hash() const override { return ExtendContentHash(0, bytes_.substr(0, at_)); }
  //! Times a decoder asked to read on.
  int asked() const { return asked_; }

 private:
  std::string bytes_;
  std::vector<size_t> cuts_;  //!< where each piece ends, the last at the end
  bool refuse_;
  size_t piece_ = 0, at_ = 0;
  int asked_ = 0;
};

//! Decodes everything `decoder` gives, through output spans of `span` bytes.
inline Result<std::string> DecodeAll(Decoder& decoder, size_t span = 1 << 16) {
  std::string out;
  std::string buffer(span, '\0');
  for (int guard = 0; guard < 10'000'000; ++guard) {
    auto n = decoder.Decode({buffer.data(), buffer.size()});
    if (!n.ok()) return n.status();
    if (*n == 0) return out;
    out.append(buffer.data(), *n);
  }
  ADD_FAILURE() << "decoder never reached the end";
  return out;
}

//! Decodes the whole file through output spans of `span` bytes.
inline Result<std::string> DecodeAll(const std::string& path, size_t span = 1 << 16) {
  auto decoder = OpenDecoder(path);
  if (!decoder.ok()) return decoder.status();
  return DecodeAll(**decoder, span);
}

}  // namespace ghsift::testing
