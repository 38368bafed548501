#include "io/zstd_decoder.hpp"

#include <gtest/gtest.h>
#include <zstd.h>

#include <string>
#include <vector>

#include "io/decoder.hpp"
#include "io/io_test_support.hpp"

namespace ghsift {
namespace {

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

using testing::DecodeAll;
using testing::RandomBytes;

class ZstdDecoderTest : public testing::ScratchDirTest {
 protected:
  ZstdDecoderTest() : ScratchDirTest("ghsift-zstd") {}
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

TEST_F(ZstdDecoderTest, LentViewsOfAnySizeDecodeInPlace) {
  const std::string a = NdjsonLines(2000);
  const std::string zst = ZstdFrame(a) + ZstdFrame(NdjsonLines(7), 19);
  auto source = std::make_unique<testing::LendingSource>(zst, std::vector<size_t>{1, 5, 300, 20'000});
  auto decoder = OpenDecoder(std::move(source), "lent.json.zst");
  ASSERT_TRUE(decoder.ok());
  auto decoded = testing::DecodeAll(**decoder, 1000);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, a + NdjsonLines(7));
  EXPECT_EQ((*decoder)->compressed_bytes_read(), zst.size());
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

// An input that ends inside a frame (an HTTP body without length, its connection cut) is read on
// when its source has more; a source that has none leaves the truncation as it was.
TEST_F(ZstdDecoderTest, AnEarlyEndReadsOnWhenTheSourceHasMore) {
  const std::string a = NdjsonLines(2000);
  const std::string b = NdjsonLines(300);
  const std::string first = ZstdFrame(a);
  const std::string zst = first + ZstdFrame(b);
  const std::vector<size_t> cuts = {6, first.size() / 2, first.size() - 1, first.size() + 3, zst.size() - 1};
  auto source = std::make_unique<testing::EndingEarlySource>(zst, cuts);
  const testing::EndingEarlySource* ending = source.get();
  auto decoder = OpenDecoder(std::move(source), "early.json.zst");
  ASSERT_TRUE(decoder.ok());
  auto decoded = DecodeAll(**decoder, 4096);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, a + b);
  EXPECT_EQ(ending->asked(), static_cast<int>(cuts.size()));
  EXPECT_EQ((*decoder)->content_hash(), ExtendContentHash(0, zst));

  auto refusing = std::make_unique<testing::EndingEarlySource>(zst, std::vector<size_t>{first.size() / 2}, true);
  const testing::EndingEarlySource* refused = refusing.get();
  auto cut = OpenDecoder(std::move(refusing), "cut.json.zst");
  ASSERT_TRUE(cut.ok());
  auto truncated = DecodeAll(**cut);
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.status().code(), StatusCode::kCorruptInput);
  EXPECT_EQ(truncated.status().message(), "truncated zstd frame (unexpected end of file)");
  EXPECT_EQ(refused->asked(), 1);
}

TEST_F(ZstdDecoderTest, NotZstdIsCorrupt) {
  const std::string path = Write("damaged.json.zst", "PK\x03\x04 not zstd");
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
