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

}  // namespace
}  // namespace ghsift
