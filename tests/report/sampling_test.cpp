#include "report/sampling.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

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

struct Member {
  std::string repo;
  int64_t number;
  std::string stratum;
};

std::vector<Member> Members() {
  std::vector<Member> members;
  for (int i = 0; i < 60; ++i) members.push_back({"org/a", 1000 + i, "org/a"});
  for (int i = 0; i < 30; ++i) members.push_back({"org/b", 10 + 3 * i, "org/b"});
  for (int i = 0; i < 2; ++i) members.push_back({"org/c", 7 + i, "org/c"});
  return members;
}

SamplingFrame FrameOf(const std::vector<Member>& members) {
  FrameBuilder builder;
  std::map<std::string, int64_t> ids;  // one store id per repository name
  for (const Member& m : members) builder.Add(ids.try_emplace(m.repo, ids.size() + 1).first->second, m.repo, m.number, m.stratum);
  return std::move(builder).Build();
}

SamplingFrame Frame() { return FrameOf(Members()); }

// Strata of one report each share their leftover units by lot: over seeds every stratum is drawn
// sometimes, whatever its name (ties went to the names first in order, every time).
TEST(SamplingTest, TiedStrataAreDrawnByLotNotByName) {
  std::vector<Member> members;
  for (int i = 0; i < 20; ++i) {
    const std::string repo = "org/r" + std::string(i < 10 ? "0" : "") + std::to_string(i);
    members.push_back({repo, 1, repo});
  }
  const SamplingFrame frame = FrameOf(members);
  std::map<std::string, int> drawn;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const StratifiedSample s = DrawStratified(frame, 10, seed);
    ASSERT_EQ(s.chosen.size(), 10u);
    for (size_t i : s.chosen) ++drawn[frame.RepoOf(i)];
  }
  EXPECT_EQ(drawn.size(), 20u);  // each of the 20 drawn in some of the 40 samples
  for (const auto& [repo, times] : drawn) EXPECT_LT(times, 40) << repo;  // none in all of them
  EXPECT_EQ(AllocateProportional({1, 1, 1, 1}, 2, {4, 3, 2, 1}), (std::vector<int64_t>{0, 0, 1, 1}));
}

std::vector<std::pair<std::string, int64_t>> Rows(const SamplingFrame& frame, const StratifiedSample& s) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (size_t i : s.chosen) out.emplace_back(frame.RepoOf(i), frame.items[i].number);
  return out;
}

TEST(Draw, SameSeedSameRowsOtherSeedOtherRows) {
  const SamplingFrame frame = Frame();
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

  // The order members are added in does not matter: they are sorted by (repo, number).
  std::vector<Member> members = Members();
  std::reverse(members.begin(), members.end());
  const SamplingFrame reversed = FrameOf(members);
  EXPECT_EQ(Rows(reversed, DrawStratified(reversed, 20, 42)), Rows(frame, a));
}

TEST(Draw, AMemberListedTwiceIsKeptOnceTheOneOfTheSmallestPreference) {
  FrameBuilder builder;
  builder.Add(2, "org/b", 5, "late", 2);
  builder.Add(1, "org/a", 9, "x", 0);
  builder.Add(2, "org/b", 5, "early", 1);
  builder.Add(2, "org/b", 5, "tie", 1);
  const SamplingFrame frame = std::move(builder).Build();
  ASSERT_EQ(frame.items.size(), 2u);
  EXPECT_EQ(frame.repos, (std::vector<std::string>{"org/a", "org/b"}));
  EXPECT_EQ(frame.RepoOf(0), "org/a");
  EXPECT_EQ(frame.RepoOf(1), "org/b");
  EXPECT_EQ(frame.StratumOf(1), "early");
}

TEST(Draw, TwoRepositoryIdsOfOneNameAreOneRepositoryAndTheKeptMemberKeepsItsId) {
  // A name taken again by another repository: the frame knows one repository "org/b", and a
  // number listed under both ids is one member, the one of the smaller preference, whose id
  // is the one its row is read by.
  FrameBuilder builder;
  builder.Add(7, "org/b", 5, "(all)", 7);
  builder.Add(3, "org/b", 5, "(all)", 3);
  builder.Add(7, "org/b", 6, "(all)", 7);
  const SamplingFrame frame = std::move(builder).Build();
  EXPECT_EQ(frame.repos, (std::vector<std::string>{"org/b"}));
  ASSERT_EQ(frame.items.size(), 2u);
  EXPECT_EQ(frame.items[0].number, 5);
  EXPECT_EQ(frame.items[0].repo_id, 3);
  EXPECT_EQ(frame.items[1].number, 6);
  EXPECT_EQ(frame.items[1].repo_id, 7);
}

// What FrameBuilder promises, written the plain way: every member stably sorted by (repository
// name, number, preference), then the first of each (name, number) kept.
struct Added {
  int64_t repo_id;
  std::string repo;
  int64_t number;
  std::string stratum;
  uint64_t preference;
};

std::vector<std::tuple<std::string, int64_t, std::string, int64_t>> ItemsOf(const SamplingFrame& frame) {
  std::vector<std::tuple<std::string, int64_t, std::string, int64_t>> out;
  for (size_t i = 0; i < frame.items.size(); ++i) {
    out.emplace_back(frame.RepoOf(i), frame.items[i].number, frame.StratumOf(i), frame.items[i].repo_id);
  }
  return out;
}

std::vector<std::tuple<std::string, int64_t, std::string, int64_t>> ItemsByStableSort(std::vector<Added> added) {
  std::stable_sort(added.begin(), added.end(), [](const Added& a, const Added& b) {
    return std::tie(a.repo, a.number, a.preference) < std::tie(b.repo, b.number, b.preference);
  });
  std::vector<std::tuple<std::string, int64_t, std::string, int64_t>> out;
  for (const Added& a : added) {
    if (!out.empty() && std::get<0>(out.back()) == a.repo && std::get<1>(out.back()) == a.number) continue;
    out.emplace_back(a.repo, a.number, a.stratum, a.repo_id);
  }
  return out;
}

SamplingFrame FrameOfAdded(const std::vector<Added>& added) {
  FrameBuilder builder;
  for (const Added& a : added) builder.Add(a.repo_id, a.repo, a.number, a.stratum, a.preference);
  return std::move(builder).Build();
}

TEST(Draw, TheFrameIsInTheOrderOfAStableSortWhateverOrderMembersComeIn) {
  // Ids whose names sort the other way (id 1 is "org/z"), two ids of one name ("org/m"), and
  // each member's stratum names its position, so a kept member that is not the first of its
  // (name, number, preference) shows.
  const std::vector<std::pair<int64_t, std::string>> repos = {
      {1, "org/z"}, {2, "org/m"}, {3, "org/a"}, {4, "org/m"}, {5, "Org/q"}, {6, "org/b"}};
  SplitMix64 rng(2024);
  for (int round = 0; round < 200; ++round) {
    std::vector<Added> added;
    const int runs = 1 + static_cast<int>(rng.Below(12));
    for (int r = 0; r < runs; ++r) {
      const auto& [id, name] = repos[rng.Below(repos.size())];
      // Runs in number order (the store's), in reverse, or shuffled; numbers and preferences
      // from small ranges, so that a (name, number) comes again, at the same preference or not.
      const int length = static_cast<int>(rng.Below(8));
      const uint64_t order = rng.Below(3);
      int64_t number = static_cast<int64_t>(rng.Below(5));
      for (int k = 0; k < length; ++k) {
        if (order == 0) number += static_cast<int64_t>(rng.Below(2));
        if (order == 1) number -= static_cast<int64_t>(rng.Below(2));
        if (order == 2) number = static_cast<int64_t>(rng.Below(6));
        added.push_back({id, name, number, "at " + std::to_string(added.size()), rng.Below(3)});
      }
    }
    EXPECT_EQ(ItemsOf(FrameOfAdded(added)), ItemsByStableSort(added)) << "round " << round;
  }
}

TEST(Draw, LongRepositoriesInAnyOrderAreSortedAsByAStableSort) {
  // Repositories of hundreds of members: falling numbers with a few out of place (the listing
  // index's order), several such sequences one after another (several categories), rising,
  // and shuffled; more ids than the id table first holds, named against their order.
  SplitMix64 rng(7);
  for (int round = 0; round < 20; ++round) {
    std::vector<Added> added;
    const int sequences = 1 + static_cast<int>(rng.Below(4));
    for (int sequence = 0; sequence < sequences; ++sequence) {
      const uint64_t order = rng.Below(4);
      for (int64_t k = 0; k < 3000; ++k) {
        const int64_t id = 1 + static_cast<int64_t>(rng.Below(150));
        int64_t number = order == 0 ? 4000 - k : order == 1 ? k : static_cast<int64_t>(rng.Below(4000));
        if (order < 2 && rng.Below(4) == 0) number += static_cast<int64_t>(rng.Below(40)) - 20;
        added.push_back({id, "repo-" + std::to_string(1000 - id % 120), number, "at " + std::to_string(added.size()),
                         rng.Below(2) + static_cast<uint64_t>(sequence)});
      }
    }
    EXPECT_EQ(ItemsOf(FrameOfAdded(added)), ItemsByStableSort(added)) << "round " << round;
  }
}

TEST(Draw, RunsOfOneRepositoryAreMergedInTheOrderTheyCame) {
  // "org/b" comes in two sorted runs with "org/a" between them; the second run repeats number 5
  // at the same preference (the first run's member stays) and at a smaller one (it wins).
  const std::vector<Added> added = {
      {9, "org/b", 5, "first", 1}, {9, "org/b", 8, "first", 1}, {1, "org/a", 3, "a", 0},
      {9, "org/b", 5, "second", 1}, {9, "org/b", 8, "second", 0}, {9, "org/b", 2, "second", 4}};
  const SamplingFrame frame = FrameOfAdded(added);
  EXPECT_EQ(ItemsOf(frame), ItemsByStableSort(added));
  ASSERT_EQ(frame.items.size(), 4u);
  EXPECT_EQ(frame.StratumOf(2), "first");   // org/b 5
  EXPECT_EQ(frame.StratumOf(3), "second");  // org/b 8
}

TEST(Draw, TheSparseShuffleDrawsAsTheFullOne) {
  // Below a quarter of the pool the shuffle keeps only the moved positions; the indices drawn
  // are those of the plain partial Fisher-Yates shuffle over the whole pool.
  for (const size_t size : {10u, 1000u, 100000u}) {
    for (const size_t k : {size_t{1}, size / 10 + 1, size / 5}) {
      SplitMix64 rng(size * 31 + k);
      const std::vector<size_t> drawn = DrawIndices(size, k, rng);
      SplitMix64 reference(size * 31 + k);
      std::vector<size_t> pool(size);
      std::iota(pool.begin(), pool.end(), size_t{0});
      for (size_t i = 0; i < k; ++i) std::swap(pool[i], pool[i + static_cast<size_t>(reference.Below(size - i))]);
      pool.resize(k);
      EXPECT_EQ(drawn, pool) << size << " " << k;
    }
  }
}

TEST(Draw, SmallStratumGivesWhatItHas) {
  const SamplingFrame frame = Frame();
  const StratifiedSample s = DrawStratified(frame, 500, 9);
  EXPECT_EQ(s.chosen.size(), frame.items.size());
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
