#include "io/line_splitter.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "io/io_test_support.hpp"

namespace ghsift {
namespace {

struct SplitChunk {
  std::string text;
  uint64_t sequence = 0;
  bool last = false;
  uint32_t overlong = 0;
};

using testing::GzipMember;

class LineSplitterTest : public testing::ScratchDirTest {
 protected:
  LineSplitterTest() : ScratchDirTest("ghsift-lines") {}

  //! Splits the whole file, checking the padding contract of every chunk on the way.
  std::vector<SplitChunk> Split(const std::string& path, LineSplitterOptions options) {
    auto decoder = OpenDecoder(path);
    EXPECT_TRUE(decoder.ok()) << decoder.status().message();
    if (!decoder.ok()) return {};
    LineSplitter splitter(std::move(decoder).value(), options);
    std::vector<SplitChunk> chunks;
    Chunk chunk;
    for (int guard = 0; guard < 100000; ++guard) {
      auto more = splitter.Next(chunk);
      EXPECT_TRUE(more.ok()) << more.status().message();
      if (!more.ok() || !*more) {
        EXPECT_EQ(chunk.size, 0u);
        return chunks;
      }
      EXPECT_GE(chunk.buffer.size(), chunk.size + kChunkPadding);
      bool padding_zero = true;
      for (size_t i = chunk.size; i < chunk.size + kChunkPadding && i < chunk.buffer.size(); ++i) {
        padding_zero = padding_zero && chunk.buffer[i] == '\0';
      }
      EXPECT_TRUE(padding_zero) << "chunk " << chunk.sequence;
      chunks.push_back({std::string(chunk.data(), chunk.size), chunk.sequence, chunk.last,
                        chunk.overlong_lines_before});
    }
    ADD_FAILURE() << "splitter never ended";
    return chunks;
  }
};

TEST_F(LineSplitterTest, EmptyFileYieldsNoChunk) {
  const std::string path = Write("empty.json", "");
  EXPECT_TRUE(Split(path, {}).empty());
}

TEST_F(LineSplitterTest, SmallFileIsOneLastChunk) {
  const std::string text = "{\"a\":1}\n{\"b\":2}\n";
  const auto chunks = Split(Write("small.json", text), {});
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0].text, text);
  EXPECT_EQ(chunks[0].sequence, 0u);
  EXPECT_TRUE(chunks[0].last);
  EXPECT_EQ(chunks[0].overlong, 0u);
}

TEST_F(LineSplitterTest, LinesCrossChunkBoundariesWithTinyChunks) {
  const std::string text = "aaaa\nbb\ncccccccccccc\nd\n\neeeeeee\nf\n";
  LineSplitterOptions options;
  options.chunk_bytes = 7;
  const auto chunks = Split(Write("tiny.json", text), options);
  ASSERT_FALSE(chunks.empty());
  std::string joined;
  for (size_t i = 0; i < chunks.size(); ++i) {
    EXPECT_EQ(chunks[i].sequence, i);
    EXPECT_EQ(chunks[i].overlong, 0u);
    ASSERT_FALSE(chunks[i].text.empty()) << "chunk " << i;
    EXPECT_EQ(chunks[i].text.back(), '\n') << "chunk " << i << " does not end on a whole line";
    joined += chunks[i].text;
  }
  EXPECT_EQ(joined, text);
  // The first chunk holds the whole lines of the first 7 bytes only: "aaaa\nbb" -> "aaaa\n".
  EXPECT_EQ(chunks[0].text, "aaaa\n");
  // A line longer than chunk_bytes still arrives whole.
  bool long_line_whole = false;
  for (const auto& c : chunks) long_line_whole = long_line_whole || c.text.find("cccccccccccc\n") != std::string::npos;
  EXPECT_TRUE(long_line_whole);
}

TEST_F(LineSplitterTest, FinalLineWithoutNewline) {
  const std::string text = "first\nsecond\nlast line";
  LineSplitterOptions options;
  options.chunk_bytes = 7;
  const auto chunks = Split(Write("nonl.json", text), options);
  ASSERT_FALSE(chunks.empty());
  std::string joined;
  for (size_t i = 0; i < chunks.size(); ++i) {
    EXPECT_EQ(chunks[i].sequence, i);
    EXPECT_EQ(chunks[i].last, i + 1 == chunks.size()) << "chunk " << i;
    joined += chunks[i].text;
  }
  EXPECT_EQ(joined, text);
  EXPECT_EQ(chunks.back().text, "last line");
}

TEST_F(LineSplitterTest, FinalLineWithoutNewlineWithLargeChunks) {
  const std::string text = "a\nb";
  const auto chunks = Split(Write("nonl1.json", text), {});
  ASSERT_FALSE(chunks.empty());
  std::string joined;
  for (size_t i = 0; i < chunks.size(); ++i) {
    EXPECT_EQ(chunks[i].sequence, i);
    EXPECT_EQ(chunks[i].last, i + 1 == chunks.size());
    joined += chunks[i].text;
  }
  EXPECT_EQ(joined, text);
  EXPECT_EQ(chunks.back().text.back(), 'b');
}

TEST_F(LineSplitterTest, OverlongLineIsDroppedAndCounted) {
  const std::string text = "ab\n" + std::string(40, 'x') + "\ncd\nef\n";
  LineSplitterOptions options;
  options.chunk_bytes = 7;
  options.max_line_bytes = 16;
  const auto chunks = Split(Write("overlong.json", text), options);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].text, "ab\n");
  EXPECT_EQ(chunks[0].overlong, 0u);
  EXPECT_EQ(chunks[0].sequence, 0u);
  EXPECT_FALSE(chunks[0].last);
  // The dropped line sat between "ab" and "cd": it is counted before the next chunk's first line.
  EXPECT_EQ(chunks[1].text, "cd\nef\n");
  EXPECT_EQ(chunks[1].overlong, 1u);
  EXPECT_EQ(chunks[1].sequence, 1u);
  EXPECT_TRUE(chunks[1].last);
}

// Two over-long lines in a row: each one is either dropped and counted in overlong_lines_before
// or delivered whole (the chunk worker then counts it as a bad line); none is cut or lost, and
// the short lines arrive intact.
TEST_F(LineSplitterTest, TwoOverlongLinesInARowAreBothAccountedFor) {
  const std::string text = std::string(30, 'y') + "\n" + std::string(50, 'z') + "\nok\n";
  LineSplitterOptions options;
  options.chunk_bytes = 8;
  options.max_line_bytes = 16;
  const auto chunks = Split(Write("overlong2.json", text), options);
  ASSERT_FALSE(chunks.empty());
  uint32_t dropped = 0;
  uint32_t delivered_overlong = 0;
  std::string short_lines;
  for (size_t i = 0; i < chunks.size(); ++i) {
    EXPECT_EQ(chunks[i].sequence, i);
    dropped += chunks[i].overlong;
    size_t start = 0;
    while (start < chunks[i].text.size()) {
      size_t end = chunks[i].text.find('\n', start);
      ASSERT_NE(end, std::string::npos);
      const std::string line = chunks[i].text.substr(start, end - start);
      if (line.size() > options.max_line_bytes) {
        ++delivered_overlong;
        EXPECT_TRUE(line == std::string(30, 'y') || line == std::string(50, 'z')) << line;
      } else {
        short_lines += line + "\n";
      }
      start = end + 1;
    }
  }
  EXPECT_GE(dropped, 1u);
  EXPECT_EQ(dropped + delivered_overlong, 2u);
  EXPECT_EQ(short_lines, "ok\n");
  EXPECT_TRUE(chunks.back().last);
}

TEST_F(LineSplitterTest, OverlongLineAtEndOfFileStillReportsTheCount) {
  const std::string text = "ok\n" + std::string(40, 'q') + "\n";
  LineSplitterOptions options;
  options.chunk_bytes = 4;
  options.max_line_bytes = 16;
  const auto chunks = Split(Write("overlong-end.json", text), options);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].text, "ok\n");
  EXPECT_EQ(chunks[1].text, "");
  EXPECT_EQ(chunks[1].overlong, 1u);
  EXPECT_TRUE(chunks[1].last);
  EXPECT_EQ(chunks[1].sequence, 1u);
}

TEST_F(LineSplitterTest, LinesUpToTheCapAreKept) {
  // 15 bytes + '\n' = 16 = max_line_bytes: not longer than the cap.
  const std::string line(15, 'k');
  const std::string text = line + "\n" + line + "\n";
  LineSplitterOptions options;
  options.chunk_bytes = 4;
  options.max_line_bytes = 16;
  const auto chunks = Split(Write("cap.json", text), options);
  std::string joined;
  uint32_t overlong = 0;
  for (const auto& c : chunks) {
    joined += c.text;
    overlong += c.overlong;
  }
  EXPECT_EQ(joined, text);
  EXPECT_EQ(overlong, 0u);
}

// max_line_bytes caps the line, not the line plus its '\n': a line of exactly max_line_bytes
// bytes is not "longer than" the cap (the chunk worker uses line.size() > max_line_bytes).
TEST_F(LineSplitterTest, LineOfExactlyTheCapIsKept) {
  const std::string line(16, 'k');
  const std::string text = "a\n" + line + "\nb\n";
  LineSplitterOptions options;
  options.chunk_bytes = 4;
  options.max_line_bytes = 16;
  const auto chunks = Split(Write("exact-cap.json", text), options);
  std::string joined;
  uint32_t overlong = 0;
  for (const auto& c : chunks) {
    joined += c.text;
    overlong += c.overlong;
  }
  EXPECT_EQ(overlong, 0u);
  EXPECT_EQ(joined, text);
}

TEST_F(LineSplitterTest, ManyLinesThroughGzipWithSmallChunks) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "{\"line\":" + std::to_string(i) + "}\n";
  LineSplitterOptions options;
  options.chunk_bytes = 1000;
  const auto chunks = Split(Write("many.json.gz", GzipMember(text)), options);
  ASSERT_GT(chunks.size(), 50u);
  std::string joined;
  for (size_t i = 0; i < chunks.size(); ++i) {
    EXPECT_EQ(chunks[i].sequence, i);
    EXPECT_LE(chunks[i].text.size(), 1000u);
    EXPECT_EQ(chunks[i].text.back(), '\n');
    joined += chunks[i].text;
  }
  EXPECT_EQ(joined, text);
}

TEST_F(LineSplitterTest, DecoderErrorIsReturned) {
  std::string bytes = GzipMember(std::string(10000, 'x') + "\n");
  bytes.resize(bytes.size() / 2);
  auto decoder = OpenDecoder(Write("broken.json.gz", bytes));
  ASSERT_TRUE(decoder.ok());
  LineSplitter splitter(std::move(decoder).value(), {});
  Chunk chunk;
  Result<bool> more = true;
  for (int i = 0; i < 100 && more.ok() && *more; ++i) more = splitter.Next(chunk);
  ASSERT_FALSE(more.ok());
  EXPECT_EQ(more.status().code(), StatusCode::kCorruptInput);
}

}  // namespace
}  // namespace ghsift
