#include "json/template_prompts.hpp"

#include <algorithm>
#include <functional>
#include <vector>

#include "common/short_digest.hpp"

namespace ghsift {
namespace {

using Searcher = std::boyer_moore_horspool_searcher<std::string_view::const_iterator>;

//! One searcher per prompt, made once: a prompt is 30 to 100 characters, so a search skips about
//! that many bytes a step and the prompts cost little beside the rules' scan of the same text.
const std::vector<Searcher>& Searchers() {
  static const std::vector<Searcher> searchers = [] {
    std::vector<Searcher> made;
    for (const TemplatePrompt& p : kTemplatePrompts) made.emplace_back(p.text.begin(), p.text.end());
    return made;
  }();
  return searchers;
}

size_t ShortestPrompt() {
  size_t shortest = std::string_view::npos;
  for (const TemplatePrompt& p : kTemplatePrompts) shortest = std::min(shortest, p.text.size());
  return shortest;
}

}  // namespace

const std::string& TemplatePromptsDigest() {
  static const std::string digest = [] {
    std::string all;
    for (const TemplatePrompt& p : kTemplatePrompts) {
      all += p.text;
      all += '\0';
    }
    return ShortDigest(all);
  }();
  return digest;
}

void EraseTemplatePrompts(std::string& text, size_t from, std::vector<std::string_view>* erased) {
  static const size_t shortest = ShortestPrompt();
  if (from >= text.size() || text.size() - from < shortest) return;
  const std::vector<Searcher>& searchers = Searchers();
  for (size_t i = 0; i < kTemplatePrompts.size(); ++i) {
    size_t at = from;
    while (at < text.size()) {
      const std::string_view rest(text.data() + at, text.size() - at);
      const auto found = std::search(rest.begin(), rest.end(), searchers[i]);
      if (found == rest.end()) break;
      const size_t pos = at + static_cast<size_t>(found - rest.begin());
      text.erase(pos, kTemplatePrompts[i].text.size());
      if (erased != nullptr && std::find(erased->begin(), erased->end(), kTemplatePrompts[i].text) == erased->end()) {
        erased->push_back(kTemplatePrompts[i].text);
      }
      at = pos;
    }
  }
}

}  // namespace ghsift
