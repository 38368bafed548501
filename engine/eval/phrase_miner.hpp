#pragma once
// Mines word 1-3-grams that separate positive from negative reports, ranked by the weighted
// log-odds ratio with an informative Dirichlet prior (Monroe, Colaresi and Quinn 2008, "Fightin'
// Words"): the prior is the pooled corpus' own counts, so rare phrases are shrunk toward no
// difference and the z-score ranks phrases by evidence rather than by raw ratio.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ghsift {

struct PhraseOptions {
  int max_words = 3;
  int64_t min_positive = 3;    //!< positives that must contain a phrase
  double prior_scale = 0.1;    //!< alpha0 = prior_scale * (all phrase counts)
};

struct PhraseStat {
  std::string phrase;           //!< lowercase words joined by one space
  int64_t positive = 0;         //!< positive reports containing it
  int64_t negative = 0;         //!< negative reports containing it
  int64_t unmatched_positive = 0;  //!< of `positive`, those no rule of the category matches
  double log_odds = 0;          //!< delta, positive over negative
  double z = 0;                 //!< delta over its standard deviation
};

//! `label[i]`: 1 positive, 0 negative, other values skipped; `unmatched[i]`: a positive no
//! existing rule of the category matches. Returns phrases with z > 0, best first (ties by phrase).
std::vector<PhraseStat> MinePhrases(const std::vector<std::string_view>& texts, const std::vector<int>& label,
                                    const std::vector<char>& unmatched, const PhraseOptions& options);

//! Word runs as the pattern sees them: [A-Za-z0-9_]+ lowercased, split into runs where anything
//! but whitespace separates two words (the suggested pattern joins words with \s+ only).
std::vector<std::vector<std::string>> WordRuns(std::string_view text);

//! A stopword or a number: a phrase made of these alone is not mined (nor learned).
bool UninformativeWord(const std::string& word);

//! Hyperscan pattern for a phrase: words escaped, joined by \s+, bounded by \b (use caseless).
std::string PhrasePattern(const std::string& phrase);

}  // namespace ghsift
