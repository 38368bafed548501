#include "json/markdown_splitter.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ghsift {
namespace {

struct Split {
  std::string prose;
  std::string code;
};

Split SplitText(std::string_view text) {
  Split s;
  SplitMarkdown(text, s.prose, s.code);
  return s;
}

TEST(MarkdownSplitterTest, NoFencesIsAllProse) {
  const Split s = SplitText("line one\nline two");
  EXPECT_EQ(s.prose, "line one\nline two\n");
  EXPECT_EQ(s.code, "");
}

TEST(MarkdownSplitterTest, EmptyText) {
  const Split s = SplitText("");
  EXPECT_EQ(s.prose, "");
  EXPECT_EQ(s.code, "");
}

TEST(MarkdownSplitterTest, BacktickFence) {
  const Split s = SplitText("before\n```\nx = 1\ny = 2\n```\nafter\n");
  EXPECT_EQ(s.prose, "before\nafter\n");
  EXPECT_EQ(s.code, "x = 1\ny = 2\n");
}

TEST(MarkdownSplitterTest, TildeFence) {
  const Split s = SplitText("a\n~~~\ncode\n~~~\nb");
  EXPECT_EQ(s.prose, "a\nb\n");
  EXPECT_EQ(s.code, "code\n");
}

TEST(MarkdownSplitterTest, InfoStringIsNotCode) {
  const Split s = SplitText("```python title=x\nimport torch\n```\n~~~ {.cpp}\nint x;\n~~~\n");
  EXPECT_EQ(s.prose, "");
  EXPECT_EQ(s.code, "import torch\nint x;\n");
}

TEST(MarkdownSplitterTest, AppendsToExistingOutput) {
  std::string prose = "P:";
  std::string code = "C:";
  SplitMarkdown("x\n```\ny\n```", prose, code);
  EXPECT_EQ(prose, "P:x\n");
  EXPECT_EQ(code, "C:y\n");
}

TEST(MarkdownSplitterTest, IndentedUpToThreeSpacesIsAFence) {
  const Split s = SplitText("   ```\ncode\n   ```\ntext\n");
  EXPECT_EQ(s.prose, "text\n");
  EXPECT_EQ(s.code, "code\n");
  const Split one = SplitText(" ~~~\ncode\n  ~~~\n");
  EXPECT_EQ(one.prose, "");
  EXPECT_EQ(one.code, "code\n");
}

TEST(MarkdownSplitterTest, FourSpacesIsNotAFence) {
  const Split s = SplitText("    ```\nnot code\n    ```\n");
  EXPECT_EQ(s.prose, "    ```\nnot code\n    ```\n");
  EXPECT_EQ(s.code, "");
  // Inside a block, a closing fence indented by four spaces is content.
  const Split inner = SplitText("```\na\n    ```\nb\n```\nc\n");
  EXPECT_EQ(inner.code, "a\n    ```\nb\n");
  EXPECT_EQ(inner.prose, "c\n");
}

TEST(MarkdownSplitterTest, TwoMarkersAreNotAFence) {
  const Split s = SplitText("``\nx\n``\n~~\n");
  EXPECT_EQ(s.prose, "``\nx\n``\n~~\n");
  EXPECT_EQ(s.code, "");
}

TEST(MarkdownSplitterTest, ClosingFenceMustUseTheSameCharacter) {
  const Split s = SplitText("```\na\n~~~\nb\n```\nc\n");
  EXPECT_EQ(s.code, "a\n~~~\nb\n");
  EXPECT_EQ(s.prose, "c\n");
  const Split t = SplitText("~~~\na\n```\n~~~\nc\n");
  EXPECT_EQ(t.code, "a\n```\n");
  EXPECT_EQ(t.prose, "c\n");
}

TEST(MarkdownSplitterTest, ClosingFenceMustBeAtLeastAsLong) {
  const Split s = SplitText("````\na\n```\nb\n`````\nc\n");
  EXPECT_EQ(s.code, "a\n```\nb\n");
  EXPECT_EQ(s.prose, "c\n");
}

TEST(MarkdownSplitterTest, ClosingFenceTakesOnlySpacesAfterIt) {
  const Split s = SplitText("```\na\n``` not closed\nb\n```   \nc\n");
  EXPECT_EQ(s.code, "a\n``` not closed\nb\n");
  EXPECT_EQ(s.prose, "c\n");
}

TEST(MarkdownSplitterTest, UnclosedFenceRunsToTheEnd) {
  const Split s = SplitText("intro\n```\nline 1\nline 2");
  EXPECT_EQ(s.prose, "intro\n");
  EXPECT_EQ(s.code, "line 1\nline 2\n");
}

TEST(MarkdownSplitterTest, CrLfLineEndings) {
  const Split s = SplitText("before\r\n```py\r\nx = 1\r\n```\r\nafter\r\n");
  EXPECT_EQ(s.prose, "before\nafter\n");
  EXPECT_EQ(s.code, "x = 1\n");
}

TEST(MarkdownSplitterTest, BacktickInInfoStringIsNotAFence) {
  const Split s = SplitText("```a`b\nstill prose\n");
  EXPECT_EQ(s.prose, "```a`b\nstill prose\n");
  EXPECT_EQ(s.code, "");
  // Inline code that starts a line is prose too.
  const Split inline_code = SplitText("```x``` is inline\nmore\n");
  EXPECT_EQ(inline_code.prose, "```x``` is inline\nmore\n");
  EXPECT_EQ(inline_code.code, "");
}

TEST(MarkdownSplitterTest, TildeFenceMayHaveBackticksInItsInfoString) {
  const Split s = SplitText("~~~ a`b\ncode\n~~~\n");
  EXPECT_EQ(s.prose, "");
  EXPECT_EQ(s.code, "code\n");
}

TEST(MarkdownSplitterTest, SeveralBlocks) {
  const Split s = SplitText("p1\n```\nc1\n```\np2\n~~~~\nc2\n~~~~\np3");
  EXPECT_EQ(s.prose, "p1\np2\np3\n");
  EXPECT_EQ(s.code, "c1\nc2\n");
}

TEST(MarkdownSplitterTest, EmptyLinesArePreserved) {
  const Split s = SplitText("a\n\nb\n```\n\n```\n");
  EXPECT_EQ(s.prose, "a\n\nb\n");
  EXPECT_EQ(s.code, "\n");
}

// HTML comments: GitHub does not show them, and templates keep their instructions in them.

TEST(MarkdownSplitterTest, ACommentInsideALineIsLeftOut) {
  const Split s = SplitText("slow <!-- say how slow --> on GPU\n");
  EXPECT_EQ(s.prose, "slow  on GPU\n");
  EXPECT_EQ(s.code, "");
}

TEST(MarkdownSplitterTest, ACommentOverSeveralLinesLeavesNoLines) {
  const Split s = SplitText("## Feature\n<!-- Is your feature request\nrelated to a problem? -->\nAdd a flag.\n");
  EXPECT_EQ(s.prose, "## Feature\nAdd a flag.\n");
}

TEST(MarkdownSplitterTest, TextAfterACommentClosesOnItsLineIsKept) {
  const Split s = SplitText("a\n<!-- one\ntwo --> kept\nb\n");
  EXPECT_EQ(s.prose, "a\n kept\nb\n");
}

TEST(MarkdownSplitterTest, SeveralCommentsOnOneLine) {
  const Split s = SplitText("<!--x-->a<!--y-->b<!--z-->\n");
  EXPECT_EQ(s.prose, "ab\n");
}

TEST(MarkdownSplitterTest, AnUnclosedCommentBlockHidesTheRest) {
  const Split s = SplitText("kept\n   <!-- never closed\nhidden\n```\nhidden code\n```\n");
  EXPECT_EQ(s.prose, "kept\n");
  EXPECT_EQ(s.code, "");
}

TEST(MarkdownSplitterTest, AnUnclosedOpenerInsideALineIsText) {
  const Split s = SplitText("use <!-- to start a comment\nnext\n");
  EXPECT_EQ(s.prose, "use <!-- to start a comment\nnext\n");
}

TEST(MarkdownSplitterTest, FencesInsideACommentAreNotCode) {
  const Split s = SplitText("<!--\n```\nnot code\n```\n-->\nafter\n");
  EXPECT_EQ(s.prose, "after\n");
  EXPECT_EQ(s.code, "");
}

TEST(MarkdownSplitterTest, ACommentInsideFencedCodeIsCode) {
  const Split s = SplitText("```html\n<!-- markup -->\n```\ntext\n");
  EXPECT_EQ(s.prose, "text\n");
  EXPECT_EQ(s.code, "<!-- markup -->\n");
}

TEST(MarkdownSplitterTest, ACommentClosingOnAFenceLikeLineDoesNotOpenAFence) {
  const Split s = SplitText("<!-- x\n--> ```\nprose\n");
  EXPECT_EQ(s.prose, " ```\nprose\n");
  EXPECT_EQ(s.code, "");
}

// Section headings with nothing under them: a template's question the reporter left empty.

TEST(MarkdownSplitterTest, AnEmptySectionsHeadingIsLeftOut) {
  const Split s = SplitText("## Bug\nslow on GPU\n\n## Expected behavior\n<!-- what you expected -->\n\n"
                            "## Environment\n- OS: Linux\n");
  EXPECT_EQ(s.prose, "## Bug\nslow on GPU\n\n\n## Environment\n- OS: Linux\n");
}

TEST(MarkdownSplitterTest, ASectionOfCodeAloneIsFilled) {
  const Split s = SplitText("## To Reproduce\n```\nx = 1\n```\n## Expected behavior\n");
  EXPECT_EQ(s.prose, "## To Reproduce\n");
  EXPECT_EQ(s.code, "x = 1\n");
}

TEST(MarkdownSplitterTest, ASectionHoldsItsSubsections) {
  // "Report" holds "Steps", which is filled; "Details" is empty; "Notes" ends the text empty.
  const Split s = SplitText("# Report\n## Details\n## Steps\n1. run\n# Notes\n");
  EXPECT_EQ(s.prose, "# Report\n## Steps\n1. run\n");
}

TEST(MarkdownSplitterTest, BoldLinesAreTheLowestHeadings) {
  const Split s = SplitText("**Describe the current behavior**\nit returns 0\n**Describe the expected behavior**\n\n"
                            "**Code to reproduce**:\n## Other\ntext\n");
  EXPECT_EQ(s.prose, "**Describe the current behavior**\nit returns 0\n\n## Other\ntext\n");
}

TEST(MarkdownSplitterTest, LinesThatAreNotHeadingsStay) {
  // A hashtag, seven hashes, bold words in a sentence, two bold runs: none is a heading.
  const std::string text = "#hashtag\n####### seven\n**slow** on GPU\n**a** and **b**\n";
  EXPECT_EQ(SplitText(text).prose, text);
  // A heading as the last line, with nothing after it, goes; one indented four spaces is text.
  EXPECT_EQ(SplitText("text\n    # not a heading\n### Additional context\n").prose, "text\n    # not a heading\n");
}

TEST(MarkdownSplitterTest, WhatIsLeftOutIsRecorded) {
  std::string prose, code;
  ProseLeftOut left_out;
  SplitMarkdown("a <!-- x --> b\n<!--\nblock\n-->\n## Empty\n## Filled\ntext\n```\ncode\n```\n", prose, code, left_out);
  EXPECT_EQ(prose, "a  b\n## Filled\ntext\n");
  EXPECT_EQ(left_out.comments, 2u);
  EXPECT_EQ(left_out.empty_headings, std::vector<std::string>{"## Empty"});
  EXPECT_TRUE(left_out.prompts.empty());
  // The same text without the record gives the same prose.
  std::string plain, plain_code;
  SplitMarkdown("a <!-- x --> b\n<!--\nblock\n-->\n## Empty\n## Filled\ntext\n```\ncode\n```\n", plain, plain_code);
  EXPECT_EQ(plain, prose);
  EXPECT_EQ(plain_code, code);
}

TEST(MarkdownSplitterTest, ManyEmptyHeadingsTakeLinearTime) {
  // 200,000 empty headings between lines of text: erasing each apart would move the rest of the
  // text every time, about 10^11 bytes here.
  std::string text, expected;
  for (int i = 0; i < 200000; ++i) {
    text += "## empty\n## filled\ntext " + std::to_string(i) + "\n";
    expected += "## filled\ntext " + std::to_string(i) + "\n";
  }
  EXPECT_EQ(SplitText(text).prose, expected);
}

TEST(MarkdownSplitterTest, ManyUnclosedOpenersTakeLinearTime) {
  // 200,000 lines of text with an opener each and no `-->`: each is literal text. A search of the
  // rest of the text per opener would compare about 10^11 bytes here.
  std::string text;
  for (int i = 0; i < 200000; ++i) text += "a <!-- b\n";
  const Split s = SplitText(text);
  EXPECT_EQ(s.prose, text);
  EXPECT_EQ(s.code, "");
}

}  // namespace
}  // namespace ghsift
