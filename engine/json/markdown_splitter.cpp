#include "json/markdown_splitter.hpp"

namespace ghsift {
namespace {

struct Fence {
  char marker = 0;    //!< '`' or '~'; 0 = not a fence
  size_t length = 0;  //!< run length of the marker
  std::string_view rest;
};

Fence ReadFence(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && i < 4 && line[i] == ' ') ++i;
  if (i > 3 || i >= line.size()) return {};
  const char marker = line[i];
  if (marker != '`' && marker != '~') return {};
  size_t run = 0;
  while (i + run < line.size() && line[i + run] == marker) ++run;
  if (run < 3) return {};
  return {marker, run, line.substr(i + run)};
}

bool OnlySpaces(std::string_view s) {
  for (char c : s) {
    if (c != ' ' && c != '\t') return false;
  }
  return true;
}

}  // namespace

void SplitMarkdown(std::string_view text, std::string& prose, std::string& code) {
  Fence open;  // the fence of the block we are in, if any
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    start = end + 1;

    const Fence fence = ReadFence(line);
    if (open.marker == 0) {
      const bool valid_open = fence.marker != 0 &&
                              (fence.marker == '~' || fence.rest.find('`') == std::string_view::npos);
      if (valid_open) {
        open = fence;
        continue;
      }
      prose.append(line);
      prose.push_back('\n');
    } else {
      if (fence.marker == open.marker && fence.length >= open.length && OnlySpaces(fence.rest)) {
        open = {};
        continue;
      }
      code.append(line);
      code.push_back('\n');
    }
  }
}

}  // namespace ghsift
