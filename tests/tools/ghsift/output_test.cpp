// The table helpers of the command line (tools/ghsift/output.cpp): what a person reads in a
// terminal lines up, whatever the script of its text.
#include "output.hpp"

#include <gtest/gtest.h>

namespace ghsift::cli {
namespace {

// One list of format names: what ParseFormat reads is what its refusal names.
TEST(CliOutputTest, FormatsAreReadAndRefusedFromOneList) {
  Format format = Format::kTable;
  EXPECT_TRUE(ParseFormat("json", &format));
  EXPECT_EQ(format, Format::kJson);
  EXPECT_TRUE(ParseFormat("csv", &format));
  EXPECT_EQ(format, Format::kCsv);
  EXPECT_TRUE(ParseFormat("table", &format));
  EXPECT_EQ(format, Format::kTable);
  EXPECT_FALSE(ParseFormat("JSON", &format));
  EXPECT_FALSE(ParseFormat("jsonl", &format));
  EXPECT_EQ(FormatRefusal("xml"), "--format must be table, csv or json, not 'xml'");
  EXPECT_EQ(FormatRefusal("xml", {"jsonl"}), "--format must be table, csv, json or jsonl, not 'xml'");
  EXPECT_EQ(FormatRefusal("a\x1b[2Jb"), "--format must be table, csv or json, not 'a\\x1b[2Jb'");
}

TEST(CliOutputTest, WideCharactersTakeTwoColumns) {
  EXPECT_EQ(DisplayWidth("abc"), 3u);
  EXPECT_EQ(DisplayWidth("\u4e1a\u52a1"), 4u);         // two CJK ideographs
  EXPECT_EQ(DisplayWidth("10\u5b9f\u65bd"), 6u);        // digits and kanji
  EXPECT_EQ(DisplayWidth("\u2605"), 1u);                // a star: one column
  EXPECT_EQ(DisplayWidth("caf\u00e9"), 4u);             // a precomposed accent
  EXPECT_EQ(DisplayWidth("cafe\u0301"), 4u);            // the same, decomposed: the mark takes no column
  EXPECT_EQ(DisplayWidth("Ti\u00ea\u0301u"), 4u);       // a letter with two accents, one of them combined
  EXPECT_EQ(TableCell("e\u0301e\u0301e\u0301", 2), "e\u0301\u2026");  // cut after the mark, not inside
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

// Report text is untrusted: a title can carry terminal escape sequences, a carriage return that
// overwrites what was printed, or bidi overrides that reorder it (issue 25).
TEST(CliOutputTest, TableHeadersAreShownSafeToo) {
  const std::string table = FormatTable(Format::kTable, {"group", "own/r\x1b]0;X\x07"}, {{"a", "1"}}, {false, true});
  EXPECT_EQ(table.find('\x1b'), std::string::npos) << table;
  EXPECT_NE(table.find("own/r\\x1b]0;X\\x07"), std::string::npos) << table;
}

TEST(CliOutputTest, TablesShowCellsSafelyAndCsvJsonKeepTheText) {
  const std::vector<std::vector<std::string>> rows = {{"a\x1b]0;pwned\a", "1"}};
  EXPECT_EQ(FormatTable(Format::kTable, {"title", "n"}, rows, {false, true}),
            "title              n\n"
            "-----------------  -\n"
            "a\\x1b]0;pwned\\x07  1\n");
  EXPECT_EQ(FormatTable(Format::kCsv, {"title", "n"}, rows, {false, true}), "title,n\na\x1b]0;pwned\a,1\n");
  EXPECT_EQ(FormatTable(Format::kJson, {"title", "n"}, rows, {false, true}),
            "[\n {\"title\": \"a\\u001b]0;pwned\\u0007\", \"n\": 1}\n]\n");
  EXPECT_EQ(TableCell("\x1b[31mred", 8), "\\x1b[31\u2026");  // escaped, then cut by columns
}

TEST(CliOutputTest, CountedNounsAgree) {
  EXPECT_EQ(Counted(1, "file"), "1 file");
  EXPECT_EQ(Counted(0, "file"), "0 files");
  EXPECT_EQ(Counted(12345, "rule"), "12,345 rules");
}

TEST(CliOutputTest, JoinPutsTheSeparatorBetweenItems) {
  EXPECT_EQ(Join({"a", "b", "c"}, ";"), "a;b;c");
  EXPECT_EQ(Join({"a"}, ", "), "a");
  EXPECT_EQ(Join({}, ","), "");
  EXPECT_EQ(Join({"", "a", "", "b"}, ","), "a,,b");  // empty items before the first add nothing
}

// A numeric dimension's cell is written unquoted in JSON only when it is a JSON number as it stands.
TEST(CliOutputTest, JsonNumbersAreTheGrammarsOnly) {
  for (const char* yes : {"0", "10", "-3", "2.5", "1e5", "1.5E-3", "0.25"}) EXPECT_TRUE(IsJsonNumber(yes)) << yes;
  for (const char* no : {"", "-", "007", "1.", ".5", "+1", "1e", "nan", "inf", "(unknown)", "0x10", "1 "}) {
    EXPECT_FALSE(IsJsonNumber(no)) << no;
  }
}

}  // namespace
}  // namespace ghsift::cli
