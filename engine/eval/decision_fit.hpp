#pragma once
// Fits category thresholds, and optionally rule weights, of the exact ghsift decision (summed
// weight of the distinct matched rules of C >= C's threshold; a group's prediction is the union
// over its positive categories) to labeled groups, and estimates by leave-one-group-out how
// well a fit holds on a group it never saw.
//
// Why coordinate ascent and not logistic regression: the MHNurf label is "performance OR
// accuracy", not one label per category, so no per-category likelihood exists; and what a user
// gets is the thresholded decision, so that is what is maximized: the mean over training groups
// of each group's F1 or macro-F1. Values stay on a grid (multiples of `step`) so a reviewer can
// follow a decision, and an L1 cost on the change from the written value keeps every rule that
// the data does not clearly ask to change exactly as written.
#include <vector>

#include "eval/bootstrap.hpp"
#include "eval/match_table.hpp"

namespace ghsift {

struct FitOptions {
  bool weights = false;        //!< fit rule weights too (else thresholds only)
  double step = 0.05;          //!< grid of weights and thresholds
  double min_weight = -2.0, max_weight = 2.0;
  double max_threshold = 3.0;  //!< thresholds from `step` up to this
  double l1 = 0.01;            //!< objective cost per unit of change from the written value
  double control_max_rate = 0.15;  //!< a control category flagging more of a group costs 10x the excess
  int max_sweeps = 20;
};

//! Fits on the groups with `train[g]`; rules of categories no training group scores, and rules
//! that match no training report, keep their written weight.
DecisionParams FitDecision(const MatchTable& table, const DecisionParams& written, const std::vector<char>& train,
                           const FitOptions& options);

struct GroupEstimate {
  GroupScore held_out;   //!< fitted on the other groups, scored on this one
  GroupScore in_sample;  //!< fitted on every group, scored on this one
  GroupScore written;    //!< the rule set as written
  //! The held-out fold's decision on each labeled report, for the bootstrap interval.
  DecidedGroup held_out_reports = {};
  Interval held_out_interval = {};  //!< 95% bootstrap interval of held_out's objective
};

struct Estimates {
  std::vector<GroupEstimate> groups;  //!< by index of table.groups
  DecisionParams fitted;              //!< fitted on every group
  //! 95% bootstrap interval of the mean held-out objective over the groups it can be scored on.
  Interval held_out_mean_interval;
};

//! Leave-one-group-out over every group, plus the fit on all of them.
Estimates EstimateGroups(const MatchTable& table, const DecisionParams& written, const FitOptions& options);

}  // namespace ghsift
