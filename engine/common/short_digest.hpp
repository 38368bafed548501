#pragma once
// A short, stable name for a long text (a rule model, a repository list): 16 hex digits of its
// 64-bit FNV-1a hash. For recognizing a setting again, not for security.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "common/hash.hpp"

namespace ghsift {

//! The seed the digests have always had: FNV's offset basis (14695981039346656037) short of its
//! last digit. Stores keep these digests (`stats`: scope, rule set), so it stays.
inline constexpr uint64_t kShortDigestSeed = 1469598103934665603ull;

//! A 64-bit digest as 16 hex digits, as every digest ghsift shows is written.
inline std::string HexDigest(uint64_t digest) {
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(digest));
  return out;
}

inline std::string ShortDigest(std::string_view text) { return HexDigest(Fnv1a64(text, kShortDigestSeed)); }

}  // namespace ghsift
