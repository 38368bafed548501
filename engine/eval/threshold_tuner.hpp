#pragma once
// Chooses per-category thresholds that maximize binary macro-F1 on labeled reports, and
// estimates how well that choice generalizes by leaving one group (framework) out at a time.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "eval/evaluation.hpp"

namespace ghsift {

struct TuneResult {
  std::map<std::string, double> thresholds;  //!< best on all reports
  double macro_f1 = 0;                       //!< with those thresholds, on all reports
  double baseline_macro_f1 = 0;              //!< with the rule set's own thresholds
  //! Leave-one-group-out: thresholds tuned on the other groups, macro-F1 on the held-out one.
  std::map<std::string, std::pair<std::map<std::string, double>, double>> held_out;
};

//! Grid: thresholds from `step` to `max` in steps of `step` for each positive category.
TuneResult TuneThresholds(const std::vector<LabeledReport>& reports, const std::vector<ReportVerdict>& verdicts,
                          const std::set<std::string>& positive, const std::map<std::string, double>& current,
                          double step = 0.25, double max = 3.0);

}  // namespace ghsift
