// Untrusted text made safe to show (engine/common/terminal_safe.cpp): what a terminal would act
// on, or what hides or reorders text, becomes a visible escape; valid text stays as it is.
#include "common/terminal_safe.hpp"

#include <gtest/gtest.h>

namespace ghsift {
namespace {

TEST(TerminalSafeTest, ControlCharactersAreShownAsEscapes) {
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

TEST(TerminalSafeTest, InvisibleCharactersThatHideTextAreShown) {
  EXPECT_EQ(TerminalSafe("tag\U000E0041\U000E0042"), "tag\\ue0041\\ue0042");  // tag characters
  EXPECT_EQ(TerminalSafe("a\u00adb\u034fc"), "a\\u00adb\\u034fc");            // soft hyphen, CGJ
  EXPECT_EQ(TerminalSafe("\u3164x\uffa0"), "\\u3164x\\uffa0");                // Hangul fillers
  EXPECT_EQ(TerminalSafe("v\ufe0f"), "v\\ufe0f");                              // variation selector
}

TEST(TerminalSafeTest, ValidTextIsKeptAsItIs) {
  const std::string text = "caf\u00e9 \u4e1a\u52a1 \u05e9\u05dc\u05d5\u05dd \U0001F600 \U0001F468\u200d\U0001F4BB [x] \\n";
  EXPECT_EQ(TerminalSafe(text), text);  // accents, CJK, Hebrew, emoji, a ZWJ sequence, a backslash
  EXPECT_EQ(TerminalSafe(""), "");
  // Once safe, always safe: escaping twice changes nothing.
  EXPECT_EQ(TerminalSafe(TerminalSafe("\x1b\u202e")), "\\x1b\\u202e");
}

TEST(TerminalSafeTest, BytesThatAreNotUtf8AreShownAsHex) {
  EXPECT_EQ(TerminalSafe("a\xff" "b"), "a\\xffb");             // never a UTF-8 byte
  EXPECT_EQ(TerminalSafe("\x80"), "\\x80");                     // a stray continuation byte
  EXPECT_EQ(TerminalSafe("\xc0\x9b"), "\\xc0\\x9b");            // an overlong form of U+001B
  EXPECT_EQ(TerminalSafe("\xed\xa0\x80"), "\\xed\\xa0\\x80");   // a surrogate
  EXPECT_EQ(TerminalSafe("ab\xe4\xb8"), "ab\\xe4\\xb8");        // a character cut short
  EXPECT_EQ(TerminalSafe("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
}

}  // namespace
}  // namespace ghsift
