#pragma once
// Sentences that projects' issue templates print in every report filed with them, and that name a
// topic the reporter did not: the TensorFlow bug template's policy line says "performance issues"
// in every bug report, its system-information list asks about a "mobile device" in every report.
// Rules read what the reporter wrote, so SplitMarkdown leaves these out of the prose, as it leaves
// out the HTML comments templates hide their other instructions in. Only the prompt goes: an
// answer written after it on the same line ("...on mobile device: Android 10") stays.
//
// kTemplatePrompts is the one list. A prompt is matched verbatim (case and spaces as the
// template prints them) within one line; keep each to the part that carries the topic words,
// so that a template's re-wrapped versions still hold it on one line. Section headings
// ("Describe the expected behavior") are not prompts: the reporter fills the section.
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace ghsift {

struct TemplatePrompt {
  std::string_view project;  //!< whose template prints it
  std::string_view text;     //!< verbatim, on one line
  std::string_view names;    //!< what it made the rules read (why it is here)
};

inline constexpr std::array<TemplatePrompt, 7> kTemplatePrompts = {{
    {"tensorflow", "we only address code/doc bugs, performance issues, feature requests and",
     "performance, in every bug report"},
    {"tensorflow", "Mobile device (e.g. iPhone 8, Pixel 2, Samsung Galaxy) if the issue happens on mobile device",
     "stage deployment (mobile), in every report"},
    {"keras", "instead of filing a GitHub issue", "silent (\"instead of\": expected against actual)"},
    {"keras", "instead of opening a GitHub issue", "silent (\"instead of\": expected against actual)"},
    {"caffe", "If you are having difficulty building Caffe or training a model, please ask the caffe-users mailing list.",
     "stage training and build"},
    {"caffe", "If you are reporting a build error that seems to be due to a bug in Caffe, please attach your build",
     "stage build (\"build error\")"},
    {"mxnet", "error message, including stack trace", "info traceback, where none was pasted"},
}};

//! A name for kTemplatePrompts as it stands (a digest of every prompt's text): part of how
//! SplitMarkdown reads a text (MarkdownReading()), so that an edit of the list changes the scan
//! digest of every rule that reads markdown.
const std::string& TemplatePromptsDigest();

//! Removes every prompt of kTemplatePrompts from `text[from..]`, in place; with `erased`, adds
//! the text of each prompt found there (once each).
void EraseTemplatePrompts(std::string& text, size_t from, std::vector<std::string_view>* erased = nullptr);

}  // namespace ghsift
