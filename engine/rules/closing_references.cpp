#include "rules/closing_references.hpp"

#include <algorithm>
#include <array>

#include "common/ascii_case.hpp"

namespace ghsift {
namespace {

constexpr std::array<std::string_view, 9> kKeywords = {"closes", "closed", "close",    "fixes",   "fixed",
                                                       "fix",    "resolves", "resolved", "resolve"};

bool WordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

//! Reads digits at `pos`; returns 0 when there are none.
int64_t ReadNumber(std::string_view text, size_t pos, size_t* end) {
  int64_t n = 0;
  size_t i = pos;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9' && i - pos < 12) n = n * 10 + (text[i++] - '0');
  *end = i;
  return i > pos && (i >= text.size() || !WordChar(text[i])) ? n : 0;
}

//! The issue number a reference at `pos` names in `repo`, or 0.
int64_t ReadReference(std::string_view text, size_t pos, std::string_view repo) {
  size_t end;
  if (pos < text.size() && text[pos] == '#') return ReadNumber(text, pos + 1, &end);
  constexpr std::string_view kUrl = "https://github.com/";
  std::string_view rest = text.substr(pos);
  if (rest.size() > kUrl.size() && EqualsAnyCase(rest.substr(0, kUrl.size()), kUrl)) {
    rest.remove_prefix(kUrl.size());
    constexpr std::string_view kIssues = "/issues/";
    if (rest.size() > repo.size() + kIssues.size() && EqualsAnyCase(rest.substr(0, repo.size()), repo) &&
        rest.substr(repo.size(), kIssues.size()) == kIssues) {
      return ReadNumber(rest, repo.size() + kIssues.size(), &end);
    }
    return 0;
  }
  if (rest.size() > repo.size() + 1 && EqualsAnyCase(rest.substr(0, repo.size()), repo) &&
      rest[repo.size()] == '#') {
    return ReadNumber(rest, repo.size() + 1, &end);
  }
  return 0;
}

}  // namespace

std::vector<int64_t> FindClosingReferences(std::string_view text, std::string_view repo) {
  std::vector<int64_t> numbers;
  for (size_t i = 0; i < text.size(); ++i) {
    if (i > 0 && WordChar(text[i - 1])) continue;
    const char c = AsciiLower(text[i]);
    if (c != 'c' && c != 'f' && c != 'r') continue;
    for (std::string_view keyword : kKeywords) {
      if (i + keyword.size() > text.size() || !EqualsAnyCase(text.substr(i, keyword.size()), keyword)) continue;
      size_t pos = i + keyword.size();
      if (pos < text.size() && WordChar(text[pos])) continue;  // "fixture", "closet"
      if (pos < text.size() && text[pos] == ':') ++pos;
      const size_t spaces = pos;
      while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
      if (pos == spaces && (pos >= text.size() || text[pos] != '#')) continue;
      if (const int64_t n = ReadReference(text, pos, repo); n > 0) numbers.push_back(n);
      break;
    }
  }
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  return numbers;
}

}  // namespace ghsift
