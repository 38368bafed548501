// The table helpers of the command line (tools/ghsift/output.cpp): what a person reads in a
// terminal lines up, whatever the script of its text.
#include "output.hpp"

#include <gtest/gtest.h>

namespace ghsift::cli {
namespace {

TEST(CliOutputTest, WideCharactersTakeTwoColumns) {
  EXPECT_EQ(DisplayWidth("abc"), 3u);
  EXPECT_EQ(DisplayWidth("\u4e1a\u52a1"), 4u);         // two CJK ideographs
  EXPECT_EQ(DisplayWidth("10\u5b9f\u65bd"), 6u);        // digits and kanji
  EXPECT_EQ(DisplayWidth("\u2605"), 1u);                // a star: one column
  EXPECT_EQ(DisplayWidth("caf\u00e9"), 4u);             // a precomposed accent
  EXPECT_EQ(DisplayWidth("\xff\xfe"), 2u);              // bytes that are not UTF-8: one each
}

TEST(CliOutputTest, TableColumnsLineUpWithWideText) {
  const std::string out =
      FormatTable(Format::kTable, {"label", "issues"}, {{"1.8.9", "1"}, {"10\u5b9f\u65bd", "1"}, {"\u2605", "2"}},
                  {false, true});
  EXPECT_EQ(out,
            "label   issues\n"
            "------  ------\n"
            "1.8.9        1\n"
            "10\u5b9f\u65bd       1\n"
            "\u2605            2\n");
}

TEST(CliOutputTest, CellsAreCutByColumns) {
  EXPECT_EQ(TableCell("\u4e1a\u52a1\u6d41\u7a0b", 5), "\u4e1a\u52a1\u2026");  // 4 columns, then the ellipsis
  EXPECT_EQ(TableCell("abcdef", 4), "abc\u2026");
  EXPECT_EQ(TableCell("abc", 4), "abc");
}

TEST(CliOutputTest, CountedNounsAgree) {
  EXPECT_EQ(Counted(1, "file"), "1 file");
  EXPECT_EQ(Counted(0, "file"), "0 files");
  EXPECT_EQ(Counted(12345, "rule"), "12,345 rules");
}

}  // namespace
}  // namespace ghsift::cli
