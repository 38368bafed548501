#include "json/record_boundary.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ghsift {
namespace {

TEST(FindRecordJoinTest, FindsTheFirstJoinInShortAndLongLines) {
  EXPECT_EQ(FindRecordJoin(R"({"a":1}{"b":2})"), 6u);
  EXPECT_EQ(FindRecordJoin(R"({"a":1})"), std::string_view::npos);
  const std::string long_line = "{\"a\":\"" + std::string(100, 'x') + "\"}{\"b\":2}";
  EXPECT_EQ(FindRecordJoin(long_line), 107u);
}

// Every length up to 200 and every position of the join (the vector steps, their edges and the
// tail), among braces and quotes that are not one: the same answer as a byte-by-byte search.
TEST(FindRecordJoinTest, AgreesWithAByteByByteSearchAtEveryPosition) {
  const auto bytewise = [](std::string_view text) {
    for (size_t i = 0; i + 2 < text.size(); ++i) {
      if (text[i] == '}' && text[i + 1] == '{' && text[i + 2] == '"') return i;
    }
    return std::string_view::npos;
  };
  uint32_t state = 12345;
  const auto next = [&state] { return state = state * 1103515245u + 12345u; };
  const std::string_view alphabet = "ab{}\"{ \"";  // near-misses: "{", "}{", "{\"" alone
  for (size_t size = 0; size <= 200; ++size) {
    std::string text(size, 'x');
    for (char& c : text) c = alphabet[(next() >> 16) % alphabet.size()];
    // No join at all, then one planted at each position (and the near-misses around it).
    for (size_t at = 0; at + 3 <= size; ++at) {
      std::string planted = text;
      for (size_t i = 0; i + 2 < size; ++i) {
        if (planted[i] == '}' && planted[i + 1] == '{' && planted[i + 2] == '"') planted[i + 2] = 'q';
      }
      EXPECT_EQ(FindRecordJoin(planted), std::string_view::npos) << planted;
      planted.replace(at, 3, "}{\"");
      ASSERT_EQ(FindRecordJoin(planted), bytewise(planted)) << "size " << size << " at " << at << ": " << planted;
      EXPECT_LE(FindRecordJoin(planted), at);
    }
  }
}

TEST(RecordLengthTest, RespectsStringsAndEscapes) {
  EXPECT_EQ(RecordLength(R"({"a":"}{\""}{"b":1})"), 12u);
  EXPECT_EQ(RecordLength(R"({"a":[1,{"b":2}]})"), 17u);
  EXPECT_EQ(RecordLength(R"({"a":1)"), std::string_view::npos);
}

TEST(AtTopLevelTest, DepthOneOutsideStringsOnly) {
  const std::string record = R"({"a":{"b":1},"c":"x\"{","d":[{"e":2}],"f":"\\","g":1})";
  const auto at = [&](const char* key) { return record.find(key); };
  EXPECT_TRUE(AtTopLevel(record, at(R"("a")")));
  EXPECT_FALSE(AtTopLevel(record, at(R"("b")")));
  EXPECT_TRUE(AtTopLevel(record, at(R"("c")")));
  EXPECT_FALSE(AtTopLevel(record, at("x")));  // inside the string
  EXPECT_TRUE(AtTopLevel(record, at(R"("d")")));
  EXPECT_FALSE(AtTopLevel(record, at(R"("e")")));
  EXPECT_TRUE(AtTopLevel(record, at(R"("f")")));  // after a string ending in an escaped backslash
  EXPECT_TRUE(AtTopLevel(record, at(R"("g")")));
  EXPECT_FALSE(AtTopLevel(record, 0));                // before the record opens
  EXPECT_FALSE(AtTopLevel(record, record.size()));    // after it closed
  EXPECT_FALSE(AtTopLevel(record, record.size() + 1));
  // Past a record that closed, another one's members are not this record's.
  EXPECT_FALSE(AtTopLevel(R"({"a":1} {"repo":1})", 9));
}

// Every position of random records around the 64-byte blocks, with and without backslashes (the
// block-wise read leaves those to the bytewise one), against a plain one-byte-at-a-time reading.
TEST(AtTopLevelTest, AgreesWithAPlainReadingAtEveryPosition) {
  const auto reference = [](std::string_view text, size_t pos) {
    size_t depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < pos; ++i) {
      const char c = text[i];
      if (in_string) {
        if (c == '\\' && i + 1 < pos) {
          ++i;
        } else if (c == '\\') {
          return false;  // `pos` is the escaped byte
        } else if (c == '"') {
          in_string = false;
        }
      } else if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (depth <= 1) return false;
        --depth;
      }
    }
    return !in_string && depth == 1;
  };
  uint64_t state = 12345;
  const auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<unsigned>(state >> 33);
  };
  for (int round = 0; round < 400; ++round) {
    const bool backslashes = round % 2 == 1;
    const std::string alphabet = backslashes ? "{}[]\"\\abc:," : "{}[]\"abc:,";
    std::string text = "{";
    const size_t length = 1 + next() % 300;
    // Mostly plain bytes, as records are, so that depths and strings run across blocks.
    while (text.size() < length) text += next() % 3 == 0 ? alphabet[next() % alphabet.size()] : 'x';
    for (size_t pos = 0; pos <= text.size(); ++pos) {
      ASSERT_EQ(AtTopLevel(text, pos), reference(text, pos)) << text << " at " << pos;
    }
  }
}

// Every position and length around the 32-byte blocks, against string_view::find.
TEST(FindLiteralTest, AgreesWithStringViewFindAtEveryOffset) {
  const std::string needle = "\"repo\":{\"id\":";
  for (size_t length = 0; length < 100; ++length) {
    for (size_t at = 0; at + needle.size() <= length; ++at) {
      // Quotes and near misses everywhere, so that the first/last-byte filter passes often.
      std::string text(length, '"');
      for (size_t i = 1; i < length; i += 3) text[i] = ':';
      text.replace(at, needle.size(), needle);
      ASSERT_EQ(FindLiteral(text, needle), std::string_view(text).find(needle)) << length << " " << at;
    }
    const std::string none(length, '"');
    ASSERT_EQ(FindLiteral(none, needle), std::string_view::npos) << length;
  }
}

TEST(FindLiteralTest, FindsTheFirstOfSeveralAndShortNeedles) {
  const std::string text = std::string(40, 'x') + "\"k\":1," + std::string(40, 'y') + "\"k\":2";
  EXPECT_EQ(FindLiteral(text, "\"k\":"), 40u);
  EXPECT_EQ(FindLiteral(text, "y\""), 85u);
  EXPECT_EQ(FindLiteral(text, "2"), text.size() - 1);
  EXPECT_EQ(FindLiteral(text, "\"k\":3"), std::string_view::npos);
  EXPECT_EQ(FindLiteral("ab", "abc"), std::string_view::npos);
}

}  // namespace
}  // namespace ghsift
