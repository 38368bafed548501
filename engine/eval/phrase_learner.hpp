#pragma once
// Learns phrase rules for one category (`rules learn`): an L1-regularized logistic model over
// word n-gram phrases, fitted on labeled groups with the regularization chosen by
// leave-one-group-out (LOGO), and turned into what ghsift decides with: rules with weights on a
// grid and the category's threshold.
//
// The model, in the rule set's own units. With S(x) the summed written weight of the distinct
// rules of C that matched report x (what the decision already sums), p_j(x) = 1 when phrase j
// occurs, h_r(x) = 1 when rule r matched:
//   logit P(positive | x) = b + a * S(x) + sum_j w_j p_j(x) + sum_r u_r h_r(x),   a >= kMinScale
// S is one unpenalized feature; the phrases and the per-rule hits are penalized by lambda. Since
// a > 0, "logit >= 0" is exactly the ghsift decision
//   S(x) + sum_j (w_j / a) p_j(x) + sum_r (u_r / a) h_r(x) >= -b / a:
// each kept phrase becomes a rule of weight w_j / a, each rule r with u_r != 0 gets the weight
// (written + u_r / a), and -b / a is the threshold. A per-rule term is a change from the written
// weight, so L1 shrinks it toward the weight as written (not toward 0): a rule the training groups
// say little about keeps its weight, which matters because the rules were also written for
// reports of no training group. Rules that count toward several categories (negative rules) keep
// theirs: one weight would move several decisions. Weights are then rounded to the grid, and what
// is scored (every LOGO figure) is the decision ghsift takes with them, not the model's probability.
//
// The threshold. By default it stays as written, T: the model then has no free intercept
// (logit = a*(S - T) + ..., i.e. b = -a*T), so a report no learned phrase occurs in is decided
// exactly as before and the layer's effect is the phrases' (and overrides') alone. Otherwise it is
// the grid value that maximizes the training groups' mean objective with the rounded weights
// (ties: nearest -b/a), or -b/a itself on the grid (Threshold::kFit, kModel).
//
// Every group weighs the same in the fit (and within a group, its positives as much as its
// negatives): a group of 1,600 reports would otherwise decide the phrases for one of 90. A phrase
// is a feature only when it occurs in enough training reports of enough training groups
// (VocabularyOptions), chosen again in every fold without the held-out group.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "eval/match_table.hpp"
#include "eval/phrase_features.hpp"

namespace ghsift {

inline constexpr double kMinScale = 0.25;  //!< the least logit per unit of written rule weight

struct LearnOptions {
  VocabularyOptions vocabulary;
  int lambdas = 10;           //!< lambda grid: lambda_max, lambda_max / 2, / 4, ... (this many values)
  double step = 0.05;         //!< grid of the written weights and the threshold
  double max_weight = 3.0;    //!< |weight| of a learned phrase (or overridden rule) at most this
  double max_threshold = 5.0;
  bool rule_weights = true;   //!< allow the per-rule terms (weight overrides of existing rules)
  //! Where the category's threshold comes from.
  enum class Threshold {
    kWritten,  //!< the rules' own: the model has no free intercept (logit = a*(S - T) + ...), so
               //!< the layer only adds phrases (and rule overrides) to the decision as written
    kFit,      //!< the grid value that maximizes the training groups' mean objective
    kModel,    //!< the model's own -b/a, on the grid
  };
  Threshold threshold = Threshold::kWritten;
  //! When >= 0, lambda is chosen only among the values with which no group's held-out objective
  //! falls more than this below the rules as written (the gate a default layer must pass).
  double max_drop = -1;
};

//! A learned layer in the decision's units.
struct LearnedLayer {
  std::vector<std::pair<uint32_t, double>> phrases;  //!< (index into PhraseIndex, weight), by weight then phrase
  std::map<uint32_t, double> rule_weights;           //!< rule index -> new weight (those that moved)
  double threshold = 1.0;
  double logistic_threshold = 1.0;  //!< -b / a, before it was moved to the grid's best
  double scale = 1.0;               //!< a
};

struct LambdaRun {
  double lambda = 0;
  std::vector<GroupScore> held_out;  //!< per table group (learned groups only are filled)
  std::vector<LearnedLayer> folds;   //!< per table group: the layer fitted without it
  double mean = 0;                   //!< mean held-out objective over the learned groups
  double mean_phrases = 0;           //!< mean count of phrases kept over the folds
  double worst_drop = 0;             //!< the largest fall of a group's held-out objective below the rules as written
  bool passes = true;                //!< worst_drop within LearnOptions::max_drop
};

struct LearnResult {
  int category = -1;
  std::vector<size_t> groups;  //!< table groups learned from (their positive includes the category)
  bool exact = true;           //!< they are labeled for the category alone
  std::vector<LambdaRun> path;
  size_t chosen = 0;           //!< index into path
  bool none_passes = false;    //!< no lambda keeps every group within max_drop (chosen is then 0)
  LearnedLayer layer;          //!< fitted on every learned group at the chosen lambda
  std::vector<GroupScore> written;    //!< per table group: the rules as written
  //! per table group: the rules as written, without those written from its reports (the LOGO
  //! figure of the rules alone, which the learned layer's held-out figure is compared with)
  std::vector<GroupScore> written_held_out;
  std::vector<GroupScore> in_sample;  //!< per table group: `layer`, on groups it saw
  size_t vocabulary = 0;              //!< phrases the final fit could use
};

//! The groups to learn C from: those labeled for C alone when there are two or more (a union
//! label such as MHNurf's performance-or-accuracy would teach accuracy phrases as performance),
//! else every group whose positive categories include C. `exact` says which.
std::vector<size_t> LearnGroups(const MatchTable& table, int category, bool* exact);

LearnResult LearnPhrases(const MatchTable& table, const PhraseIndex& index, const DecisionParams& written,
                         int category, const LearnOptions& options);

//! The decision with `layer` on top of `written` for category c, scored on one group (the other
//! positive categories of the group are decided as written).
GroupScore ScoreLayer(const MatchTable& table, const PhraseIndex& index, const DecisionParams& written, int category,
                      const LearnedLayer& layer, size_t group);

}  // namespace ghsift
