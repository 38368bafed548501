#include "json/markdown_splitter.hpp"

#include "json/template_prompts.hpp"

#include <algorithm>
#include <utility>
#include <vector>

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

//! The level of a section heading, 0 when `line` is none: 1-6 for an ATX heading ("## Expected
//! behavior"), 7 for a line that is all bold text, as templates write their questions
//! ("**Describe the current behavior**", with or without a colon).
int HeadingLevel(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  line.remove_prefix(i);
  size_t hashes = 0;
  while (hashes < line.size() && line[hashes] == '#') ++hashes;
  if (hashes >= 1 && hashes <= 6 && (hashes == line.size() || line[hashes] == ' ' || line[hashes] == '\t')) {
    return static_cast<int>(hashes);
  }
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  if (!line.empty() && line.back() == ':') line.remove_suffix(1);
  constexpr std::string_view kBold = "**";
  if (line.size() > 2 * kBold.size() && line.starts_with(kBold) && line.ends_with(kBold) &&
      line.substr(kBold.size(), line.size() - 2 * kBold.size()).find(kBold) == std::string_view::npos) {
    return 7;
  }
  return 0;
}

//! The headings of a text whose sections hold nothing: a template's "## Expected behavior" the
//! reporter left empty is the form's words, not the reporter's, and rules read it as if the
//! reporter had described an expectation. A section runs to the next heading of its level or
//! a higher one and is filled by any prose line that is not blank or by fenced code; what an
//! HTML comment held does not count (templates keep their instructions there).
class EmptySections {
 public:
  //! A heading line of `level` kept in the prose as [begin, end).
  void Heading(int level, size_t begin, size_t end) {
    while (!open_.empty() && open_.back().level >= level) Close();
    open_.push_back({level, begin, end, false});
  }
  //! Something the reporter wrote: every open section holds it.
  void Content() {
    for (Section& s : open_) s.filled = true;
  }
  //! Erases the empty sections' headings from `prose`, in one pass over what follows the first
  //! (an erase per heading would move the rest of the text each time: quadratic in a text of
  //! many empty headings). With `erased`, adds each heading's line (without its newline).
  void EraseFrom(std::string& prose, std::vector<std::string>* erased) {
    while (!open_.empty()) Close();
    if (empty_.empty()) return;
    std::sort(empty_.begin(), empty_.end());  // disjoint lines, closed out of order
    if (erased != nullptr) {
      for (const auto& [begin, end] : empty_) erased->push_back(prose.substr(begin, end - begin - 1));
    }
    size_t write = empty_.front().first;
    for (size_t k = 0; k < empty_.size(); ++k) {
      const size_t keep_from = empty_[k].second;
      const size_t keep_to = k + 1 < empty_.size() ? empty_[k + 1].first : prose.size();
      // Forward copy onto an earlier position: std::copy allows the overlap.
      std::copy(prose.begin() + keep_from, prose.begin() + keep_to, prose.begin() + write);
      write += keep_to - keep_from;
    }
    prose.resize(write);
  }

 private:
  struct Section {
    int level;
    size_t begin, end;
    bool filled;
  };
  void Close() {
    if (!open_.back().filled) empty_.emplace_back(open_.back().begin, open_.back().end);
    open_.pop_back();
  }
  std::vector<Section> open_;
  std::vector<std::pair<size_t, size_t>> empty_;
};

}  // namespace

const std::string& MarkdownReading() {
  static const std::string reading =
      "fences,html-comments-out,empty-sections-out,template-prompts-out:" + TemplatePromptsDigest();
  return reading;
}

namespace {

void Split(std::string_view text, std::string& prose, std::string& code, ProseLeftOut* left_out) {
  const size_t prose_from = prose.size();
  Fence open;               // the fence of the block we are in, if any
  EmptySections sections;   // headings with nothing under them
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
        sections.Content();
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
      sections.Content();
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
        if (left_out != nullptr) ++left_out->comments;
        at = close + kCommentClose.size();
        continue;
      }
      // Unclosed on this line. A comment block runs to its `-->` or to the end of the text; a
      // comment inside a line of text needs its `-->` somewhere after it, else it is literal text.
      if (OpensCommentBlock(line, open_at) || CloseFollows(start)) {
        in_comment = true;
        if (left_out != nullptr) ++left_out->comments;
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
    const std::string_view kept = std::string_view(prose).substr(kept_from);
    if (const int level = HeadingLevel(kept)) {
      sections.Heading(level, kept_from, prose.size() + 1);
    } else if (!OnlySpaces(kept)) {
      sections.Content();
    }
    prose.push_back('\n');
  }
  sections.EraseFrom(prose, left_out != nullptr ? &left_out->empty_headings : nullptr);
  EraseTemplatePrompts(prose, prose_from, left_out != nullptr ? &left_out->prompts : nullptr);
}

}  // namespace

void SplitMarkdown(std::string_view text, std::string& prose, std::string& code) {
  Split(text, prose, code, nullptr);
}

void SplitMarkdown(std::string_view text, std::string& prose, std::string& code, ProseLeftOut& left_out) {
  Split(text, prose, code, &left_out);
}

}  // namespace ghsift
