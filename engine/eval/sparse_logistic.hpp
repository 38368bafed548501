#pragma once
// L1-regularized logistic regression over sparse features, fitted by cyclic coordinate descent
// (`rules learn`). Minimizes
//   sum_i s_i [log(1 + e^{z_i}) - y_i z_i] / sum_i s_i  +  lambda * sum_{j penalized} |w_j|,
//   z_i = b + sum_j w_j x_ij,
// with sample weights s_i (`rules learn` gives each group and class its share). Each coordinate
// step minimizes the quadratic upper bound of the loss that the logistic curvature (at most 1/4)
// gives, then soft-thresholds and clips to the coordinate's bounds: every step lowers the
// objective, so the fit needs no line search and, with the coordinates in a fixed order, gives
// the same weights for the same input.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace ghsift {

struct LogisticProblem {
  size_t features = 0;
  //! Per sample: (feature, value) pairs, each feature at most once.
  std::vector<std::vector<std::pair<uint32_t, double>>> rows;
  std::vector<int8_t> label;          //!< per sample: 1 or 0
  std::vector<double> sample_weight;  //!< per sample, >= 0 (normalized to sum 1 by the fit)
  //! Per feature: whether lambda applies (default: every feature). An unpenalized feature is
  //! fitted freely, like the intercept.
  std::vector<char> penalized;
  //! Per feature: the smallest value allowed (default: none).
  std::vector<double> lower;
  bool fit_intercept = true;  //!< false: the intercept stays where the fit starts (0 by default)
};

struct LogisticModel {
  double intercept = 0;
  std::vector<double> weight;  //!< per feature
  int sweeps = 0;              //!< passes over the coordinates the fit took
  //! Penalized features with a nonzero weight.
  size_t Kept(const LogisticProblem& problem) const;
};

struct LogisticOptions {
  double lambda = 0;
  int max_sweeps = 2000;
  double tolerance = 1e-7;  //!< stop when no coordinate moves more than this in a sweep
};

//! Fits from `start` (warm start along a lambda path) or from zero.
LogisticModel FitSparseLogistic(const LogisticProblem& problem, const LogisticOptions& options,
                                const LogisticModel* start = nullptr);

//! The smallest lambda at which every penalized weight is zero: the largest gradient of the loss
//! over the penalized features at the fit of the unpenalized ones alone.
double LambdaMax(const LogisticProblem& problem);

//! The penalized objective of `model` (loss plus lambda times the L1 norm).
double LogisticObjective(const LogisticProblem& problem, const LogisticModel& model, double lambda);

}  // namespace ghsift
