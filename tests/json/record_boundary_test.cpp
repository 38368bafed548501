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

TEST(RecordLengthTest, RespectsStringsAndEscapes) {
  EXPECT_EQ(RecordLength(R"({"a":"}{\""}{"b":1})"), 12u);
  EXPECT_EQ(RecordLength(R"({"a":[1,{"b":2}]})"), 17u);
  EXPECT_EQ(RecordLength(R"({"a":1)"), std::string_view::npos);
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
