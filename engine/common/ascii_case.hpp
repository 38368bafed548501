#pragma once
// Case folding of ASCII letters only, the one set of case helpers of the codebase.
//
// Why ASCII and not std::tolower: what ghsift folds is names GitHub compares without case
// (repositories, logins) and URL schemes, all ASCII; std::tolower follows the
// process locale, so a folded key written to the store could differ between two runs.
#include <algorithm>
#include <string>
#include <string_view>

namespace ghsift {

inline char AsciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

inline std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = AsciiLower(c);
  return out;
}

inline bool EqualsAnyCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return AsciiLower(x) == AsciiLower(y); });
}

inline bool StartsWithAnyCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && EqualsAnyCase(s.substr(0, prefix.size()), prefix);
}

}  // namespace ghsift
