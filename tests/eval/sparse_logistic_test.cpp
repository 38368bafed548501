// L1-regularized logistic regression by coordinate descent: exact outcomes on small hand-made
// problems (selected features and their signs, the lambda at which all are zero, bounds, weights).
#include <gtest/gtest.h>

#include <cmath>

#include "eval/sparse_logistic.hpp"

namespace ghsift {
namespace {

// Feature 0 is in every positive, feature 1 in every negative, feature 2 in half of each class
// (it says nothing), feature 3 in no sample.
LogisticProblem Toy() {
  LogisticProblem p;
  p.features = 4;
  for (int i = 0; i < 8; ++i) {
    const bool positive = i < 4;
    std::vector<std::pair<uint32_t, double>> row = {{positive ? 0u : 1u, 1.0}};
    if (i % 2 == 0) row.push_back({2, 1.0});
    p.rows.push_back(row);
    p.label.push_back(positive ? 1 : 0);
    p.sample_weight.push_back(1.0);
  }
  return p;
}

TEST(SparseLogisticTest, SeparableToySelectsTheTwoTellingFeaturesWithTheirSigns) {
  const LogisticProblem p = Toy();
  LogisticOptions o;
  o.lambda = 0.05;
  const LogisticModel m = FitSparseLogistic(p, o);
  EXPECT_GT(m.weight[0], 0.5);
  EXPECT_LT(m.weight[1], -0.5);
  EXPECT_EQ(m.weight[2], 0.0);  // uninformative: exactly zero, not small
  EXPECT_EQ(m.weight[3], 0.0);
  EXPECT_EQ(m.Kept(p), 2u);
  // Symmetric data, symmetric fit: the intercept is 0 and the two weights are opposite.
  EXPECT_NEAR(m.intercept + m.weight[0], -(m.intercept + m.weight[1]), 1e-5);
  // The fit is a minimum: moving any weight a little raises the objective.
  const double at = LogisticObjective(p, m, o.lambda);
  for (size_t j = 0; j < 3; ++j) {
    for (double d : {-1e-3, 1e-3}) {
      LogisticModel moved = m;
      moved.weight[j] += d;
      EXPECT_GT(LogisticObjective(p, moved, o.lambda), at - 1e-9) << j << " " << d;
    }
  }
}

TEST(SparseLogisticTest, AtLambdaMaxEveryWeightIsZeroAndJustBelowOneIsNot) {
  const LogisticProblem p = Toy();
  const double lambda_max = LambdaMax(p);
  // The intercept alone fits the mean (1/2): each telling feature's gradient is (1/2)(4/8) = 1/4.
  EXPECT_NEAR(lambda_max, 0.25, 1e-9);
  LogisticOptions o;
  o.lambda = lambda_max;
  EXPECT_EQ(FitSparseLogistic(p, o).Kept(p), 0u);
  o.lambda = 10;
  const LogisticModel none = FitSparseLogistic(p, o);
  EXPECT_EQ(none.Kept(p), 0u);
  EXPECT_NEAR(none.intercept, 0.0, 1e-9);
  o.lambda = lambda_max * 0.9;
  EXPECT_EQ(FitSparseLogistic(p, o).Kept(p), 2u);
}

TEST(SparseLogisticTest, InterceptAloneIsTheLogOddsOfTheWeightedMean) {
  LogisticProblem p;
  p.features = 0;
  p.rows.resize(4);
  p.label = {1, 0, 0, 0};
  p.sample_weight = {1, 1, 1, 1};
  LogisticOptions o;
  EXPECT_NEAR(FitSparseLogistic(p, o).intercept, std::log(1.0 / 3.0), 1e-6);
  // Weighted so that the positive counts as much as the three negatives: even odds.
  p.sample_weight = {3, 1, 1, 1};
  EXPECT_NEAR(FitSparseLogistic(p, o).intercept, 0.0, 1e-6);
}

TEST(SparseLogisticTest, UnpenalizedFeaturesAndLowerBoundsHold) {
  LogisticProblem p = Toy();
  // Feature 1 (in every negative) would take a negative weight: bounded below by 0.25, it stays there.
  p.penalized = {1, 0, 1, 1};
  p.lower = {-INFINITY, 0.25, -INFINITY, -INFINITY};
  LogisticOptions o;
  o.lambda = 1.0;  // above lambda_max: the penalized ones are zero, the unpenalized one is not
  const LogisticModel m = FitSparseLogistic(p, o);
  EXPECT_EQ(m.weight[0], 0.0);
  EXPECT_EQ(m.weight[1], 0.25);
  EXPECT_EQ(m.Kept(p), 0u);
}

TEST(SparseLogisticTest, SameInputSameWeights) {
  const LogisticProblem p = Toy();
  LogisticOptions o;
  o.lambda = 0.01;
  const LogisticModel a = FitSparseLogistic(p, o), b = FitSparseLogistic(p, o);
  EXPECT_EQ(a.intercept, b.intercept);
  EXPECT_EQ(a.weight, b.weight);
  // A warm start from another lambda reaches the same minimum.
  LogisticOptions o2;
  o2.lambda = 0.1;
  const LogisticModel start = FitSparseLogistic(p, o2);
  const LogisticModel warm = FitSparseLogistic(p, o, &start);
  EXPECT_NEAR(warm.weight[0], a.weight[0], 1e-4);
  EXPECT_NEAR(warm.weight[1], a.weight[1], 1e-4);
}

}  // namespace
}  // namespace ghsift
