#pragma once
// splitmix64 (Steele, Lea, Flood 2014): a tiny, well-mixed 64-bit generator, ghsift's only one
// besides the generator's xoshiro (which it seeds). Our own rather than <random>: std
// distributions differ between standard libraries, and its outputs are part of what ghsift
// writes (generated corpora, drawn samples), so they never change (common/hash_test.cpp pins them).
#include <cstdint>

namespace ghsift {

//! One step: advances `state` and returns the step's output.
inline uint64_t SplitMixNext(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

//! The generator with its state, for a stream of draws.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() { return SplitMixNext(state_); }
  //! Uniform in [0, bound) without modulo bias; bound > 0.
  uint64_t Below(uint64_t bound) {
    // Rejects the top partial block of 2^64 so that every residue is equally likely.
    const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t x;
    do {
      x = Next();
    } while (x >= limit);
    return x % bound;
  }

 private:
  uint64_t state_;
};

}  // namespace ghsift
