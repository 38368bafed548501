#include "report/sampling.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace ghsift {
namespace {

TEST(SampleSize, CochranWithFinitePopulationCorrection) {
  // n0 = 1.96^2 * 0.25 / 0.05^2 = 384.16; n = ceil(384.16 / (1 + 383.16 / 22522)) = ceil(377.73) = 378.
  const SampleSize big = CochranSampleSize(22522, 0.95, 0.05);
  EXPECT_DOUBLE_EQ(big.z, 1.96);
  EXPECT_NEAR(big.n0, 384.16, 1e-9);
  EXPECT_NEAR(big.exact, 384.16 / (1 + 383.16 / 22522), 1e-9);
  EXPECT_EQ(big.n, 378);
  EXPECT_TRUE(big.corrected);

  // 384.16 / (1 + 383.16 / 1168) = 289.27: rounded up (the formula) 290. Calculators that round
  // to the nearest integer (and tables copied from them) print 289.
  const SampleSize small = CochranSampleSize(1168, 0.95, 0.05);
  EXPECT_NEAR(small.exact, 289.267, 1e-3);
  EXPECT_EQ(std::llround(small.exact), 289);
  EXPECT_EQ(small.n, static_cast<int64_t>(std::ceil(small.exact)));
  EXPECT_EQ(small.n, 290);
}

TEST(SampleSize, ConfidenceLevels) {
  EXPECT_DOUBLE_EQ(ZForConfidence(0.90), 1.645);
  EXPECT_DOUBLE_EQ(ZForConfidence(0.95), 1.96);
  EXPECT_DOUBLE_EQ(ZForConfidence(0.99), 2.576);
  EXPECT_NEAR(ZForConfidence(0.80), 1.2815515655, 1e-8);
  EXPECT_NEAR(ZForConfidence(0.98), 2.3263478740, 1e-8);
  EXPECT_NEAR(InverseNormal(0.975), 1.9599639845, 1e-9);
  EXPECT_NEAR(InverseNormal(0.5), 0.0, 1e-12);
  EXPECT_NEAR(InverseNormal(0.001), -3.0902323062, 1e-8);
  EXPECT_NEAR(InverseNormal(1 - 1e-9), 5.9978070151, 1e-6);
  EXPECT_TRUE(std::isnan(InverseNormal(0)));
  // 99%, 5%: n0 = 2.576^2 / 4 / 0.0025 = 663.58; a population of 100 needs 87.
  const SampleSize s = CochranSampleSize(100, 0.99, 0.05);
  EXPECT_NEAR(s.n0, 663.5776, 1e-9);
  EXPECT_EQ(s.n, static_cast<int64_t>(std::ceil(663.5776 / (1 + 662.5776 / 100))));
  // Never more than the population; a tiny population is taken whole.
  EXPECT_EQ(CochranSampleSize(1, 0.95, 0.05).n, 1);
  EXPECT_EQ(CochranSampleSize(0, 0.95, 0.05).n, 0);
}

TEST(Allocation, LargestRemainderSumsExactly) {
  EXPECT_EQ(AllocateProportional({500, 300, 200}, 10), (std::vector<int64_t>{5, 3, 2}));
  // Quotas 3.5, 1.0, 0.5: floors give 4, the last unit goes to the first of the tied remainders.
  EXPECT_EQ(AllocateProportional({7, 2, 1}, 5), (std::vector<int64_t>{4, 1, 0}));
  EXPECT_EQ(AllocateProportional({1, 1, 1}, 2), (std::vector<int64_t>{1, 1, 0}));
  EXPECT_EQ(AllocateProportional({}, 5), (std::vector<int64_t>{}));
  EXPECT_EQ(AllocateProportional({0, 4}, 2), (std::vector<int64_t>{0, 2}));

  const std::vector<int64_t> sizes = {12000, 5400, 3122, 1500, 400, 100};
  const int64_t total = std::accumulate(sizes.begin(), sizes.end(), int64_t{0});
  for (int64_t n : {0, 1, 7, 378, 1000, 5000}) {
    const auto a = AllocateProportional(sizes, n);
    EXPECT_EQ(std::accumulate(a.begin(), a.end(), int64_t{0}), n);
    for (size_t i = 0; i < sizes.size(); ++i) {
      const double quota = static_cast<double>(n) * sizes[i] / total;
      EXPECT_LT(std::fabs(a[i] - quota), 1.0) << "n " << n << " stratum " << i;
    }
  }
}

TEST(Allocation, StratumSmallerThanItsShareIsTakenWhole) {
  // More than the population: everything, and the sum is the population.
  EXPECT_EQ(AllocateProportional({3, 5}, 20), (std::vector<int64_t>{3, 5}));
  SplitMix64 rng(1);
  const auto all = DrawIndices(3, 10, rng);
  EXPECT_EQ(std::set<size_t>(all.begin(), all.end()), (std::set<size_t>{0, 1, 2}));
}

std::vector<FrameItem> Frame() {
  std::vector<FrameItem> frame;
  for (int i = 0; i < 60; ++i) frame.push_back({"org/a", 1000 + i, "org/a"});
  for (int i = 0; i < 30; ++i) frame.push_back({"org/b", 10 + 3 * i, "org/b"});
  for (int i = 0; i < 2; ++i) frame.push_back({"org/c", 7 + i, "org/c"});
  return frame;
}

std::vector<std::pair<std::string, int64_t>> Rows(const std::vector<FrameItem>& frame, const StratifiedSample& s) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (size_t i : s.chosen) out.emplace_back(frame[i].repo, frame[i].number);
  return out;
}

TEST(Draw, SameSeedSameRowsOtherSeedOtherRows) {
  std::vector<FrameItem> frame = Frame();
  const StratifiedSample a = DrawStratified(frame, 20, 42);
  const StratifiedSample b = DrawStratified(frame, 20, 42);
  const StratifiedSample c = DrawStratified(frame, 20, 43);
  EXPECT_EQ(Rows(frame, a), Rows(frame, b));
  EXPECT_NE(Rows(frame, a), Rows(frame, c));
  ASSERT_EQ(a.strata.size(), 3u);
  EXPECT_EQ(a.strata[0].name, "org/a");
  EXPECT_EQ(a.strata[0].allocated, 13);  // 60/92*20 = 13.04
  EXPECT_EQ(a.strata[1].allocated, 7);   // 6.52, the larger remainder
  EXPECT_EQ(a.strata[2].allocated, 0);   // 0.43
  EXPECT_EQ(a.chosen.size(), 20u);
  const auto rows = Rows(frame, a);
  const std::set<std::pair<std::string, int64_t>> distinct(rows.begin(), rows.end());
  EXPECT_EQ(distinct.size(), rows.size());
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));

  // The frame's order does not matter: members are sorted by (repo, number) before the draw.
  std::vector<FrameItem> reversed(frame.rbegin(), frame.rend());
  EXPECT_EQ(Rows(reversed, DrawStratified(reversed, 20, 42)), Rows(frame, a));
}

TEST(Draw, SmallStratumGivesWhatItHas) {
  const std::vector<FrameItem> frame = Frame();
  const StratifiedSample s = DrawStratified(frame, 500, 9);
  EXPECT_EQ(s.chosen.size(), frame.size());
  for (const StratumDraw& d : s.strata) EXPECT_EQ(d.drawn, d.population);
}

TEST(Draw, SplitMixIsTheReferenceGenerator) {
  // splitmix64 seeded with 0: the first outputs of the reference implementation.
  SplitMix64 rng(0);
  EXPECT_EQ(rng.Next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(rng.Next(), 0x6e789e6aa1b965f4ULL);
  SplitMix64 bounded(5);
  for (int i = 0; i < 1000; ++i) EXPECT_LT(bounded.Below(7), 7u);
}

}  // namespace
}  // namespace ghsift
