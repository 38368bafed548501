#pragma once
// Builds GitHub-flavoured markdown bodies block by block, so the generator always knows
// which text is prose and which is inside a CommonMark fenced code block (the engine's
// `body`/`comment` versus `code` split depends on exactly that).
#include <string>
#include <string_view>

#include "gen/rng.hpp"

namespace ghsift::gen {

class MarkdownBuilder {
 public:
  //! `crlf` makes every line end in "\r\n", as bodies typed in a browser often do.
  explicit MarkdownBuilder(bool crlf) : nl_(crlf ? "\r\n" : "\n") {}

  //! A prose paragraph; '\n' inside `text` becomes the body's line ending.
  //! Callers never start a prose line with a fence or four spaces.
  void Paragraph(std::string_view text) {
    Separate();
    AppendLines(text);
  }

  //! A fenced block with a randomly styled fence: ``` or ~~~, length 3 or 4, indented 0-3
  //! spaces, with or without an info string. The closing fence is at least as long.
  //! `unclosed` leaves it open to the end of the body (allowed by CommonMark).
  void Fence(Rng& rng, std::string_view info, std::string_view content, bool unclosed = false) {
    const char ch = rng.Chance(0.15) ? '~' : '`';
    const int len = rng.Chance(0.1) ? 4 : 3;
    const int indent = rng.Chance(0.85) ? 0 : rng.Range(1, 3);
    FenceWith(ch, len, indent, rng.Chance(0.75) ? info : std::string_view(), content, unclosed,
              rng.Chance(0.05) ? len + 1 : len, rng.Chance(0.9) ? indent : rng.Range(0, 3));
  }

  void FenceWith(char ch, int len, int indent, std::string_view info, std::string_view content,
                 bool unclosed, int close_len, int close_indent) {
    Separate();
    out_.append(static_cast<size_t>(indent), ' ');
    out_.append(static_cast<size_t>(len), ch);
    out_.append(info);
    out_.append(nl_);
    AppendLines(content);
    if (unclosed) return;  // callers make this the last block
    out_.append(nl_);
    out_.append(static_cast<size_t>(close_indent), ' ');
    out_.append(static_cast<size_t>(close_len), ch);
  }

  bool empty() const { return out_.empty(); }
  std::string Take() { return std::move(out_); }

 private:
  void Separate() {
    if (!out_.empty()) {
      out_.append(nl_);
      out_.append(nl_);
    }
  }
  void AppendLines(std::string_view text) {
    for (const char c : text) {
      if (c == '\n') {
        out_.append(nl_);
      } else {
        out_.push_back(c);
      }
    }
  }

  std::string_view nl_;
  std::string out_;
};

}  // namespace ghsift::gen
