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

// Report text is untrusted: a title can carry terminal escape sequences, a carriage return that
// overwrites what was printed, or bidi overrides that reorder it (issue 25).
TEST(CliOutputTest, ControlCharactersAreShownAsEscapes) {
  EXPECT_EQ(TerminalSafe("a\x1b[2Jb"), "a\\x1b[2Jb");                 // ESC: clear the screen
  EXPECT_EQ(TerminalSafe("ding\a"), "ding\\x07");                     // BEL
  EXPECT_EQ(TerminalSafe("ok\rFAIL"), "ok\\rFAIL");                   // CR: overwrite the line
  EXPECT_EQ(TerminalSafe("x\by\tz\n"), "x\\x08y\\tz\\n");             // BS, tab, newline
  EXPECT_EQ(TerminalSafe("del\x7f"), "del\\x7f");                     // DEL
  EXPECT_EQ(TerminalSafe("\xc2\x9b" "31m"), "\\u009b31m");            // C1 CSI (U+009B)
  EXPECT_EQ(TerminalSafe("safe\u202eexe.txt"), "safe\\u202eexe.txt");  // right-to-left override
  EXPECT_EQ(TerminalSafe("\u2066a\u2069"), "\\u2066a\\u2069");        // isolates
  EXPECT_EQ(TerminalSafe("a\u200fb\u200bc\ufeff"), "a\\u200fb\\u200bc\\ufeff");  // RLM, ZWSP, BOM
}

TEST(CliOutputTest, InvisibleCharactersThatHideTextAreShown) {
  EXPECT_EQ(TerminalSafe("tag\U000E0041\U000E0042"), "tag\\ue0041\\ue0042");  // tag characters
  EXPECT_EQ(TerminalSafe("a\u00adb\u034fc"), "a\\u00adb\\u034fc");            // soft hyphen, CGJ
  EXPECT_EQ(TerminalSafe("\u3164x\uffa0"), "\\u3164x\\uffa0");                // Hangul fillers
  EXPECT_EQ(TerminalSafe("v\ufe0f"), "v\\ufe0f");                              // variation selector
}

TEST(CliOutputTest, TableHeadersAreShownSafeToo) {
  const std::string table = FormatTable(Format::kTable, {"group", "own/r\x1b]0;X\x07"}, {{"a", "1"}}, {false, true});
  EXPECT_EQ(table.find('\x1b'), std::string::npos) << table;
  EXPECT_NE(table.find("own/r\\x1b]0;X\\x07"), std::string::npos) << table;
}

TEST(CliOutputTest, ValidTextIsKeptAsItIs) {
  const std::string text = "caf\u00e9 \u4e1a\u52a1 \u05e9\u05dc\u05d5\u05dd \U0001F600 \U0001F468\u200d\U0001F4BB [x] \\n";
  EXPECT_EQ(TerminalSafe(text), text);  // accents, CJK, Hebrew, emoji, a ZWJ sequence, a backslash
  EXPECT_EQ(TerminalSafe(""), "");
  // Once safe, always safe: escaping twice changes nothing.
  EXPECT_EQ(TerminalSafe(TerminalSafe("\x1b\u202e")), "\\x1b\\u202e");
}

TEST(CliOutputTest, BytesThatAreNotUtf8AreShownAsHex) {
  EXPECT_EQ(TerminalSafe("a\xff" "b"), "a\\xffb");             // never a UTF-8 byte
  EXPECT_EQ(TerminalSafe("\x80"), "\\x80");                     // a stray continuation byte
  EXPECT_EQ(TerminalSafe("\xc0\x9b"), "\\xc0\\x9b");            // an overlong form of U+001B
  EXPECT_EQ(TerminalSafe("\xed\xa0\x80"), "\\xed\\xa0\\x80");   // a surrogate
  EXPECT_EQ(TerminalSafe("ab\xe4\xb8"), "ab\\xe4\\xb8");        // a character cut short
  EXPECT_EQ(TerminalSafe("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
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

}  // namespace
}  // namespace ghsift::cli
