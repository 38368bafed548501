#include "terminal_stdout.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>

#include "common/terminal_safe.hpp"

namespace ghsift::cli {

namespace {

// std::cout's own buffer, taken when the program starts (<iostream> above constructs std::cout
// before this): a command whose std::cout another buffer has taken (the Python module captures
// the tables it turns into frames) writes there, exactly, whatever file descriptor 1 is.
std::streambuf* const kStandardOutput = std::cout.rdbuf();

}  // namespace

//! Gathers a line, writes it made terminal-safe with its newline; what is left at the end is
//! written when the filter is flushed.
class EscapedOnATerminal::LineFilter : public std::streambuf {
 public:
  explicit LineFilter(std::streambuf* to) : to_(to) {}

  bool changed() const { return changed_; }

  void Finish() {
    WriteLine();
    to_->pubsync();
  }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    if (traits_type::to_char_type(c) == '\n') {
      WriteLine();
      to_->sputc('\n');
    } else {
      line_.push_back(traits_type::to_char_type(c));
    }
    return c;
  }

  std::streamsize xsputn(const char* data, std::streamsize n) override {
    for (std::streamsize i = 0; i < n; ++i) overflow(traits_type::to_int_type(data[i]));
    return n;
  }

  int sync() override {
    return to_->pubsync();  // a partial line waits for its end: an escape is not cut in two
  }

 private:
  void WriteLine() {
    if (line_.empty()) return;
    const std::string safe = TerminalSafe(line_);
    changed_ = changed_ || safe != line_;
    to_->sputn(safe.data(), static_cast<std::streamsize>(safe.size()));
    line_.clear();
  }

  std::streambuf* to_;
  std::string line_;
  bool changed_ = false;
};

EscapedOnATerminal::EscapedOnATerminal() {
  if (std::cout.rdbuf() != kStandardOutput || ::isatty(STDOUT_FILENO) != 1) return;
  original_ = std::cout.rdbuf();
  filter_ = std::make_unique<LineFilter>(original_);
  std::cout.rdbuf(filter_.get());
}

EscapedOnATerminal::~EscapedOnATerminal() {
  if (filter_ == nullptr) return;
  std::cout.flush();
  filter_->Finish();
  std::cout.rdbuf(original_);
  if (filter_->changed()) {
    std::fprintf(stderr, "ghsift: text a terminal would act on (control characters, bidi overrides) is shown "
                         "escaped, as \\x1b; write to a file or a pipe for the exact text\n");
  }
}

}  // namespace ghsift::cli
