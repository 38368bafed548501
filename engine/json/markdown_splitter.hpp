#pragma once
// Splits a markdown text into prose and fenced code, the `body`/`comment` and `code` fields, and
// leaves out of the prose the HTML comments GitHub does not show, the headings of sections left
// empty, and the issue templates' prompts.
#include <string>
#include <string_view>
#include <vector>

namespace ghsift {

//! Names how SplitMarkdown reads a text. It is part of the scan digest of every rule that reads a
//! markdown field or its code (decision.cpp), so that a store whose texts were read another way
//! is not taken as scanned like one read this way: change it whenever what SplitMarkdown gives
//! changes. It names the template prompts by their digest, so an edit of that list needs nothing
//! here.
const std::string& MarkdownReading();

//! Appends the lines outside fenced code blocks to `prose` and the lines inside them to `code`,
//! each followed by '\n'. Fences follow CommonMark: a line of at least three ` or ~ characters
//! indented by at most three spaces opens a block (a backtick fence's info string may not hold
//! a backtick); a fence of the same character, at least as long, with nothing but spaces after
//! it, closes it; an unclosed block runs to the end of the text. Fence lines themselves are in
//! neither output.
//! HTML comments (`<!-- ... -->`, on one line or several) outside fenced code are in neither
//! output: GitHub does not show them, and issue templates hold their instructions there. One
//! that opens a line (after at most three spaces) and never closes hides the rest of the text,
//! as a comment block does on GitHub; one inside a line of text with no `-->` after it anywhere
//! is literal text. A line that was all comment leaves no empty line in the prose.
//! A section heading with nothing under it is left out of the prose: a template's "## Expected
//! behavior" the reporter did not fill. A heading is an ATX heading ("## ...") or a line that is
//! all bold text ("**Describe the current behavior**", a colon allowed); its section runs to the
//! next heading of the same or a higher level (a bold line is the lowest) and holds something
//! when a prose line in it is not blank or it has fenced code. Comments hold nothing.
//! Issue templates' prompts that name a topic (kTemplatePrompts) are left out of the prose too:
//! the form's words, not the reporter's.
void SplitMarkdown(std::string_view text, std::string& prose, std::string& code);

//! What SplitMarkdown leaves out of a text's prose besides its fenced code: the form's words, not
//! the reporter's. `rules explain` shows it, so that a reader sees why a heading or a prompt in
//! the report matched no rule.
struct ProseLeftOut {
  size_t comments = 0;                      //!< HTML comments
  std::vector<std::string> empty_headings;  //!< headings of sections left empty, as written
  std::vector<std::string_view> prompts;    //!< template prompts (kTemplatePrompts' texts), once each
  bool empty() const { return comments == 0 && empty_headings.empty() && prompts.empty(); }
};

//! SplitMarkdown, also adding to `left_out` what it left out.
void SplitMarkdown(std::string_view text, std::string& prose, std::string& code, ProseLeftOut& left_out);

}  // namespace ghsift
