// SplitMarkdown on arbitrary text: must not crash, and every input line ends up in prose, in
// code, or is a fence line, so the outputs can never be longer than the input plus newlines.
#include <cstdint>
#include <string>
#include <string_view>

#include "json/markdown_splitter.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string prose, code;
  ghsift::SplitMarkdown(text, prose, code);
  size_t lines = 1;
  for (char c : text) lines += c == '\n';
  if (prose.size() + code.size() > size + lines) __builtin_trap();
  return 0;
}
