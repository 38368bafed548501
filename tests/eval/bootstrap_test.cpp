#include "eval/bootstrap.hpp"

#include <gtest/gtest.h>

namespace ghsift {
namespace {

//! `tp`, `fp`, `fn`, `tn` reports decided that way.
DecidedGroup GroupOf(int tp, int fp, int fn, int tn, bool objective_f1 = true) {
  DecidedGroup g;
  g.objective_f1 = objective_f1;
  for (int i = 0; i < tp; ++i) g.reports.push_back({true, true});
  for (int i = 0; i < fp; ++i) g.reports.push_back({true, false});
  for (int i = 0; i < fn; ++i) g.reports.push_back({false, true});
  for (int i = 0; i < tn; ++i) g.reports.push_back({false, false});
  return g;
}

TEST(BootstrapTest, PerfectDecisionsHaveNoSpread) {
  const Interval i = BootstrapObjective(GroupOf(10, 0, 0, 30));
  EXPECT_DOUBLE_EQ(i.low, 1.0);
  EXPECT_DOUBLE_EQ(i.high, 1.0);
  const Interval m = BootstrapMean({GroupOf(5, 0, 0, 5), GroupOf(3, 0, 0, 9, false)});
  EXPECT_DOUBLE_EQ(m.low, 1.0);
  EXPECT_DOUBLE_EQ(m.high, 1.0);
}

TEST(BootstrapTest, TheIntervalHoldsThePointAndNarrowsWithTheSample) {
  // F1 = 2*6 / (2*6 + 3 + 3) = 0.667 in both; the larger group's interval is narrower.
  const DecidedGroup small = GroupOf(6, 3, 3, 28);
  const DecidedGroup large = GroupOf(600, 300, 300, 2800);
  const Interval s = BootstrapObjective(small);
  const Interval l = BootstrapObjective(large);
  for (const Interval& i : {s, l}) {
    EXPECT_LT(i.low, 2.0 / 3.0);
    EXPECT_GT(i.high, 2.0 / 3.0);
  }
  EXPECT_LT(l.high - l.low, (s.high - s.low) / 4);
  EXPECT_LT(l.high - l.low, 0.06);
}

TEST(BootstrapTest, TheSameDataGivesTheSameInterval) {
  const DecidedGroup g = GroupOf(2, 1, 1, 18);  // a small group: two positives
  const Interval a = BootstrapObjective(g), b = BootstrapObjective(g);
  EXPECT_EQ(a.low, b.low);
  EXPECT_EQ(a.high, b.high);
  // With two positives, one of them decides between F1 0 and 0.8 or more: the interval says so.
  EXPECT_DOUBLE_EQ(a.low, 0.0);
  EXPECT_GE(a.high, 0.8);
  BootstrapOptions other;
  other.seed = 7;
  EXPECT_DOUBLE_EQ(BootstrapObjective(GroupOf(10, 0, 0, 30), other).low, 1.0);
}

TEST(BootstrapTest, NoReportsNoInterval) {
  const Interval i = BootstrapObjective(DecidedGroup{});
  EXPECT_EQ(i.low, 0.0);
  EXPECT_EQ(i.high, 0.0);
  EXPECT_EQ(BootstrapMean({}).high, 0.0);
}

//! A group of 40 reports, the first 10 positive, decided as `predicted` says of report i.
DecidedGroup Decided40(bool (*predicted)(int i)) {
  DecidedGroup g;
  for (int i = 0; i < 40; ++i) g.reports.push_back({predicted(i), i < 10});
  return g;
}

TEST(BootstrapTest, TheDifferenceOfTwoDecisionsIsPaired) {
  const DecidedGroup right = Decided40([](int i) { return i < 10; });
  const DecidedGroup none = Decided40([](int) { return false; });
  // Every replicate: F1 1 against 0.
  const Interval all = BootstrapMeanDifference({right}, {none});
  EXPECT_DOUBLE_EQ(all.low, 1.0);
  EXPECT_DOUBLE_EQ(all.high, 1.0);
  const Interval same = BootstrapMeanDifference({right}, {right});
  EXPECT_DOUBLE_EQ(same.low, 0.0);
  EXPECT_DOUBLE_EQ(same.high, 0.0);
  // Two decisions that differ on one negative: each alone spreads wide, their difference stays
  // between 0 (that report not drawn) and a small margin, never below 0.
  const DecidedGroup noisy = Decided40([](int i) { return i < 6 || i == 12 || i == 20; });
  const DecidedGroup noisier = Decided40([](int i) { return i < 6 || i == 12 || i == 20 || i == 30; });
  const Interval alone = BootstrapObjective(noisy);
  const Interval paired = BootstrapMeanDifference({noisy}, {noisier});
  EXPECT_GE(paired.low, 0.0);
  EXPECT_GT(paired.high, 0.0);
  EXPECT_LT(paired.high - paired.low, (alone.high - alone.low) / 4);
}

TEST(BootstrapTest, PairsOfOtherReportsHaveNoInterval) {
  const DecidedGroup a = GroupOf(5, 1, 1, 10), shorter = GroupOf(5, 1, 1, 9);
  EXPECT_EQ(BootstrapMeanDifference({a}, {shorter}).high, 0.0);
  EXPECT_EQ(BootstrapMeanDifference({a}, {}).high, 0.0);
  DecidedGroup relabeled = a;
  relabeled.reports[0].positive = !relabeled.reports[0].positive;
  EXPECT_EQ(BootstrapMeanDifference({a}, {relabeled}).high, 0.0);
}

}  // namespace
}  // namespace ghsift
