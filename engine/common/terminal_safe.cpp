#include "common/terminal_safe.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace ghsift {

// The bidi controls are Trojan-Source reordering (marks, embeddings, overrides, isolates). The
// zero-width joiner and non-joiner (U+200C, U+200D) are not hidden: emoji sequences and several
// scripts need them, and they reorder nothing.
bool IsHiddenCodePoint(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) ||                       // C1 controls (0x9B is a CSI)
         cp == 0x00AD || cp == 0x034F ||                     // soft hyphen, combining grapheme joiner
         cp == 0x061C ||                                     // Arabic letter mark
         cp == 0x115F || cp == 0x1160 ||                     // Hangul choseong / jungseong fillers
         cp == 0x17B4 || cp == 0x17B5 ||                     // Khmer inherent vowels
         (cp >= 0x180B && cp <= 0x180F) ||                   // Mongolian variation selectors, vowel separator
         cp == 0x3164 || cp == 0xFFA0 ||                     // Hangul fillers
         (cp >= 0xFE00 && cp <= 0xFE0F) ||                   // variation selectors
         (cp >= 0x1D173 && cp <= 0x1D17A) ||                 // musical formatting controls
         (cp >= 0x13430 && cp <= 0x1343F) ||                 // Egyptian hieroglyph format controls
         (cp >= 0xE0000 && cp <= 0xE007F) ||                 // tag characters (text hidden in plain sight)
         (cp >= 0xE0100 && cp <= 0xE01EF) ||                 // variation selectors supplement
         cp == 0x200B || cp == 0x200E || cp == 0x200F ||     // zero-width space, LRM, RLM
         (cp >= 0x2028 && cp <= 0x202E) ||                   // line/paragraph separators, embeddings, overrides
         (cp >= 0x2060 && cp <= 0x206F) ||                   // word joiner, invisible operators, isolates
         cp == 0xFEFF ||                                     // zero-width no-break space (BOM)
         (cp >= 0xFFF9 && cp <= 0xFFFB);                     // interlinear annotation
}

size_t DecodeUtf8(std::string_view text, size_t at, uint32_t& cp) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
  if (lead < 0x80) {
    cp = lead;
    return 1;
  } else if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  if (byte(at + 1) < low || byte(at + 1) > high) return 0;
  cp = lead & (0x7F >> length);
  for (size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(at + i) & 0x3F);
  }
  return length;
}

bool IsPrintableAscii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7F; });
}

std::string TerminalSafe(std::string_view text) {
  // Most cells (counts, months, repository names) are printable ASCII: copied whole, without
  // decoding each character (a query's table of 100,000 rows spent a twentieth of its time here).
  if (IsPrintableAscii(text)) return std::string(text);
  std::string out;
  out.reserve(text.size());
  char escape[16];
  for (size_t at = 0; at < text.size();) {
    uint32_t cp = 0;
    const size_t length = DecodeUtf8(text, at, cp);
    if (length == 0) {
      std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned char>(text[at]));
      out += escape;
      ++at;
      continue;
    }
    if (cp == '\t') out += "\\t";
    else if (cp == '\n') out += "\\n";
    else if (cp == '\r') out += "\\r";
    else if (cp < 0x20 || cp == 0x7F) {
      std::snprintf(escape, sizeof escape, "\\x%02x", cp);
      out += escape;
    } else if (IsHiddenCodePoint(cp)) {
      std::snprintf(escape, sizeof escape, "\\u%04x", cp);
      out += escape;
    } else {
      out.append(text.substr(at, length));
    }
    at += length;
  }
  return out;
}

}  // namespace ghsift
