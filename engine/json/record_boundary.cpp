#include "json/record_boundary.hpp"

#include <cstring>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace ghsift {

// A search that stops at every '}' (string_view::find, memmem) costs as much as parsing; 32
// bytes at a time it is nearly free.
size_t FindRecordJoin(std::string_view text) {
  const char* p = text.data();
  const size_t n = text.size();
  size_t i = 0;
#if defined(__AVX2__)
  const __m256i close = _mm256_set1_epi8('}');
  const __m256i open = _mm256_set1_epi8('{');
  const __m256i quote = _mm256_set1_epi8('"');
  for (; i + 34 <= n; i += 32) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 1));
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 2));
    const __m256i hit = _mm256_and_si256(_mm256_and_si256(_mm256_cmpeq_epi8(a, close), _mm256_cmpeq_epi8(b, open)),
                                         _mm256_cmpeq_epi8(c, quote));
    const unsigned mask = static_cast<unsigned>(_mm256_movemask_epi8(hit));
    if (mask != 0) return i + static_cast<size_t>(__builtin_ctz(mask));
  }
#endif
  for (; i + 2 < n; ++i) {
    if (p[i] == '}' && p[i + 1] == '{' && p[i + 2] == '"') return i;
  }
  return std::string_view::npos;
}

size_t RecordLength(std::string_view text) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped byte cannot end the string
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (depth == 0) return std::string_view::npos;  // closes more than it opened: broken
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

size_t FindLiteral(std::string_view text, std::string_view needle) {
  const size_t m = needle.size();
  if (m < 2) return text.find(needle);
  if (text.size() < m) return std::string_view::npos;
  const char* p = text.data();
  const size_t last_start = text.size() - m;  // the last position a match can start at
  size_t i = 0;
#if defined(__AVX2__)
  const __m256i first = _mm256_set1_epi8(needle.front());
  const __m256i last = _mm256_set1_epi8(needle.back());
  for (; i + 31 <= last_start; i += 32) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + m - 1));
    unsigned mask = static_cast<unsigned>(
        _mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpeq_epi8(a, first), _mm256_cmpeq_epi8(b, last))));
    while (mask != 0) {
      const size_t at = i + static_cast<size_t>(__builtin_ctz(mask));
      if (std::memcmp(p + at + 1, needle.data() + 1, m - 2) == 0) return at;
      mask &= mask - 1;
    }
  }
#endif
  for (; i <= last_start; ++i) {
    if (p[i] == needle.front() && std::memcmp(p + i + 1, needle.data() + 1, m - 1) == 0) return i;
  }
  return std::string_view::npos;
}

}  // namespace ghsift
