#include "eval/sparse_logistic.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ghsift {
namespace {

double Sigmoid(double z) { return z >= 0 ? 1 / (1 + std::exp(-z)) : std::exp(z) / (1 + std::exp(z)); }

// log(1 + e^z) without overflow.
double Softplus(double z) { return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z)); }

// The problem by feature (what a coordinate step reads), with normalized sample weights.
struct Columns {
  std::vector<std::vector<std::pair<uint32_t, double>>> entries;  //!< per feature: (sample, value)
  std::vector<double> curvature;  //!< per feature: sum_i s_i x_ij^2 / 4, the loss' curvature bound
  std::vector<double> s;          //!< sample weights summing to 1
};

Columns ColumnsOf(const LogisticProblem& p) {
  Columns c;
  c.entries.resize(p.features);
  c.curvature.assign(p.features, 0);
  const double total = std::accumulate(p.sample_weight.begin(), p.sample_weight.end(), 0.0);
  c.s.resize(p.rows.size());
  for (size_t i = 0; i < p.rows.size(); ++i) {
    c.s[i] = total > 0 ? p.sample_weight[i] / total : 0;
    for (const auto& [j, x] : p.rows[i]) {
      c.entries[j].push_back({static_cast<uint32_t>(i), x});
      c.curvature[j] += c.s[i] * x * x / 4;
    }
  }
  return c;
}

bool Penalized(const LogisticProblem& p, size_t j) { return p.penalized.empty() || p.penalized[j]; }
double Lower(const LogisticProblem& p, size_t j) {
  return p.lower.empty() ? -std::numeric_limits<double>::infinity() : p.lower[j];
}

class CoordinateDescent {
 public:
  CoordinateDescent(const LogisticProblem& p, const Columns& c, double lambda, LogisticModel m)
      : p_(p), c_(c), lambda_(lambda), m_(std::move(m)), z_(p.rows.size(), m_.intercept), prob_(p.rows.size()) {
    m_.weight.resize(p.features, 0.0);
    for (size_t i = 0; i < p.rows.size(); ++i) {
      for (const auto& [j, x] : p.rows[i]) z_[i] += m_.weight[j] * x;
      prob_[i] = Sigmoid(z_[i]);
    }
  }

  LogisticModel Run(const LogisticOptions& o) {
    std::vector<uint32_t> all(p_.features), active;
    std::iota(all.begin(), all.end(), 0u);
    m_.sweeps = 0;
    while (m_.sweeps < o.max_sweeps) {
      // A full sweep, then sweeps over the features in the model until they settle: most
      // features stay at zero, and a full sweep is what confirms that they still should.
      if (Sweep(all) <= o.tolerance) break;
      active.clear();
      for (uint32_t j : all) {
        if (m_.weight[j] != 0 || !Penalized(p_, j)) active.push_back(j);
      }
      while (m_.sweeps < o.max_sweeps && Sweep(active) > o.tolerance) {
      }
    }
    return m_;
  }

 private:
  // One pass: the intercept, then each coordinate of `features`. Returns the largest move.
  double Sweep(const std::vector<uint32_t>& features) {
    ++m_.sweeps;
    double largest = 0;
    if (p_.fit_intercept) {
      double g = 0;
      for (size_t i = 0; i < z_.size(); ++i) g += c_.s[i] * (prob_[i] - p_.label[i]);
      const double delta = -g / 0.25;  // the curvature bound of the intercept: sum_i s_i / 4
      if (delta != 0) {
        m_.intercept += delta;
        for (size_t i = 0; i < z_.size(); ++i) z_[i] += delta, prob_[i] = Sigmoid(z_[i]);
        largest = std::max(largest, std::abs(delta));
      }
    }
    for (uint32_t j : features) {
      const double h = c_.curvature[j];
      if (h <= 0) continue;
      double g = 0;
      for (const auto& [i, x] : c_.entries[j]) g += c_.s[i] * (prob_[i] - p_.label[i]) * x;
      const double w = m_.weight[j], u = w - g / h;
      double next = u;
      if (Penalized(p_, j)) next = u > 0 ? std::max(u - lambda_ / h, 0.0) : std::min(u + lambda_ / h, 0.0);
      next = std::max(next, Lower(p_, j));
      const double delta = next - w;
      if (delta == 0) continue;
      m_.weight[j] = next;
      for (const auto& [i, x] : c_.entries[j]) z_[i] += delta * x, prob_[i] = Sigmoid(z_[i]);
      largest = std::max(largest, std::abs(delta));
    }
    return largest;
  }

  const LogisticProblem& p_;
  const Columns& c_;
  double lambda_;
  LogisticModel m_;
  std::vector<double> z_;
  std::vector<double> prob_;  //!< Sigmoid(z_), kept with it: most gradients are read, few weights move
};

}  // namespace

size_t LogisticModel::Kept(const LogisticProblem& problem) const {
  size_t n = 0;
  for (size_t j = 0; j < weight.size(); ++j) n += Penalized(problem, j) && weight[j] != 0;
  return n;
}

LogisticModel FitSparseLogistic(const LogisticProblem& problem, const LogisticOptions& options,
                                const LogisticModel* start) {
  const Columns columns = ColumnsOf(problem);
  LogisticModel initial;
  if (start != nullptr) initial = *start;
  initial.weight.resize(problem.features, 0.0);
  for (size_t j = 0; j < problem.features; ++j) initial.weight[j] = std::max(initial.weight[j], Lower(problem, j));
  return CoordinateDescent(problem, columns, options.lambda, std::move(initial)).Run(options);
}

double LambdaMax(const LogisticProblem& problem) {
  // Fitted with an infinite lambda, every penalized weight stays at zero.
  LogisticOptions o;
  o.lambda = std::numeric_limits<double>::infinity();
  const LogisticModel base = FitSparseLogistic(problem, o);
  const Columns columns = ColumnsOf(problem);
  std::vector<double> z(problem.rows.size(), base.intercept);
  for (size_t i = 0; i < problem.rows.size(); ++i) {
    for (const auto& [j, x] : problem.rows[i]) z[i] += base.weight[j] * x;
  }
  double largest = 0;
  for (size_t j = 0; j < problem.features; ++j) {
    if (!Penalized(problem, j)) continue;
    double g = 0;
    for (const auto& [i, x] : columns.entries[j]) g += columns.s[i] * (Sigmoid(z[i]) - problem.label[i]) * x;
    largest = std::max(largest, std::abs(g));
  }
  return largest;
}

double LogisticObjective(const LogisticProblem& problem, const LogisticModel& model, double lambda) {
  const double total = std::accumulate(problem.sample_weight.begin(), problem.sample_weight.end(), 0.0);
  double loss = 0;
  for (size_t i = 0; i < problem.rows.size(); ++i) {
    double z = model.intercept;
    for (const auto& [j, x] : problem.rows[i]) z += model.weight[j] * x;
    loss += problem.sample_weight[i] * (Softplus(z) - problem.label[i] * z);
  }
  double l1 = 0;
  for (size_t j = 0; j < problem.features; ++j) l1 += Penalized(problem, j) ? std::abs(model.weight[j]) : 0;
  return (total > 0 ? loss / total : 0) + lambda * l1;
}

}  // namespace ghsift
