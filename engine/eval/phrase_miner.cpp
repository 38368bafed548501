#include "eval/phrase_miner.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace ghsift {
namespace {

bool WordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Phrases made of these alone say nothing a rule could use.
bool Stopword(const std::string& w) {
  static const std::unordered_set<std::string> kWords = {
      "a",   "an",   "the",  "of",   "to",   "in",  "on",   "at",  "for",  "with", "by",   "from", "and",
      "or",  "is",   "are",  "was",  "were", "be",  "been", "it",  "its",  "this", "that", "i",    "we",
      "you", "my",   "our",  "as",   "if",   "when", "but", "so",  "do",   "does", "have", "has",  "can",
      "not", "there", "here", "me",  "he",   "she", "they", "them", "what", "which", "how", "all", "any"};
  return kWords.count(w) > 0;
}

}  // namespace

bool UninformativeWord(const std::string& w) {
  return Stopword(w) || std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::vector<std::vector<std::string>> WordRuns(std::string_view text) {
  std::vector<std::vector<std::string>> runs(1);
  size_t i = 0;
  bool broken = false;  // something other than whitespace since the last word
  while (i < text.size()) {
    if (WordChar(text[i])) {
      size_t j = i;
      while (j < text.size() && WordChar(text[j])) ++j;
      if (broken && !runs.back().empty()) runs.emplace_back();
      std::string word(text.substr(i, j - i));
      for (char& c : word) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
      runs.back().push_back(std::move(word));
      broken = false;
      i = j;
    } else {
      const char c = text[i];
      // Whitespace as the pattern's \s reads it (space, \t, \n, \v, \f, \r).
      if (c != ' ' && (c < '\t' || c > '\r')) broken = true;
      ++i;
    }
  }
  if (runs.back().empty()) runs.pop_back();
  return runs;
}

std::string PhrasePattern(const std::string& phrase) {
  std::string pattern = "\\b";
  for (char c : phrase) {
    if (c == ' ') {
      pattern += "\\s+";
    } else {
      if (!WordChar(c)) pattern += '\\';  // words hold [a-z0-9_] only; escaped should that change
      pattern += c;
    }
  }
  return pattern + "\\b";
}

std::vector<PhraseStat> MinePhrases(const std::vector<std::string_view>& texts, const std::vector<int>& label,
                                    const std::vector<char>& unmatched, const PhraseOptions& options) {
  struct Counts {
    int64_t positive = 0, negative = 0, unmatched = 0;
  };
  std::unordered_map<std::string, Counts> counts;
  for (size_t i = 0; i < texts.size(); ++i) {
    if (label[i] != 0 && label[i] != 1) continue;
    std::set<std::string> seen;  // a report counts once per phrase
    for (const auto& run : WordRuns(texts[i])) {
      for (size_t start = 0; start < run.size(); ++start) {
        std::string phrase;
        bool informative = false;
        for (size_t n = 0; n < static_cast<size_t>(options.max_words) && start + n < run.size(); ++n) {
          const std::string& w = run[start + n];
          phrase += (n ? " " : "") + w;
          informative |= !UninformativeWord(w);
          if (informative) seen.insert(phrase);
        }
      }
    }
    for (const std::string& phrase : seen) {
      Counts& c = counts[phrase];
      (label[i] == 1 ? c.positive : c.negative) += 1;
      if (label[i] == 1 && unmatched[i]) ++c.unmatched;
    }
  }
  double n_pos = 0, n_neg = 0;
  for (const auto& [phrase, c] : counts) n_pos += c.positive, n_neg += c.negative;
  const double n_all = n_pos + n_neg, alpha0 = options.prior_scale * n_all;
  std::vector<PhraseStat> out;
  for (const auto& [phrase, c] : counts) {
    if (c.positive < options.min_positive) continue;
    const double alpha = alpha0 * static_cast<double>(c.positive + c.negative) / n_all;
    const double yp = static_cast<double>(c.positive), yn = static_cast<double>(c.negative);
    const double delta = std::log((yp + alpha) / (n_pos + alpha0 - yp - alpha)) -
                         std::log((yn + alpha) / (n_neg + alpha0 - yn - alpha));
    const double z = delta / std::sqrt(1.0 / (yp + alpha) + 1.0 / (yn + alpha));
    if (z <= 0) continue;
    out.push_back({phrase, c.positive, c.negative, c.unmatched, delta, z});
  }
  std::sort(out.begin(), out.end(), [](const PhraseStat& a, const PhraseStat& b) {
    return a.z != b.z ? a.z > b.z : a.phrase < b.phrase;
  });
  return out;
}

}  // namespace ghsift
