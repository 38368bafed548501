#pragma once
// A short, stable name for a long text (a rule model, a repository list): 16 hex digits of its
// 64-bit FNV-1a hash. For recognizing a setting again, not for security.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace ghsift {

inline std::string ShortDigest(std::string_view text) {
  uint64_t h = 1469598103934665603ull;
  for (const unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

}  // namespace ghsift
