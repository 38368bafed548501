#pragma once
// CSV cells (RFC 4180): a cell holding a comma, a quote or a line break is quoted, with its
// quotes doubled. One definition for every CSV ghsift writes, so that the query's CSV and a
// report's CSV of the same table are byte for byte the same.
#include <string>
#include <string_view>

namespace ghsift {

inline void AppendCsvField(std::string& out, std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) {
    out.append(s);
    return;
  }
  out.push_back('"');
  for (const char c : s) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

inline std::string CsvField(std::string_view s) {
  std::string out;
  AppendCsvField(out, s);
  return out;
}

}  // namespace ghsift
