#pragma once
// Our own PRNG: std distributions differ between standard libraries, and the corpus must
// be byte-identical wherever it is generated. splitmix64 (common/split_mix.hpp) derives seeds
// and keyed values; xoshiro256** below draws the streams.
#include <cstddef>
#include <cstdint>

#include "common/split_mix.hpp"

namespace ghsift::gen {

//! Derives an independent stream seed from a base seed and up to two stream labels.
inline uint64_t MixSeed(uint64_t seed, uint64_t a, uint64_t b = 0) {
  uint64_t s = seed;
  uint64_t h = SplitMixNext(s);
  s = h ^ (a * 0xD6E8FEB86659FD93ULL);
  h = SplitMixNext(s);
  s = h ^ (b * 0xA0761D6478BD642FULL);
  return SplitMixNext(s);
}

//! xoshiro256** seeded through splitmix64.
class Rng {
  __extension__ typedef unsigned __int128 Wide;  // GCC/Clang builtin; pedantic mode would object

 public:
  explicit Rng(uint64_t seed) {
    for (auto& word : s_) word = SplitMixNext(seed);
  }

  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  //! Uniform in [0, n); n == 0 yields 0. Multiply-shift: no modulo bias worth caring about.
  uint64_t Below(uint64_t n) {
    return static_cast<uint64_t>((static_cast<Wide>(Next()) * n) >> 64);
  }

  //! Uniform in [lo, hi], inclusive.
  int Range(int lo, int hi) { return lo + static_cast<int>(Below(static_cast<uint64_t>(hi - lo + 1))); }

  //! True with probability p; only integer compares after one IEEE multiply, so portable.
  bool Chance(double p) {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return (Next() >> 11) < static_cast<uint64_t>(p * 9007199254740992.0);
  }

  template <typename T, size_t N>
  const T& Pick(const T (&items)[N]) {
    return items[Below(N)];
  }

  //! Index drawn with the given integer weights.
  size_t Weighted(const int* weights, size_t n) {
    int total = 0;
    for (size_t i = 0; i < n; ++i) total += weights[i];
    int r = static_cast<int>(Below(static_cast<uint64_t>(total)));
    for (size_t i = 0; i < n; ++i) {
      if (r < weights[i]) return i;
      r -= weights[i];
    }
    return n - 1;
  }

  //! Skewed pick in [0, n): small indices are much more likely (popular repos, active users).
  uint64_t Skewed(uint64_t n) { return Below(Below(n) + 1); }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace ghsift::gen
