// Phrase mining for rule suggestions: word runs as \s+-joined patterns see them, counts per
// class, the Dirichlet-prior log-odds and the ranking.
#include <gtest/gtest.h>

#include <cmath>

#include "eval/phrase_miner.hpp"

namespace ghsift {
namespace {

TEST(PhraseMinerTest, WordRunsBreakWhereAPatternCouldNotSpan) {
  const auto runs = WordRuns("Very SLOW, data_loader\n  is slow!");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0], (std::vector<std::string>{"very", "slow"}));
  EXPECT_EQ(runs[1], (std::vector<std::string>{"data_loader", "is", "slow"}));
  EXPECT_EQ(PhrasePattern("very slow"), "\\bvery\\s+slow\\b");
  EXPECT_EQ(PhrasePattern("data_loader"), "\\bdata_loader\\b");
}

TEST(PhraseMinerTest, CountsReportsAndRanksByDirichletLogOdds) {
  const std::vector<std::string_view> texts = {"training is very slow", "very slow epoch", "slow, very slow",
                                               "crash on import",       "import error slow", "crash again"};
  const std::vector<int> label = {1, 1, 1, 0, 0, 0};
  const std::vector<char> unmatched = {0, 1, 0, 0, 0, 0};
  PhraseOptions o;
  o.min_positive = 3;
  const auto phrases = MinePhrases(texts, label, unmatched, o);
  // In all three positives: "slow", "very", "very slow"; "slow" is also in one negative.
  ASSERT_EQ(phrases.size(), 3u);
  EXPECT_EQ(phrases[0].phrase, "very");
  EXPECT_EQ(phrases[1].phrase, "very slow");
  EXPECT_EQ(phrases[2].phrase, "slow");
  EXPECT_EQ(phrases[0].positive, 3);
  EXPECT_EQ(phrases[0].negative, 0);
  EXPECT_EQ(phrases[0].unmatched_positive, 1);
  EXPECT_EQ(phrases[2].negative, 1);
  // Distinct phrases per report (stopword-only "is" and "on" left out): positives 8 + 6 + 3
  // = 17 (the third is two runs: "slow" and "very slow"); negatives 5 + 6 + 3 = 14.
  const double n_pos = 17, n_neg = 14, alpha0 = 0.1 * (n_pos + n_neg);
  const double alpha = alpha0 * 3 / (n_pos + n_neg);
  const double delta = std::log((3 + alpha) / (n_pos + alpha0 - 3 - alpha)) - std::log(alpha / (n_neg + alpha0 - alpha));
  EXPECT_NEAR(phrases[0].log_odds, delta, 1e-12);
  EXPECT_NEAR(phrases[0].z, delta / std::sqrt(1 / (3 + alpha) + 1 / alpha), 1e-12);
}

}  // namespace
}  // namespace ghsift
