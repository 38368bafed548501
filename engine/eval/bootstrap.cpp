#include "eval/bootstrap.hpp"

#include <algorithm>
#include <cmath>

#include "common/split_mix.hpp"

namespace ghsift {
namespace {

//! One replicate: positives drawn from the positives, negatives from the negatives (as many of
//! each as the group has). Stratified, so that every replicate has the group's positives and its
//! F1 is defined; what varies is which of them the decision got right.
double Resampled(const DecidedGroup& group, const std::vector<const Decided*>& positives,
                 const std::vector<const Decided*>& negatives, SplitMix64& rng) {
  Confusion c;
  for (const auto* side : {&positives, &negatives}) {
    const uint64_t n = side->size();
    for (uint64_t k = 0; k < n; ++k) {
      const Decided& d = *(*side)[rng.Below(n)];
      c.Add(d.predicted, d.positive);
    }
  }
  return group.objective_f1 ? c.f1() : c.macro_f1();
}

//! A group's reports by label, for Resampled.
struct Strata {
  explicit Strata(const DecidedGroup& group) {
    for (const Decided& d : group.reports) (d.positive ? positives : negatives).push_back(&d);
  }
  std::vector<const Decided*> positives, negatives;
};

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

}  // namespace

Interval BootstrapObjective(const DecidedGroup& group, const BootstrapOptions& options) {
  if (group.reports.empty()) return {};
  const Strata strata(group);
  SplitMix64 rng(options.seed);
  std::vector<double> values;
  values.reserve(static_cast<size_t>(options.replicates));
  for (int r = 0; r < options.replicates; ++r) {
    values.push_back(Resampled(group, strata.positives, strata.negatives, rng));
  }
  return Percentiles(values, options.level);
}

Interval BootstrapMean(const std::vector<DecidedGroup>& groups, const BootstrapOptions& options) {
  if (groups.empty()) return {};
  std::vector<Strata> strata;
  for (const DecidedGroup& g : groups) strata.emplace_back(g);
  SplitMix64 rng(options.seed);
  std::vector<double> values;
  values.reserve(static_cast<size_t>(options.replicates));
  for (int r = 0; r < options.replicates; ++r) {
    double sum = 0;
    for (size_t k = 0; k < groups.size(); ++k) sum += Resampled(groups[k], strata[k].positives, strata[k].negatives, rng);
    values.push_back(sum / static_cast<double>(groups.size()));
  }
  return Percentiles(values, options.level);
}

namespace {

//! One paired replicate of a group: the same draws (indices within each label) decided by a and b.
double ResampledDifference(const DecidedGroup& a, const DecidedGroup& b, const std::vector<size_t>& positives,
                           const std::vector<size_t>& negatives, SplitMix64& rng) {
  Confusion ca, cb;
  for (const auto* side : {&positives, &negatives}) {
    const uint64_t n = side->size();
    for (uint64_t k = 0; k < n; ++k) {
      const size_t i = (*side)[rng.Below(n)];
      ca.Add(a.reports[i].predicted, a.reports[i].positive);
      cb.Add(b.reports[i].predicted, b.reports[i].positive);
    }
  }
  const auto objective = [&](const Confusion& c) { return a.objective_f1 ? c.f1() : c.macro_f1(); };
  return objective(ca) - objective(cb);
}

}  // namespace

Interval BootstrapMeanDifference(const std::vector<DecidedGroup>& a, const std::vector<DecidedGroup>& b,
                                 const BootstrapOptions& options) {
  if (a.empty() || a.size() != b.size()) return {};
  std::vector<std::vector<size_t>> positives(a.size()), negatives(a.size());
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k].reports.size() != b[k].reports.size() || a[k].objective_f1 != b[k].objective_f1) return {};
    for (size_t i = 0; i < a[k].reports.size(); ++i) {
      if (a[k].reports[i].positive != b[k].reports[i].positive) return {};
      (a[k].reports[i].positive ? positives[k] : negatives[k]).push_back(i);
    }
  }
  SplitMix64 rng(options.seed);
  std::vector<double> values;
  values.reserve(static_cast<size_t>(options.replicates));
  for (int r = 0; r < options.replicates; ++r) {
    double sum = 0;
    for (size_t k = 0; k < a.size(); ++k) sum += ResampledDifference(a[k], b[k], positives[k], negatives[k], rng);
    values.push_back(sum / static_cast<double>(a.size()));
  }
  return Percentiles(values, options.level);
}

}  // namespace ghsift
