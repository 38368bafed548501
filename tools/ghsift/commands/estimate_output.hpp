#pragma once
// Prints leave-one-group-out estimates beside in-sample figures, for `rules eval` and `rules tune`.
#include <array>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "eval/decision_fit.hpp"
#include "eval/reference_words.hpp"

namespace ghsift::cli {

//! "[0.620, 0.910]".
std::string IntervalText(const Interval& i);
//! "+0.133", "-0.167": a change or a margin always shows its sign.
std::string SignedFixed3(double v);

//! One column block of the table: a name and which score of a GroupEstimate it shows.
struct ScoreColumn {
  std::string name;
  GroupScore GroupEstimate::*score;
  bool full = true;  //!< precision, recall, F1, macro-F1; else F1 and macro-F1 only
};

//! Each group's score under reference word lists (eval/reference_words.hpp), by group index; none
//! for a group the lists do not cover. Empty: no lists given.
using ReferenceScores = std::vector<std::optional<ReferenceGroupScore>>;

//! `blocks[0]` is the leave-one-group-out block: it comes first and the summary quotes it.
void PrintEstimateTable(std::ostream& out, const MatchTable& table, const Estimates& e,
                        const std::vector<ScoreColumn>& blocks, double control_max_rate,
                        const ReferenceScores& reference = {});
void PrintEstimateJson(std::ostream& out, const MatchTable& table, const Estimates& e,
                       const std::vector<ScoreColumn>& blocks, const ReferenceScores& reference = {});

//! One row per group (a notebook's or a paper's table): its target, reports and positives, the
//! rules its LOGO score leaves out, each block's precision, recall, F1, macro-F1 and objective
//! (LOGO also its 95% interval), the word lists' objective and the constant one; a figure that
//! cannot be computed is an empty cell, so that pandas' mean over groups leaves it out as the
//! printed means do.
void PrintEstimateCsv(std::ostream& out, const MatchTable& table, const Estimates& e,
                      const std::vector<ScoreColumn>& blocks, const ReferenceScores& reference = {});
//! The columns of that CSV that name the group; every other one is a figure (the Python module
//! types them as numbers, also when every cell of one is empty).
inline constexpr std::array<std::string_view, 3> kEstimateCsvNameColumns = {"group", "positive", "objective"};

//! "reference word lists: 0.512 over the 14 groups they cover, where LOGO is 0.583" ("" without
//! lists): the mean of both over the same groups, so that the two can be compared.
std::string ReferenceSummary(const MatchTable& table, const Estimates& e, const ReferenceScores& reference);

//! The line that introduces the LOGO columns: what was fitted where, or, with one group, that
//! nothing was held out.
std::string LogoHeading(const MatchTable& table, const std::string& fitted);

//! For each --rules layer written by `rules tune` on some of these groups: a warning that its
//! figures on them are in-sample, with the fit's own estimate ("" when none applies).
std::string FittedLayerNote(const RuleSet& rules, const MatchTable& table, const std::string& data_digest = "");

//! Says on stderr which groups have every labeled report flagged by the rules as written: labels
//! of a sample of flagged reports (`sample`, then labeled by hand) cover no report the rules leave
//! out, so recall is 1 and tn 0 by construction, and only precision says anything (nor can a fit
//! of thresholds there learn what it would miss).
void WarnOfFullyFlaggedGroups(const MatchTable& table, const Estimates& e);

//! Mean over labeled groups of each group's objective (F1 or macro-F1) under `score`; a group
//! scored on F1 without a positive report has none and is left out.
double MeanObjective(const MatchTable& table, const Estimates& e, GroupScore GroupEstimate::*score);

//! Mean over the same groups of the better constant answer (every report flagged, or none):
//! what a rule set must beat.
double MeanConstant(const MatchTable& table, const Estimates& e);

std::string Fixed3(double v);
//! MeanObjective with three decimals, or "n/a" when no group can be scored.
std::string MeanText(const MatchTable& table, const Estimates& e, GroupScore GroupEstimate::*score);

}  // namespace ghsift::cli
