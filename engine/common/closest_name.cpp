#include "common/closest_name.hpp"

#include <algorithm>

#include "common/ascii_case.hpp"

namespace ghsift {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      const size_t substitution = AsciiLower(a[i - 1]) == AsciiLower(b[j - 1]) ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + substitution});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string ClosestName(std::string_view wanted, const std::vector<std::string>& candidates) {
  if (wanted.empty()) return "";
  const std::string lower = AsciiLower(wanted);
  // A prefix or a part of a name is the likeliest intent; the shortest such name is the guess.
  const std::string* best_part = nullptr;
  for (const std::string& c : candidates) {
    if (AsciiLower(c).find(lower) != std::string::npos && (!best_part || c.size() < best_part->size())) best_part = &c;
  }
  if (best_part) return *best_part;
  const std::string* best = nullptr;
  size_t best_distance = wanted.size() / 3 + 2;  // at most a third of the length, plus one edit
  for (const std::string& c : candidates) {
    // A name of parts (performance/memory, owner/name) is also near by its last part alone.
    const size_t slash = c.rfind('/');
    const size_t d = slash == std::string::npos || wanted.find('/') != std::string_view::npos
                         ? EditDistance(wanted, c)
                         : std::min(EditDistance(wanted, c), EditDistance(wanted, std::string_view(c).substr(slash + 1)));
    if (d < best_distance) {
      best_distance = d;
      best = &c;
    }
  }
  return best ? *best : "";
}

std::string DidYouMean(std::string_view wanted, const std::vector<std::string>& candidates) {
  const std::string closest = ClosestName(wanted, candidates);
  return closest.empty() ? "" : " (did you mean " + closest + "?)";
}

std::string JoinNames(const std::vector<std::string>& names, size_t max) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < max; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > max) out += ", ... (" + std::to_string(names.size()) + " in all)";
  return out;
}

}  // namespace ghsift
