// The arithmetic and wording of `rules bench`'s "share of full scan" (the timings are given).
#include "eval/rule_bench.hpp"

#include <gtest/gtest.h>

namespace ghsift {
namespace {

TEST(RuleBenchShareTest, AClearCostIsGivenWithItsNoise) {
  // Full set: median 1.00 s, spread 0.04 s; without the rule: median 0.80 s, spread 0.02 s.
  const MarginalShare s = EstimateMarginalShare({1.02, 0.98, 1.00, 1.01, 0.99}, {0.80, 0.81, 0.79, 0.80, 0.80});
  EXPECT_DOUBLE_EQ(s.share, 0.2 / 1.00);
  EXPECT_NEAR(s.noise, 0.04, 1e-12);
  EXPECT_FALSE(s.within_noise);
  EXPECT_EQ(FormatMarginalShare(s), "20.0% +-4.0%");
}

TEST(RuleBenchShareTest, AFasterSetWithoutTheRuleIsNeverANegativeShare) {
  // The run without the rule happened to be slower (the machine was busier): the difference of
  // the medians is negative, within the spread of the timings.
  const MarginalShare s = EstimateMarginalShare({1.00, 1.05, 0.95}, {1.03, 1.08, 1.01});
  EXPECT_EQ(s.share, 0.0);
  EXPECT_NEAR(s.noise, 0.10, 1e-12);
  EXPECT_TRUE(s.within_noise);
  EXPECT_EQ(FormatMarginalShare(s), "<=10.0% (noise)");
}

TEST(RuleBenchShareTest, ASmallPositiveDifferenceWithinTheNoiseIsNotClaimed) {
  const MarginalShare s = EstimateMarginalShare({1.00, 1.10, 0.90, 1.00}, {0.98, 0.99, 0.97, 0.98});
  EXPECT_NEAR(s.share, 0.02, 1e-12);
  EXPECT_NEAR(s.noise, 0.20, 1e-12);
  EXPECT_TRUE(s.within_noise);
  EXPECT_EQ(FormatMarginalShare(s), "<=20.0% (noise)");
}

TEST(RuleBenchShareTest, EvenMediansAndASingleTiming) {
  const MarginalShare s = EstimateMarginalShare({2.0, 4.0}, {1.0});
  // Medians 3.0 and 1.0; spread max(2.0, 0) / 3.0.
  EXPECT_NEAR(s.share, 2.0 / 3.0, 1e-12);
  EXPECT_NEAR(s.noise, 2.0 / 3.0, 1e-12);
  EXPECT_TRUE(s.within_noise);  // at the noise: not told apart
  const MarginalShare one = EstimateMarginalShare({1.0}, {0.5});
  EXPECT_EQ(one.noise, 0.0);
  EXPECT_EQ(FormatMarginalShare(one), "50.0% +-0.0%");
}

}  // namespace
}  // namespace ghsift
