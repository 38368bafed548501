#pragma once
// Small non-cryptographic hashes, one per purpose: FNV-1a for what is kept or shown (text
// identities in stores, digests, cache file names, sample streams: its values never change;
// common/hash_test.cpp pins them), and a word-at-a-time hash for in-memory cache slots.
#include <cstdint>
#include <cstring>
#include <string_view>

namespace ghsift {

inline uint64_t Fnv1a64(std::string_view text, uint64_t seed = 0xcbf29ce484222325ull) {
  uint64_t h = seed;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

//! Eight bytes per step: fast enough to key a cache by a whole report body. Only for in-memory
//! use (the values may change between versions); a cache compares the text itself on a hit.
inline uint64_t WordHash64(std::string_view text, uint64_t seed = 0) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  uint64_t h = (seed ^ text.size()) * kMul;
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    h = (h ^ word) * kMul;
    h ^= h >> 29;
  }
  uint64_t tail = 0;
  if (i < text.size()) std::memcpy(&tail, text.data() + i, text.size() - i);
  h = (h ^ tail) * kMul;
  return h ^ (h >> 32);
}

}  // namespace ghsift
