#pragma once
// A small non-cryptographic hash for cache keys and text identities (FNV-1a, 64 bits).
#include <cstdint>
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

}  // namespace ghsift
