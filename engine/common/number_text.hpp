#pragma once
// Numbers as people read them in messages and tables.
#include <cstdint>
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

}  // namespace ghsift
