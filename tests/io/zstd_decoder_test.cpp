#include "io/zstd_decoder.hpp"

#include <gtest/gtest.h>
#include <zstd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "io/decoder.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;

std::string ZstdFrame(const std::string& text, int level = 3) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  const size_t n = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), level);
  EXPECT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
  out.resize(n);
  return out;
}

std::string NdjsonLines(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) {
    text += "{\"id\":\"" + std::to_string(i) + "\",\"type\":\"WatchEvent\",\"v\":" + std::to_string(i * 31) + "}\n";
  }
  return text;
}

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}

class ZstdDecoderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::path(::testing::TempDir()) / "ghsift-zstd-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = (fs::path(dir_) / name).string();
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    EXPECT_TRUE(out.good());
    return path;
  }

  Result<std::string> DecodeAll(const std::string& path, size_t span = 1 << 16) {
    auto decoder = OpenDecoder(path);
    if (!decoder.ok()) return decoder.status();
    std::string out;
    std::string buffer(span, '\0');
    for (int guard = 0; guard < 10'000'000; ++guard) {
      auto n = (*decoder)->Decode({buffer.data(), buffer.size()});
      if (!n.ok()) return n.status();
      if (*n == 0) return out;
      out.append(buffer.data(), *n);
    }
    ADD_FAILURE() << "decoder never reached the end";
    return out;
  }

  std::string dir_;
};

TEST_F(ZstdDecoderTest, DecodesOneFrame) {
  const std::string text = NdjsonLines(1000);
  const std::string path = Write("one.json.zst", ZstdFrame(text));
  auto decoded = DecodeAll(path);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, text);
}

TEST_F(ZstdDecoderTest, DecodesEveryFrameOfAMultiFrameFile) {
  const std::string a = NdjsonLines(5);
  const std::string b = "{\"middle\":1}\n";
  const std::string c = NdjsonLines(2000);
  const std::string path = Write("multi.json.zst", ZstdFrame(a) + ZstdFrame(b, 1) + ZstdFrame(c, 19));
  auto decoded = DecodeAll(path);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, a + b + c);
}

TEST_F(ZstdDecoderTest, FramesLargerThanTheInputBlock) {
  const std::string a = RandomBytes(3 * ZSTD_DStreamInSize() + 777, 11);
  const std::string b = NdjsonLines(100);
  const std::string path = Write("big.json.zst", ZstdFrame(a, 1) + ZstdFrame(b));
  auto decoded = DecodeAll(path);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  ASSERT_EQ(decoded->size(), a.size() + b.size());
  EXPECT_TRUE(*decoded == a + b);
}

// The decoder may hold decoded bytes it could not hand out yet when the whole input has already
// been consumed; small output spans must still receive all of them.
TEST_F(ZstdDecoderTest, DecodesThroughSmallOutputSpans) {
  const std::string text = NdjsonLines(300);
  const std::string path = Write("tiny.json.zst", ZstdFrame(text) + ZstdFrame(NdjsonLines(3)));
  for (size_t span : {size_t{1}, size_t{7}, size_t{1000}}) {
    auto decoded = DecodeAll(path, span);
    ASSERT_TRUE(decoded.ok()) << "span " << span << ": " << decoded.status().message();
    EXPECT_EQ(*decoded, text + NdjsonLines(3)) << "span " << span;
  }
}

TEST_F(ZstdDecoderTest, EmptyFileIsAnError) {
  const std::string path = Write("zero.json.zst", "");
  auto decoded = DecodeAll(path);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kCorruptInput);
  EXPECT_NE(decoded.status().message().find("empty"), std::string::npos) << decoded.status().message();
}

TEST_F(ZstdDecoderTest, FrameCutInHalfIsCorrupt) {
  const std::string frame = ZstdFrame(NdjsonLines(2000));
  const std::string path = Write("half.json.zst", frame.substr(0, frame.size() / 2));
  auto decoded = DecodeAll(path);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kCorruptInput);
  EXPECT_NE(decoded.status().message().find("truncated"), std::string::npos) << decoded.status().message();
}

TEST_F(ZstdDecoderTest, SecondFrameCutIsCorrupt) {
  const std::string a = NdjsonLines(10);
  const std::string frame = ZstdFrame(NdjsonLines(500));
  for (size_t keep : {size_t{2}, frame.size() / 2, frame.size() - 1}) {
    const std::string path = Write("cut" + std::to_string(keep) + ".json.zst", ZstdFrame(a) + frame.substr(0, keep));
    auto decoded = DecodeAll(path);
    ASSERT_FALSE(decoded.ok()) << "kept " << keep;
    EXPECT_EQ(decoded.status().code(), StatusCode::kCorruptInput) << "kept " << keep;
  }
}

TEST_F(ZstdDecoderTest, NotZstdIsCorrupt) {
  const std::string path = Write("plain.json.zst", "{\"type\":\"PushEvent\"}\n");
  auto decoded = DecodeAll(path);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kCorruptInput);
  EXPECT_NE(decoded.status().message().find("zstd"), std::string::npos) << decoded.status().message();
}

TEST_F(ZstdDecoderTest, CorruptedChecksumIsCorrupt) {
  // A frame with a content checksum: flipping its last byte must fail the check.
  const std::string text = NdjsonLines(300);
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ASSERT_EQ(ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)), 0u);
  std::string frame(ZSTD_compressBound(text.size()), '\0');
  const size_t n = ZSTD_compress2(cctx, frame.data(), frame.size(), text.data(), text.size());
  ZSTD_freeCCtx(cctx);
  ASSERT_FALSE(ZSTD_isError(n));
  frame.resize(n);
  frame.back() ^= 0x01;
  const std::string path = Write("checksum.json.zst", frame);
  auto decoded = DecodeAll(path);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kCorruptInput);
}

}  // namespace
}  // namespace ghsift
