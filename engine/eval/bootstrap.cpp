#include "eval/bootstrap.hpp"

#include <algorithm>
#include <cmath>

#include "common/split_mix.hpp"

namespace ghsift {
namespace {

//! A group's reports by label: the indices of its positives and of its negatives.
struct Strata {
  explicit Strata(const DecidedGroup& group) {
    for (size_t i = 0; i < group.reports.size(); ++i) (group.reports[i].positive ? positives : negatives).push_back(i);
  }
  std::vector<size_t> positives, negatives;
};

double Objective(const Confusion& c, bool objective_f1) { return objective_f1 ? c.f1() : c.macro_f1(); }

//! One replicate of the mean over groups of a's objective, minus b's when given. Each group's
//! positives are drawn from its positives and its negatives from its negatives (as many of each
//! as it has): stratified, so that every replicate has the group's positives and its F1 is
//! defined; what varies is which of them the decision got right. b, when given, is scored on the
//! same draws (paired).
double ReplicateMean(const std::vector<DecidedGroup>& a, const std::vector<DecidedGroup>* b,
                     const std::vector<Strata>& strata, SplitMix64& rng) {
  double sum = 0;
  for (size_t k = 0; k < a.size(); ++k) {
    Confusion ca, cb;
    for (const auto* side : {&strata[k].positives, &strata[k].negatives}) {
      const uint64_t n = side->size();
      for (uint64_t draw = 0; draw < n; ++draw) {
        const size_t i = (*side)[rng.Below(n)];
        ca.Add(a[k].reports[i].predicted, a[k].reports[i].positive);
        if (b != nullptr) cb.Add((*b)[k].reports[i].predicted, (*b)[k].reports[i].positive);
      }
    }
    sum += Objective(ca, a[k].objective_f1) - (b != nullptr ? Objective(cb, a[k].objective_f1) : 0.0);
  }
  return sum / static_cast<double>(a.size());
}

Interval Percentiles(std::vector<double>& values, double level) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  const double tail = (1 - level) / 2;
  const auto at = [&](double q) {
    const size_t i = static_cast<size_t>(std::lround(q * static_cast<double>(values.size() - 1)));
    return values[std::min(i, values.size() - 1)];
  };
  return {at(tail), at(1 - tail)};
}

//! The percentile interval of ReplicateMean over options.replicates replicates.
Interval Bootstrap(const std::vector<DecidedGroup>& a, const std::vector<DecidedGroup>* b,
                   const BootstrapOptions& options) {
  std::vector<Strata> strata;
  for (const DecidedGroup& g : a) strata.emplace_back(g);
  SplitMix64 rng(options.seed);
  std::vector<double> values;
  values.reserve(static_cast<size_t>(options.replicates));
  for (int r = 0; r < options.replicates; ++r) values.push_back(ReplicateMean(a, b, strata, rng));
  return Percentiles(values, options.level);
}

}  // namespace

Interval BootstrapObjective(const DecidedGroup& group, const BootstrapOptions& options) {
  if (group.reports.empty()) return {};
  return Bootstrap({group}, nullptr, options);
}

Interval BootstrapMean(const std::vector<DecidedGroup>& groups, const BootstrapOptions& options) {
  if (groups.empty()) return {};
  return Bootstrap(groups, nullptr, options);
}

Interval BootstrapMeanDifference(const std::vector<DecidedGroup>& a, const std::vector<DecidedGroup>& b,
                                 const BootstrapOptions& options) {
  if (a.empty() || a.size() != b.size()) return {};
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k].reports.size() != b[k].reports.size() || a[k].objective_f1 != b[k].objective_f1) return {};
    for (size_t i = 0; i < a[k].reports.size(); ++i) {
      if (a[k].reports[i].positive != b[k].reports[i].positive) return {};
    }
  }
  return Bootstrap(a, &b, options);
}

}  // namespace ghsift
