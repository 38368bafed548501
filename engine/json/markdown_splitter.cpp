#include "json/markdown_splitter.hpp"

#include "json/template_prompts.hpp"

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

constexpr std::string_view kCommentOpen = "<!--";
constexpr std::string_view kCommentClose = "-->";

//! Whether `line` opens an HTML block with a comment: `<!--` after at most three spaces.
bool OpensCommentBlock(std::string_view line, size_t open_at) {
  return open_at <= 3 && OnlySpaces(line.substr(0, open_at));
}

}  // namespace

const std::string& MarkdownReading() {
  static const std::string reading = "fences,html-comments-out,template-prompts-out:" + TemplatePromptsDigest();
  return reading;
}

void SplitMarkdown(std::string_view text, std::string& prose, std::string& code) {
  const size_t prose_from = prose.size();
  Fence open;               // the fence of the block we are in, if any
  bool in_comment = false;  // inside an HTML comment that began on an earlier line
  // Whether a `-->` comes at or after `from`: one search from the end of the text, made the first
  // time it is asked (a search of the rest per opener would take quadratic time on a text of
  // many unclosed openers).
  size_t last_close = std::string_view::npos;
  bool last_close_known = false;
  const auto CloseFollows = [&](size_t from) {
    if (!last_close_known) {
      last_close = text.rfind(kCommentClose);
      last_close_known = true;
    }
    return last_close != std::string_view::npos && last_close >= from;
  };
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    start = end + 1;

    if (in_comment) {
      const size_t close = line.find(kCommentClose);
      if (close == std::string_view::npos) continue;
      in_comment = false;
      line.remove_prefix(close + kCommentClose.size());
      if (OnlySpaces(line)) continue;
    } else if (open.marker == 0) {
      const Fence fence = ReadFence(line);
      const bool valid_open = fence.marker != 0 &&
                              (fence.marker == '~' || fence.rest.find('`') == std::string_view::npos);
      if (valid_open) {
        open = fence;
        continue;
      }
    } else {
      const Fence fence = ReadFence(line);
      if (fence.marker == open.marker && fence.length >= open.length && OnlySpaces(fence.rest)) {
        open = {};
        continue;
      }
      code.append(line);
      code.push_back('\n');
      continue;
    }

    // Prose, less its HTML comments: GitHub shows none of them, and issue templates keep their
    // instructions there ("Is your feature request related to a problem?"), which are the
    // form's words, not the reporter's.
    const size_t kept_from = prose.size();
    bool had_comment = false;
    size_t at = 0;
    while (at < line.size()) {
      const size_t open_at = line.find(kCommentOpen, at);
      if (open_at == std::string_view::npos) {
        prose.append(line.substr(at));
        break;
      }
      prose.append(line.substr(at, open_at - at));
      had_comment = true;
      const size_t close = line.find(kCommentClose, open_at + kCommentOpen.size());
      if (close != std::string_view::npos) {
        at = close + kCommentClose.size();
        continue;
      }
      // Unclosed on this line. A comment block runs to its `-->` or to the end of the text; a
      // comment inside a line of text needs its `-->` somewhere after it, else it is literal text.
      if (OpensCommentBlock(line, open_at) || CloseFollows(start)) {
        in_comment = true;
      } else {
        had_comment = false;
        prose.append(line.substr(open_at));
      }
      break;
    }
    // A line that was all comment (and spaces) leaves no line behind.
    if (had_comment && OnlySpaces(std::string_view(prose).substr(kept_from))) {
      prose.resize(kept_from);
      continue;
    }
    prose.push_back('\n');
  }
  EraseTemplatePrompts(prose, prose_from);
}

}  // namespace ghsift
