#pragma once
// "Did you mean ...?": the valid value closest to a mistyped one, and the lists of valid values,
// for error messages.
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace ghsift {

//! Edit distance (insertions, deletions, substitutions), compared case-insensitively.
size_t EditDistance(std::string_view a, std::string_view b);

//! The candidate closest to `wanted`: one that starts with or contains it (`perf` ->
//! `performance`, `tensorflow` -> `tensorflow/tensorflow`), else one within a third of its length
//! (plus one) in edits. "" when none is close enough to be a useful guess.
std::string ClosestName(std::string_view wanted, const std::vector<std::string>& candidates);

//! " (did you mean X?)" with ClosestName's X, for the end of a message; "" when none is close.
std::string DidYouMean(std::string_view wanted, const std::vector<std::string>& candidates);

//! "a, b, c" (at most `max` items, then ", ... (N in all)").
std::string JoinNames(const std::vector<std::string>& names, size_t max = 30);

//! "a, b or c": every choice a message offers (strings or string_views, any container).
template <typename Names>
std::string JoinChoices(const Names& names) {
  std::string out;
  size_t i = 0;
  for (const auto& name : names) {
    out += i == 0 ? "" : i + 1 == std::size(names) ? " or " : ", ";
    out += std::string_view(name);
    ++i;
  }
  return out;
}

}  // namespace ghsift
