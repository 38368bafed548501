#include "eval/threshold_tuner.hpp"

#include <functional>

namespace ghsift {
namespace {

// Scores are sums of weights in steps of 1e-6; comparing with a small slack keeps a threshold
// that equals a score on the flagged side, as the decision does.
constexpr double kSlack = 1e-9;

double MacroF1(const std::vector<LabeledReport>& reports, const std::vector<ReportVerdict>& verdicts,
               const std::set<std::string>& positive, const std::map<std::string, double>& thresholds,
               const std::function<bool(size_t)>& include) {
  Confusion c;
  for (size_t i = 0; i < reports.size(); ++i) {
    if (!include(i)) continue;
    bool known = false;
    const bool actual = ActualPositive(reports[i], positive, &known);
    if (!known) continue;
    bool predicted = false;
    for (const auto& [category, threshold] : thresholds) {
      auto it = verdicts[i].scores.find(category);
      // A category none of whose rules matched is never flagged (score exactly 0 and no hit).
      if (it != verdicts[i].scores.end() && it->second > 0 && it->second + kSlack >= threshold) predicted = true;
    }
    c.Add(predicted, actual);
  }
  return c.macro_f1();
}

std::map<std::string, double> Best(const std::vector<LabeledReport>& reports,
                                   const std::vector<ReportVerdict>& verdicts, const std::set<std::string>& positive,
                                   double step, double max, const std::function<bool(size_t)>& include,
                                   double* best_score) {
  std::vector<std::string> categories(positive.begin(), positive.end());
  std::map<std::string, double> trial, best;
  *best_score = -1;
  // Exhaustive over the grid for every positive category (a handful of categories at most).
  std::function<void(size_t)> search = [&](size_t k) {
    if (k == categories.size()) {
      const double score = MacroF1(reports, verdicts, positive, trial, include);
      if (score > *best_score + 1e-12) {
        *best_score = score;
        best = trial;
      }
      return;
    }
    for (double t = step; t <= max + 1e-9; t += step) {
      trial[categories[k]] = t;
      search(k + 1);
    }
  };
  search(0);
  return best;
}

}  // namespace

TuneResult TuneThresholds(const std::vector<LabeledReport>& reports, const std::vector<ReportVerdict>& verdicts,
                          const std::set<std::string>& positive, const std::map<std::string, double>& current,
                          double step, double max) {
  TuneResult result;
  auto all = [](size_t) { return true; };
  result.thresholds = Best(reports, verdicts, positive, step, max, all, &result.macro_f1);
  std::map<std::string, double> own;
  for (const std::string& c : positive) own[c] = current.count(c) ? current.at(c) : 1.0;
  result.baseline_macro_f1 = MacroF1(reports, verdicts, positive, own, all);
  std::set<std::string> groups;
  for (const auto& r : reports) groups.insert(r.group);
  if (groups.size() < 2) return result;
  for (const std::string& g : groups) {
    double train_score = 0;
    auto train = [&](size_t i) { return reports[i].group != g; };
    auto chosen = Best(reports, verdicts, positive, step, max, train, &train_score);
    const double test = MacroF1(reports, verdicts, positive, chosen, [&](size_t i) { return reports[i].group == g; });
    result.held_out[g] = {chosen, test};
  }
  return result;
}

}  // namespace ghsift
