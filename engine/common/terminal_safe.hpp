#pragma once
// Untrusted text (a report's title or label, a file name, a repository name) made safe to show to
// a person: on a terminal, in a table, in an HTML or Markdown report. What a terminal would act on
// instead of drawing, or what hides or reorders text, is written as a visible escape; the one
// convention every human-facing output of ghsift follows. Machine formats (csv, json, jsonl)
// keep the exact text instead.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ghsift {

//! Report text (a title, a label, a body line) made safe to show to a person: what a terminal
//! would act on instead of drawing is written as a visible escape. That is C0 controls and DEL
//! (\t, \n, \r, \x1b, \x07, \x7f), C1 controls (\u009b), the bidi overrides, embeddings,
//! isolates and marks that reorder what follows (\u202e, \u2066, \u200f, ...), and invisible
//! format characters that hide text (zero-width space, word joiner, BOM, tag characters, ...).
//! Bytes that are not UTF-8 are shown as \xNN. Valid text is kept as it is, including the
//! zero-width (non-)joiners that emoji and several scripts need. The result holds only printable
//! text, so applying it twice changes nothing.
std::string TerminalSafe(std::string_view text);
//! Whether `text` is all printable ASCII: TerminalSafe leaves it as it is.
bool IsPrintableAscii(std::string_view text);
//! Whether a terminal acts on or hides code point `cp` instead of drawing it: the C1 controls,
//! bidi controls and invisible format characters that TerminalSafe escapes (C0 and DEL aside).
bool IsHiddenCodePoint(uint32_t cp);
//! Length of the valid UTF-8 sequence at text[at], with its code point in `cp`; 0 when the bytes
//! there are not UTF-8 (a stray continuation byte, an overlong form, a surrogate, a cut sequence).
size_t DecodeUtf8(std::string_view text, size_t at, uint32_t& cp);

}  // namespace ghsift
