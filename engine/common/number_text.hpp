#pragma once
// Numbers as people read them in messages and tables.
#include <cstdint>
#include <cstdio>
#include <string>

namespace ghsift {

//! 1234567 -> "1,234,567".
inline std::string WithCommas(uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

//! `value` with `decimals` digits after the point ("0.02"): the one form of a fixed-point figure,
//! so that figures meant to read alike (days to close in the exports and in a median) do.
inline std::string Fixed(double value, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

//! 1234567 -> "1.2 MB": decimal units, as throughput is quoted.
inline std::string HumanBytes(double bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (bytes >= 1000 && u < 4) {
    bytes /= 1000;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return text;
}

//! "1 file", "2 files", "1,024 files": a count with its noun, singular or plural (+ "s").
inline std::string Counted(uint64_t n, const std::string& noun) {
  return WithCommas(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace ghsift
