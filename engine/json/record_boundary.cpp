#include "json/record_boundary.hpp"

#include <cstdint>
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

namespace {

//! AtTopLevel one byte at a time; the strings are skipped with memchr.
bool AtTopLevelBytewise(std::string_view record, size_t pos) {
  const char* p = record.data();
  size_t depth = 0;
  for (size_t i = 0; i < pos; ++i) {
    const char c = p[i];
    if (c == '"') {
      // To the quote that closes the string: one preceded by an even run of backslashes.
      size_t from = i + 1;
      while (true) {
        const char* quote = static_cast<const char*>(std::memchr(p + from, '"', pos - from));
        if (quote == nullptr) return false;  // `pos` is inside this string
        const size_t at = static_cast<size_t>(quote - p);
        size_t backslashes = 0;
        while (at - backslashes > i + 1 && p[at - backslashes - 1] == '\\') ++backslashes;
        from = at + 1;
        if (backslashes % 2 == 0) break;
      }
      i = from - 1;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      // Back to depth 0: the record closed before `pos`, which is past its end.
      if (depth <= 1) return false;
      --depth;
    }
  }
  return depth == 1;
}

#if defined(__AVX2__) && defined(__PCLMUL__)
//! Bit i set where byte i of the 64 is `c`.
inline uint64_t EqualMask(__m256i low, __m256i high, char c) {
  const __m256i v = _mm256_set1_epi8(c);
  const uint64_t a = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, v)));
  const uint64_t b = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, v)));
  return a | (b << 32);
}

//! Bit i = the parity of the bits 0..i: set from an opening quote up to its closing one.
inline uint64_t PrefixXor(uint64_t bits) {
  const __m128i all = _mm_set1_epi8(static_cast<char>(0xFF));
  return static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_clmulepi64_si128(_mm_set_epi64x(0, static_cast<int64_t>(bits)), all, 0)));
}
#endif

}  // namespace

bool AtTopLevel(std::string_view record, size_t pos) {
  if (pos > record.size()) return false;
#if defined(__AVX2__) && defined(__PCLMUL__)
  // 64 bytes at a time: the strings from the quotes' running parity, the depth from the brackets
  // outside them. A backslash (an escaped quote, perhaps) is left to the bytewise read; the
  // archive's bytes before a record's `repo` hardly ever hold one.
  const char* p = record.data();
  size_t depth = 0;
  uint64_t in_string = 0;  //!< all ones while a string runs on into the next block
  for (size_t i = 0; i < pos; i += 64) {
    // The bytes before `pos` only: a block reaching past it is masked, and one reaching past the
    // record (a short one) is read from a copy.
    const uint64_t before = pos - i >= 64 ? ~uint64_t{0} : (uint64_t{1} << (pos - i)) - 1;
    char copy[64];
    const char* block = p + i;
    if (record.size() - i < 64) {
      std::memset(copy, ' ', sizeof copy);
      std::memcpy(copy, block, pos - i);
      block = copy;
    }
    const __m256i low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block));
    const __m256i high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 32));
    if ((EqualMask(low, high, '\\') & before) != 0) return AtTopLevelBytewise(record, pos);
    const uint64_t strings = PrefixXor(EqualMask(low, high, '"') & before) ^ in_string;
    in_string = static_cast<uint64_t>(static_cast<int64_t>(strings) >> 63);
    // '[' and '{' differ in bit 0x20 only, as ']' and '}' do: one comparison finds both.
    const __m256i case_bit = _mm256_set1_epi8(0x20);
    const __m256i low_folded = _mm256_or_si256(low, case_bit);
    const __m256i high_folded = _mm256_or_si256(high, case_bit);
    const uint64_t open = EqualMask(low_folded, high_folded, '{') & ~strings & before;
    const uint64_t close = EqualMask(low_folded, high_folded, '}') & ~strings & before;
    if (close == 0) {
      depth += static_cast<size_t>(__builtin_popcountll(open));
      continue;
    }
    // In order, so that a record closing before `pos` is seen.
    for (uint64_t bits = open | close; bits != 0; bits &= bits - 1) {
      if ((open & bits & (~bits + 1)) != 0) {
        ++depth;
      } else {
        if (depth <= 1) return false;
        --depth;
      }
    }
  }
  return in_string == 0 && depth == 1;
#else
  return AtTopLevelBytewise(record, pos);
#endif
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
