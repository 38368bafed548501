#pragma once
// "Did you mean ...?": the valid value closest to a mistyped one, for error messages.
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

//! "a, b, c" (at most `max` items, then ", ... (N in all)").
std::string JoinNames(const std::vector<std::string>& names, size_t max = 30);

}  // namespace ghsift
