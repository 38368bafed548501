#pragma once
// Drawing a sample of flagged reports for hand labeling: Cochran's sample size with the finite
// population correction, proportional allocation to strata, and a reproducible draw.
// Reproducible means: the same frame and seed give the same rows on every machine. The draw
// never depends on hash-map iteration order; each stratum's members are sorted by (repo,
// number) and shuffled by a splitmix64 stream derived from the seed and the stratum's name.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/flat_id_map.hpp"
#include "common/split_mix.hpp"

namespace ghsift {

//! The two-sided z value for a confidence level in (0, 1): 1.645, 1.96 and 2.576 for 0.90, 0.95
//! and 0.99 (the values sample-size tables use); any other level from the inverse normal.
double ZForConfidence(double confidence);

//! The inverse of the standard normal distribution function, for p in (0, 1).
double InverseNormal(double p);

struct SampleSize {
  double z = 0;
  double n0 = 0;     //!< z^2 p (1 - p) / e^2: the size for an infinite population
  double exact = 0;  //!< n0 / (1 + (n0 - 1) / N): before rounding
  int64_t n = 0;     //!< `exact` rounded up, and never above N
  //! True when the correction lowered the size below ceil(n0).
  bool corrected = false;
};

//! Cochran's sample size for estimating a proportion (p = 0.5, the most conservative) within
//! `margin` at `confidence`, corrected for a population of `population` reports.
SampleSize CochranSampleSize(int64_t population, double confidence, double margin, double p = 0.5);

//! Splits `n` over strata of the given sizes in proportion to their size, by largest
//! remainder: each stratum gets floor(n * size / total), and the units left go to the largest
//! fractional parts. Equal parts (many strata of one report each, two of one size) go in the
//! order of `tie_keys` (smallest first; a seeded random number per stratum makes that a lottery,
//! so that no stratum wins every tie by its name), or to the earlier stratum without keys. A
//! stratum never gets more than its size; what it cannot take goes to the others the same way.
//! The sum is exactly min(n, total).
std::vector<int64_t> AllocateProportional(const std::vector<int64_t>& sizes, int64_t n,
                                          const std::vector<uint64_t>& tie_keys = {});

//! The first `k` positions of a partial Fisher-Yates shuffle of 0..size-1: `k` distinct
//! indices, uniformly chosen. `k` above `size` takes everything.
std::vector<size_t> DrawIndices(size_t size, size_t k, SplitMix64& rng);

//! One member of the sampling frame. Its repository and stratum are numbers that SamplingFrame
//! names, so a frame of millions of reports holds no string per report.
struct FrameItem {
  uint32_t repo = 0;     //!< index into SamplingFrame::repos
  uint32_t stratum = 0;  //!< index into SamplingFrame::strata
  int64_t number = 0;
  //! The store's id of the repository of the member kept: a drawn row is read by its key.
  int64_t repo_id = 0;
};

//! The population a sample is drawn from, each (repository name, number) once. Repositories are
//! numbered in name order, so members sort by (repo, number) as by (name, number).
struct SamplingFrame {
  std::vector<std::string> repos;   //!< sorted, distinct
  std::vector<std::string> strata;  //!< distinct, in the order first seen
  std::vector<FrameItem> items;     //!< sorted by (repo, number)

  const std::string& RepoOf(size_t item) const { return repos[items[item].repo]; }
  const std::string& StratumOf(size_t item) const { return strata[items[item].stratum]; }
};

//! Collects the members of a frame by name, in any order.
class FrameBuilder {
 public:
  //! A member listed twice (one repository name and number) is kept once: the one of the
  //! smallest `preference` (ties: the first added), whatever order they come in. `repo_id` is
  //! the store's id of the repository, which has one name in a frame (several ids may share it:
  //! a name taken again): names are looked up by id, so each is hashed once, not per member.
  void Add(int64_t repo_id, std::string_view repo, int64_t number, std::string_view stratum, uint64_t preference = 0);
  SamplingFrame Build() &&;

 private:
  struct Member {
    uint32_t stratum;
    uint32_t order;  //!< the how-manieth of its repository's members it was added as
    int64_t number;
    uint64_t preference;
    int64_t repo_id;
  };
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  static uint32_t Intern(std::string_view name, std::unordered_map<std::string, uint32_t, NameHash, std::equal_to<>>& index,
                         std::vector<std::string>& names);
  uint32_t RepoOfId(int64_t repo_id, std::string_view repo);
  std::vector<uint32_t> ReposInNameOrder() const;
  static bool Before(const Member& a, const Member& b);
  static void SortMembers(Member* first, Member* last);
  static Member* SortedRunFrom(Member* first, Member* last);

  std::unordered_map<std::string, uint32_t, NameHash, std::equal_to<>> repo_index_, stratum_index_;
  FlatIdMap<uint32_t> repo_of_id_;  //!< store id -> index into repos_, looked up once per member
  std::vector<std::string> repos_, strata_;
  uint32_t last_stratum_ = 0;  //!< strata come in runs: the last one is compared before hashing
  //! Each repository's members (by index into repos_), in the order added: Build then sorts
  //! each repository's members on their own instead of all members by repository.
  std::vector<std::vector<Member>> members_of_repo_;
  size_t member_count_ = 0;
};

struct StratumDraw {
  std::string name;
  int64_t population = 0;  //!< members of the frame in this stratum
  int64_t allocated = 0;   //!< its share of n
  int64_t drawn = 0;       //!< rows drawn (= allocated unless the stratum is smaller)
};

struct StratifiedSample {
  std::vector<StratumDraw> strata;  //!< sorted by name
  //! Indices into the frame, sorted by (stratum, repo, number).
  std::vector<size_t> chosen;
};

//! Allocates `n` proportionally to the strata of `frame` and draws each stratum's share.
StratifiedSample DrawStratified(const SamplingFrame& frame, int64_t n, uint64_t seed);

}  // namespace ghsift
