#include "io/gzip_decoder.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io/decoder.hpp"
#include "io/io_test_support.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;

std::string NdjsonLines(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) {
    text += "{\"id\":\"" + std::to_string(i) + "\",\"type\":\"PushEvent\",\"n\":" + std::to_string(i * 7) + "}\n";
  }
  return text;
}

using testing::DecodeAll;
using testing::GzipMember;
using testing::RandomBytes;

class GzipDecoderTest : public testing::ScratchDirTest {
 protected:
  GzipDecoderTest() : ScratchDirTest("ghsift-gzip") {}
};

TEST_F(GzipDecoderTest, CompressionFromName) {
  EXPECT_EQ(CompressionFromName("2015-01-01-15.json.gz"), Compression::kGzip);
  EXPECT_EQ(CompressionFromName("a.json.zst"), Compression::kZstd);
  EXPECT_EQ(CompressionFromName("a.json.zstd"), Compression::kZstd);
  EXPECT_EQ(CompressionFromName("a.json"), Compression::kNone);
  EXPECT_EQ(CompressionFromName("gz"), Compression::kNone);
}

TEST_F(GzipDecoderTest, DecodesOneMember) {
  const std::string text = NdjsonLines(500);
  const std::string path = Write("one.json.gz", GzipMember(text));
  auto decoded = DecodeAll(path);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, text);
}

TEST_F(GzipDecoderTest, DecodesThroughTinyOutputSpans) {
  const std::string text = NdjsonLines(300);
  const std::string path = Write("tiny.json.gz", GzipMember(text));
  for (size_t span : {size_t{1}, size_t{7}, size_t{4096}}) {
    auto decoded = DecodeAll(path, span);
    ASSERT_TRUE(decoded.ok()) << "span " << span << ": " << decoded.status().message();
    EXPECT_EQ(*decoded, text) << "span " << span;
  }
}

TEST_F(GzipDecoderTest, DecodesEveryMemberOfAMultiMemberFile) {
  const std::string a = NdjsonLines(10);
  const std::string b = "{\"second\":true}\n";
  const std::string c = NdjsonLines(1000);
  const std::string path = Write("multi.json.gz", GzipMember(a) + GzipMember(b, 1) + GzipMember(c, 9));
  auto decoded = DecodeAll(path);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, a + b + c);
  auto small = DecodeAll(path, 13);
  ASSERT_TRUE(small.ok()) << small.status().message();
  EXPECT_EQ(*small, a + b + c);
}

TEST_F(GzipDecoderTest, MemberBoundaryAcrossInputBlocks) {
  // The first member is incompressible and larger than the decoder's 1 MiB input block, so the
  // second member starts in a later read.
  const std::string a = RandomBytes((1 << 20) + 12345, 7);
  const std::string b = NdjsonLines(50);
  const std::string path = Write("big.json.gz", GzipMember(a, 1) + GzipMember(b) + GzipMember(""));
  auto decoded = DecodeAll(path);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  ASSERT_EQ(decoded->size(), a.size() + b.size());
  EXPECT_TRUE(*decoded == a + b);
}

TEST_F(GzipDecoderTest, LentViewsOfAnySizeDecodeInPlace) {
  // Members and their headers cut across views of 1, 3, 100 and 70,000 bytes; each view is gone
  // (overwritten) once the next is asked for.
  const std::string a = NdjsonLines(2000);
  const std::string b = RandomBytes(100'000, 3);
  const std::string gz = GzipMember(a) + GzipMember(b, 1) + GzipMember("");
  auto source = std::make_unique<testing::LendingSource>(gz, std::vector<size_t>{1, 3, 100, 70'000});
  const testing::LendingSource* lending = source.get();
  auto decoder = OpenDecoder(std::move(source), "lent.json.gz");
  ASSERT_TRUE(decoder.ok());
  auto decoded = testing::DecodeAll(**decoder, 4096);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, a + b);
  EXPECT_EQ((*decoder)->compressed_bytes_read(), gz.size());
  EXPECT_EQ((*decoder)->content_hash(), ExtendContentHash(0, gz));
  EXPECT_GE(lending->views(), 4u);  // inflated from the lent views, not read into a buffer
}

TEST_F(GzipDecoderTest, EmptyMemberDecodesToNothing) {
  const std::string path = Write("empty-member.json.gz", GzipMember(""));
  auto decoded = DecodeAll(path);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, "");
}

TEST_F(GzipDecoderTest, ZeroByteFileIsAnEmptyError) {
  const std::string path = Write("zero.json.gz", "");
  auto decoded = DecodeAll(path);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kCorruptInput);
  EXPECT_NE(decoded.status().message().find("empty"), std::string::npos) << decoded.status().message();
}

TEST_F(GzipDecoderTest, TrailingZeroPaddingIsAccepted) {
  const std::string text = NdjsonLines(20);
  const std::string path = Write("padded.json.gz", GzipMember(text) + std::string(512, '\0'));
  auto decoded = DecodeAll(path);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, text);
}

TEST_F(GzipDecoderTest, OnlyZerosIsNotAGzipFile) {
  const std::string path = Write("zeros.json.gz", std::string(64, '\0'));
  auto decoded = DecodeAll(path);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kCorruptInput);
}

TEST_F(GzipDecoderTest, GarbageAfterAMemberIsCorrupt) {
  const std::string text = NdjsonLines(20);
  const std::string path = Write("garbage.json.gz", GzipMember(text) + "this is not gzip");
  auto decoded = DecodeAll(path);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kCorruptInput);
}

// Inputs are typed by content: NDJSON named .gz is read as it is, gzip named .json is inflated,
// and bytes that are neither (a damaged header) get the decoder the name asks for.
TEST_F(GzipDecoderTest, PlainTextNamedGzIsReadAsPlain) {
  const std::string text = "{\"type\":\"PushEvent\"}\n";
  auto decoded = DecodeAll(Write("plain.json.gz", text));
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, text);
}

TEST_F(GzipDecoderTest, GzipNamedJsonIsInflated) {
  const std::string text = NdjsonLines(50);
  auto decoded = DecodeAll(Write("2019-03-01-0.json", GzipMember(text)));
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, text);
}

TEST_F(GzipDecoderTest, DamagedHeaderNamedGzIsNotGzip) {
  std::string member = GzipMember(NdjsonLines(5));
  member[0] = '\x1e';  // the first byte of the magic number
  auto decoded = DecodeAll(Write("damaged.json.gz", member));
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kCorruptInput);
  EXPECT_EQ(decoded.status().message().rfind("not a GH Archive dump: named as gzip but neither gzip, zstd nor JSON "
                                             "lines, starting with \"\\x1e\\x8b", 0),
            0u)
      << decoded.status().message();
}

TEST_F(GzipDecoderTest, CorruptedCrcIsReported) {
  const std::string text = NdjsonLines(200);
  std::string bytes = GzipMember(text);
  bytes[bytes.size() - 8] ^= 0x5a;  // first byte of the CRC32 trailer
  const std::string path = Write("crc.json.gz", bytes);
  auto decoded = DecodeAll(path);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kCorruptInput);
  EXPECT_NE(decoded.status().message().find("CRC"), std::string::npos) << decoded.status().message();
}

TEST_F(GzipDecoderTest, CorruptedDataByteIsReported) {
  const std::string text = NdjsonLines(2000);
  const std::string good = GzipMember(text);
  ASSERT_GT(good.size(), 200u);
  // Flip bytes at several places inside the deflate data: every one must be detected, by the
  // inflater (bad block, symbol or distance) or by the CRC check; none may decode silently.
  for (size_t at : {size_t{20}, good.size() / 3, good.size() / 2, good.size() - 20}) {
    std::string bytes = good;
    bytes[at] = static_cast<char>(bytes[at] ^ 0xff);
    const std::string path = Write("flip" + std::to_string(at) + ".json.gz", bytes);
    auto decoded = DecodeAll(path);
    ASSERT_FALSE(decoded.ok()) << "flip at " << at << " decoded " << decoded->size() << " bytes";
    EXPECT_EQ(decoded.status().code(), StatusCode::kCorruptInput) << "flip at " << at;
  }
}

TEST_F(GzipDecoderTest, TruncatedFileIsReported) {
  const std::string text = NdjsonLines(2000);
  const std::string good = GzipMember(text);
  for (size_t keep : {good.size() / 2, good.size() - 1, good.size() - 8, size_t{5}}) {
    const std::string path = Write("cut" + std::to_string(keep) + ".json.gz", good.substr(0, keep));
    auto decoded = DecodeAll(path);
    ASSERT_FALSE(decoded.ok()) << "kept " << keep << " of " << good.size();
    EXPECT_EQ(decoded.status().code(), StatusCode::kCorruptInput) << "kept " << keep;
    EXPECT_NE(decoded.status().message().find("truncated"), std::string::npos)
        << "kept " << keep << ": " << decoded.status().message();
  }
}

TEST_F(GzipDecoderTest, TruncatedSecondMemberIsReported) {
  const std::string a = NdjsonLines(30);
  const std::string b = GzipMember(NdjsonLines(300));
  const std::string path = Write("cut2.json.gz", GzipMember(a) + b.substr(0, b.size() / 2));
  auto decoded = DecodeAll(path);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kCorruptInput);
  EXPECT_NE(decoded.status().message().find("truncated"), std::string::npos) << decoded.status().message();
}

// An input that ends inside a member (an HTTP body without length, its connection cut) is read on
// when its source has more: inflate goes on where it stopped, wherever the cut fell.
TEST_F(GzipDecoderTest, AnEarlyEndReadsOnWhenTheSourceHasMore) {
  const std::string a = NdjsonLines(2000);
  const std::string b = NdjsonLines(300);
  const std::string first = GzipMember(a);
  const std::string gz = first + GzipMember(b);
  // In the first member's header, its deflate data and its trailer; in the second member.
  const std::vector<size_t> cuts = {5, first.size() / 2, first.size() - 3, first.size() + 4, gz.size() - 1};
  auto source = std::make_unique<testing::EndingEarlySource>(gz, cuts);
  const testing::EndingEarlySource* ending = source.get();
  auto decoder = OpenDecoder(std::move(source), "early.json.gz");
  ASSERT_TRUE(decoder.ok());
  auto decoded = DecodeAll(**decoder, 4096);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, a + b);
  EXPECT_EQ(ending->asked(), static_cast<int>(cuts.size()));
  EXPECT_EQ((*decoder)->compressed_bytes_read(), gz.size());
  EXPECT_EQ((*decoder)->content_hash(), ExtendContentHash(0, gz));

  // A whole stream never asks.
  auto whole = std::make_unique<testing::EndingEarlySource>(gz, std::vector<size_t>{});
  const testing::EndingEarlySource* whole_source = whole.get();
  auto plain = OpenDecoder(std::move(whole), "whole.json.gz");
  ASSERT_TRUE(plain.ok());
  auto all = DecodeAll(**plain);
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(*all, a + b);
  EXPECT_EQ(whole_source->asked(), 0);
}

// A source that has no more (a file, a body of announced length) leaves the truncation as it was.
TEST_F(GzipDecoderTest, AnEarlyEndIsTruncatedWhenTheSourceHasNoMore) {
  const std::string gz = GzipMember(NdjsonLines(2000));
  auto source = std::make_unique<testing::EndingEarlySource>(gz, std::vector<size_t>{gz.size() / 2}, true);
  const testing::EndingEarlySource* ending = source.get();
  auto decoder = OpenDecoder(std::move(source), "cut.json.gz");
  ASSERT_TRUE(decoder.ok());
  auto decoded = DecodeAll(**decoder);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kCorruptInput);
  EXPECT_EQ(decoded.status().message(), "truncated gzip stream (unexpected end of file)");
  EXPECT_EQ(ending->asked(), 1);
}

TEST_F(GzipDecoderTest, CountsCompressedBytes) {
  const std::string bytes = GzipMember(NdjsonLines(100));
  const std::string path = Write("count.json.gz", bytes);
  auto source = FileSource::Open(path);
  ASSERT_TRUE(source.ok());
  GzipDecoder decoder(std::make_unique<FileSource>(std::move(source).value()));
  EXPECT_EQ(decoder.compressed_size(), bytes.size());
  std::string buffer(1 << 16, '\0');
  while (true) {
    auto n = decoder.Decode({buffer.data(), buffer.size()});
    ASSERT_TRUE(n.ok()) << n.status().message();
    if (*n == 0) break;
  }
  EXPECT_EQ(decoder.compressed_bytes_read(), bytes.size());
}

TEST_F(GzipDecoderTest, MissingFileIsAnIoError) {
  auto decoder = OpenDecoder((fs::path(dir_) / "missing.json.gz").string());
  ASSERT_FALSE(decoder.ok());
  EXPECT_EQ(decoder.status().code(), StatusCode::kIoError);
}

}  // namespace
}  // namespace ghsift
