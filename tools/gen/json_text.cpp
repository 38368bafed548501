#include "gen/json_text.hpp"

#include <array>

#include "gen/civil_time.hpp"
#include "gen/rng.hpp"

namespace ghsift::gen {

namespace {

// 0 = copy as is, 1 = needs escaping.
constexpr std::array<uint8_t, 256> MakeEscapeTable() {
  std::array<uint8_t, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[c] = 1;
  table['"'] = 1;
  table['\\'] = 1;
  return table;
}
constexpr std::array<uint8_t, 256> kEscape = MakeEscapeTable();

}  // namespace

void AppendJsonString(std::string& out, std::string_view s) {
  out.push_back('"');
  const char* p = s.data();
  const char* end = p + s.size();
  while (p < end) {
    const char* run = p;
    while (p < end && kEscape[static_cast<uint8_t>(*p)] == 0) ++p;
    out.append(run, static_cast<size_t>(p - run));
    if (p == end) break;
    const auto c = static_cast<uint8_t>(*p++);
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      case '\b': out.append("\\b"); break;
      case '\f': out.append("\\f"); break;
      default: {
        static const char kHex[] = "0123456789abcdef";
        const char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        out.append(esc, 6);
      }
    }
  }
  out.push_back('"');
}

void AppendQuotedTime(std::string& out, int64_t unix_seconds) {
  out.push_back('"');
  AppendTimestamp(out, unix_seconds);
  out.push_back('"');
}

void AppendTimeOrNull(std::string& out, int64_t unix_seconds) {
  if (unix_seconds == 0) {
    out.append("null");
  } else {
    AppendQuotedTime(out, unix_seconds);
  }
}

void AppendSha(std::string& out, uint64_t key) {
  static const char kHex[] = "0123456789abcdef";
  uint64_t state = key;
  for (int part = 0; part < 3; ++part) {
    uint64_t v = SplitMixNext(state);
    const int digits = part < 2 ? 16 : 8;
    for (int i = 0; i < digits; ++i) {
      out.push_back(kHex[v & 15]);
      v >>= 4;
    }
  }
}

void AppendGravatarId(std::string& out, uint64_t account_id) {
  AppendSha(out, account_id * 7 + 3);
  out.resize(out.size() - 8);
}

void AppendNodeId(std::string& out, std::string_view prefix, uint64_t id) {
  static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  out.append(prefix);
  uint64_t state = id * 0x9E3779B97F4A7C15ULL + prefix.size();
  uint64_t v = SplitMixNext(state);
  for (int i = 0; i < 10; ++i) {
    out.push_back(kAlphabet[v & 63]);
    v >>= 6;
  }
  v = id;
  for (int i = 0; i < 6; ++i) {
    out.push_back(kAlphabet[v & 63]);
    v >>= 6;
  }
}

void AppendUrlEncoded(std::string& out, std::string_view s) {
  static const char kHex[] = "0123456789ABCDEF";
  for (const char ch : s) {
    const auto c = static_cast<uint8_t>(ch);
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_' || c == '.' || c == '~';
    if (plain) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
}

}  // namespace ghsift::gen
