// The arithmetic and wording of `rules bench`'s timing comparisons (the timings are given): a
// rule's share of the full scan, and a rule set against its baseline.
#include "eval/rule_bench.hpp"

#include <gtest/gtest.h>

namespace ghsift {
namespace {

TEST(RuleBenchShareTest, AClearCostIsGivenWithItsNoise) {
  // Full set: median 1.00 s, spread 0.04 s; without the rule: median 0.80 s, spread 0.02 s.
  const TimedPair s = CompareTimings({1.02, 0.98, 1.00, 1.01, 0.99}, {0.80, 0.81, 0.79, 0.80, 0.80});
  EXPECT_DOUBLE_EQ(s.median_a, 1.00);
  EXPECT_DOUBLE_EQ(s.median_b, 0.80);
  EXPECT_DOUBLE_EQ(s.difference, 0.2 / 1.00);
  EXPECT_NEAR(s.noise, 0.04, 1e-12);
  EXPECT_FALSE(s.within_noise);
  EXPECT_EQ(FormatMarginalShare(s), "20.0% +-4.0%");
}

TEST(RuleBenchShareTest, ASlowerSetWithinTheNoiseIsNoise) {
  // The run without the rule happened to be slower (the machine was busier): the difference of
  // the medians is negative, within the spread of the timings.
  const TimedPair s = CompareTimings({1.00, 1.05, 0.95}, {1.03, 1.08, 1.01});
  EXPECT_NEAR(s.difference, -0.03, 1e-12);
  EXPECT_NEAR(s.noise, 0.10, 1e-12);
  EXPECT_TRUE(s.within_noise);
  EXPECT_EQ(FormatMarginalShare(s), "<=10.0% (noise)");
}

TEST(RuleBenchShareTest, ASetSlowerWithoutTheRuleBeyondTheNoiseIsSaidSo) {
  // Timed slower without the rule, by far more than the timings spread: said, not clamped to 0.
  const TimedPair s = CompareTimings({1.00, 1.01, 0.99}, {1.70, 1.72, 1.69});
  EXPECT_NEAR(s.difference, -0.70, 1e-12);
  EXPECT_NEAR(s.noise, 0.02, 1e-12);  // each series' spread against its own median: 0.02, 0.03 / 1.70
  EXPECT_FALSE(s.within_noise);
  EXPECT_EQ(FormatMarginalShare(s), "-70.0% +-2.0% (slower without it)");
}

TEST(RuleBenchShareTest, ASmallPositiveDifferenceWithinTheNoiseIsNotClaimed) {
  const TimedPair s = CompareTimings({1.00, 1.10, 0.90, 1.00}, {0.98, 0.99, 0.97, 0.98});
  EXPECT_NEAR(s.difference, 0.02, 1e-12);
  EXPECT_NEAR(s.noise, 0.20, 1e-12);
  EXPECT_TRUE(s.within_noise);
  EXPECT_EQ(FormatMarginalShare(s), "<=20.0% (noise)");
}

TEST(RuleBenchShareTest, EvenMediansAndASingleTiming) {
  const TimedPair s = CompareTimings({2.0, 4.0}, {1.0});
  // Medians 3.0 and 1.0; spreads 2.0 / 3.0 and 0.
  EXPECT_NEAR(s.difference, 2.0 / 3.0, 1e-12);
  EXPECT_NEAR(s.noise, 2.0 / 3.0, 1e-12);
  EXPECT_TRUE(s.within_noise);  // at the noise: not told apart
  const TimedPair one = CompareTimings({1.0}, {0.5});
  EXPECT_EQ(one.noise, 0.0);
  EXPECT_EQ(FormatMarginalShare(one), "50.0% +-0.0%");
}

}  // namespace
}  // namespace ghsift
