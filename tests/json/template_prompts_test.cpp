#include "json/template_prompts.hpp"

#include <gtest/gtest.h>

#include <string>

#include "json/markdown_splitter.hpp"

namespace ghsift {
namespace {

std::string Erased(std::string text, size_t from = 0) {
  EraseTemplatePrompts(text, from);
  return text;
}

TEST(TemplatePromptsTest, EachPromptGoesAndNothingElse) {
  for (const TemplatePrompt& p : kTemplatePrompts) {
    const std::string text = "before " + std::string(p.text) + ": answer\n";
    EXPECT_EQ(Erased(text), "before : answer\n") << p.text;
    EXPECT_EQ(Erased(std::string(p.text) + std::string(p.text)), "") << p.text;
  }
}

TEST(TemplatePromptsTest, TextWithoutAPromptIsUnchanged) {
  EXPECT_EQ(Erased(""), "");
  EXPECT_EQ(Erased("short"), "short");
  // Matched verbatim: another case or a prompt cut short is the reporter's text.
  EXPECT_EQ(Erased("INSTEAD OF FILING A GITHUB ISSUE"), "INSTEAD OF FILING A GITHUB ISSUE");
  EXPECT_EQ(Erased("it returns 0 instead of filing a GitHub iss"), "it returns 0 instead of filing a GitHub iss");
}

TEST(TemplatePromptsTest, OnlyFromTheGivenOffset) {
  const std::string prompt(kTemplatePrompts[2].text);
  EXPECT_EQ(Erased(prompt + "|" + prompt, prompt.size()), prompt + "|");
}

// How SplitMarkdown reads a text names the list, so an edit of it changes the scan digest of every
// rule reading markdown (a store read with the old list is not taken as read alike).
TEST(TemplatePromptsTest, TheMarkdownReadingNamesTheList) {
  EXPECT_EQ(TemplatePromptsDigest().size(), 16u);
  EXPECT_NE(MarkdownReading().find("template-prompts-out:" + TemplatePromptsDigest()), std::string::npos);
}

TEST(TemplatePromptsTest, SplitMarkdownLeavesPromptsOutOfProseNotOutOfCode) {
  const std::string prompt(kTemplatePrompts[1].text);
  std::string prose, code;
  SplitMarkdown("- " + prompt + ": Android 10\n```\n" + prompt + "\n```\n", prose, code);
  EXPECT_EQ(prose, "- : Android 10\n");
  EXPECT_EQ(code, prompt + "\n");
}

}  // namespace
}  // namespace ghsift
