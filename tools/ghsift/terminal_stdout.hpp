#pragma once
// The machine formats (csv, and the JSON family for bytes JSON does not escape) keep report text
// exactly as GitHub holds it, for a file or a pipe. Read on a terminal, that text would be obeyed
// instead of shown: an escape sequence in a title clears the screen or rewrites a link. While a
// command writes such a format, EscapedOnATerminal passes standard output through TerminalSafe,
// line by line, when (and only when) it is a terminal, and says so on stderr if it changed
// anything.
#include <memory>
#include <streambuf>

namespace ghsift::cli {

class EscapedOnATerminal {
 public:
  EscapedOnATerminal();
  ~EscapedOnATerminal();
  EscapedOnATerminal(const EscapedOnATerminal&) = delete;
  EscapedOnATerminal& operator=(const EscapedOnATerminal&) = delete;

 private:
  class LineFilter;
  std::unique_ptr<LineFilter> filter_;  //!< null when standard output is no terminal
  std::streambuf* original_ = nullptr;
};

}  // namespace ghsift::cli
