#pragma once
// Splits a markdown text into prose and fenced code, the `body`/`comment` and `code` fields.
#include <string>
#include <string_view>

namespace ghsift {

//! Appends the lines outside fenced code blocks to `prose` and the lines inside them to `code`,
//! each followed by '\n'. Fences follow CommonMark: a line of at least three ` or ~ characters
//! indented by at most three spaces opens a block (a backtick fence's info string may not hold
//! a backtick); a fence of the same character, at least as long, with nothing but spaces after
//! it, closes it; an unclosed block runs to the end of the text. Fence lines themselves are in
//! neither output.
void SplitMarkdown(std::string_view text, std::string& prose, std::string& code);

}  // namespace ghsift
