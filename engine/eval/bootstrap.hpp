#pragma once
// How much a group's held-out score would move with another sample of its reports: a percentile
// bootstrap over the group's labeled reports (resampled with replacement within each label, so a
// replicate keeps the group's numbers of positives and negatives; the predictions are kept as
// they were). A group of 22 reports with 2 positives can swing by 0.3 on one report; the
// interval says so beside the figure, so that a change of 0.02 is not read as a finding. It
// covers the sampling of reports only, not the fit's own variation across folds.
#include <cstdint>
#include <vector>

#include "eval/evaluation.hpp"

namespace ghsift {

//! One labeled report as the held-out fold decided it.
struct Decided {
  bool predicted = false;
  bool positive = false;
  uint32_t report = 0;  //!< which labeled report (its index in the table), to name what a change flips
};

//! One group's reports and how its score is read.
struct DecidedGroup {
  std::vector<Decided> reports;
  bool objective_f1 = true;  //!< F1, else macro-F1
};

struct Interval {
  double low = 0, high = 0;
};

struct BootstrapOptions {
  int replicates = 1000;
  double level = 0.95;
  uint64_t seed = 20240101;  //!< fixed: the same data gives the same interval
};

//! The interval of one group's objective.
Interval BootstrapObjective(const DecidedGroup& group, const BootstrapOptions& options = {});

//! The interval of the mean over groups of each group's objective, each group resampled within
//! itself (the groups stay the ones given).
Interval BootstrapMean(const std::vector<DecidedGroup>& groups, const BootstrapOptions& options = {});

//! The interval of the mean over groups of (a's objective - b's objective), two decisions on the
//! same reports (a[k] and b[k]: the same reports in the same order, as the held-out fold and a
//! word list decide them). Paired: each replicate draws the same reports for both, so the
//! interval is of the difference itself, narrower than two intervals side by side suggest. Empty
//! when the pairs do not hold the same reports.
Interval BootstrapMeanDifference(const std::vector<DecidedGroup>& a, const std::vector<DecidedGroup>& b,
                                 const BootstrapOptions& options = {});

}  // namespace ghsift
