#pragma once
// Appending JSON pieces to a reused std::string: the generator's hot path, so no
// temporaries and no per-field allocation.
#include <cstdint>
#include <string>
#include <string_view>

namespace ghsift::gen {

//! Appends `"s"` with JSON escaping: quote, backslash, \n \r \t \b \f, other controls as \u00XX.
//! Bytes >= 0x80 pass through: the generator only produces valid UTF-8.
void AppendJsonString(std::string& out, std::string_view s);

//! Appends `"s"` without escaping, for text we built ourselves from safe characters (URLs).
inline void AppendQuoted(std::string& out, std::string_view s) {
  out.push_back('"');
  out.append(s);
  out.push_back('"');
}

inline void AppendUint(std::string& out, uint64_t v) {
  char buf[20];
  int n = 0;
  do {
    buf[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) out.push_back(buf[--n]);
}

inline void AppendBool(std::string& out, bool v) { out.append(v ? "true" : "false"); }

//! Appends `null` when `is_null`, else `s` as a JSON string (a report body may be null or "").
inline void AppendJsonStringOrNull(std::string& out, std::string_view s, bool is_null) {
  if (is_null) {
    out.append("null");
  } else {
    AppendJsonString(out, s);
  }
}

//! Appends `"2024-01-01T00:00:01Z"`, quoted.
void AppendQuotedTime(std::string& out, int64_t unix_seconds);

//! Appends `null` for 0 (never happened: closed_at, merged_at), else the quoted time.
void AppendTimeOrNull(std::string& out, int64_t unix_seconds);

//! Appends 40 lowercase hex digits derived from `key` (commit shas).
void AppendSha(std::string& out, uint64_t key);

//! Appends 32 hex digits stable per account (the Timeline era's gravatar ids).
void AppendGravatarId(std::string& out, uint64_t account_id);

//! Appends a GitHub-looking node id: prefix then base64url-ish text derived from `id`.
void AppendNodeId(std::string& out, std::string_view prefix, uint64_t id);

//! Appends `s` percent-encoded as GitHub does in label URLs (space -> %20, ':' -> %3A, ...).
void AppendUrlEncoded(std::string& out, std::string_view s);

}  // namespace ghsift::gen
