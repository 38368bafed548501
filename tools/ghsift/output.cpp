#include "output.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>

#include "common/closest_name.hpp"

namespace ghsift::cli {

bool ParseFormat(const std::string& text, Format* out) {
  for (const auto& [name, format] : kFormats) {
    if (text == name) {
      *out = format;
      return true;
    }
  }
  return false;
}

std::string FormatRefusal(std::string_view given, const std::vector<std::string_view>& also) {
  std::vector<std::string_view> names;
  for (const auto& [name, format] : kFormats) names.push_back(name);
  names.insert(names.end(), also.begin(), also.end());
  return "--format must be " + JoinChoices(names) + ", not '" + TerminalSafe(given) + "'";
}

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  char escape[16];
  const auto add_escape = [&](uint32_t unit) {
    std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(unit));
    out += escape;
  };
  for (size_t at = 0; at < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[at]);
    uint32_t cp = 0;
    const size_t length = c < 0x80 ? 1 : DecodeUtf8(s, at, cp);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
          if (c < 0x20 || c == 0x7F) {
            add_escape(c);
          } else {
            out.push_back(static_cast<char>(c));
          }
      }
    } else if (length > 0 && IsHiddenCodePoint(cp)) {
      // The same text, in escapes a terminal does not act on: JSON on a terminal shows the bidi
      // overrides, C1 controls and invisible characters of report text instead of obeying them.
      if (cp > 0xFFFF) {
        add_escape(0xD800 + ((cp - 0x10000) >> 10));
        add_escape(0xDC00 + ((cp - 0x10000) & 0x3FF));
      } else {
        add_escape(cp);
      }
    } else {
      out.append(s.substr(at, length > 0 ? length : 1));  // bytes that are not UTF-8 pass as they are
    }
    at += length > 0 ? length : 1;
  }
  return out + "\"";
}

bool IsJsonNumber(std::string_view s) {
  size_t i = 0;
  auto digits = [&] {
    const size_t from = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > from;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

std::string JsonNumberCell(std::string_view cell) {
  if (cell.empty()) return "null";
  return IsJsonNumber(cell) ? std::string(cell) : JsonString(cell);
}

bool IsNumberColumn(const std::vector<std::vector<std::string>>& rows, size_t c) {
  return std::all_of(rows.begin(), rows.end(), [&](const std::vector<std::string>& row) {
    return c < row.size() && (row[c].empty() || IsJsonNumber(row[c]));
  });
}

std::string JsonArray(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += JsonString(items[i]);
  }
  return out + "]";
}

std::string Join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  const auto finish = [&] {
    const size_t first = item.find_first_not_of(" \t");
    if (first != std::string::npos) out.push_back(item.substr(first, item.find_last_not_of(" \t") - first + 1));
    item.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == ',') {
      item += ',';
      ++i;
    } else if (text[i] == ',') {
      finish();
    } else {
      item += text[i];
    }
  }
  finish();
  return out;
}

std::string JoinList(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += ',';
    for (const char c : item) {
      if (c == ',') out += '\\';
      out += c;
    }
  }
  return out;
}

namespace {

//! East Asian wide and fullwidth code points (Unicode's EastAsianWidth W and F, the main
//! blocks), which terminals draw two columns wide; the rest take one.
bool IsWide(uint32_t cp) {
  return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) || (cp >= 0x3041 && cp <= 0x33FF) ||
         (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
         (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
         (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
         (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD);
}

//! Combining marks (the main blocks of Unicode's Mn and Me: accents written after their letter,
//! as in a decomposed "ế"), variation selectors and zero-width joiners, which terminals draw
//! over the column before: they take none.
bool IsZeroWidth(uint32_t cp) {
  return (cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x0483 && cp <= 0x0489) || (cp >= 0x0591 && cp <= 0x05BD) ||
         (cp >= 0x0610 && cp <= 0x061A) || (cp >= 0x064B && cp <= 0x065F) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
         (cp >= 0x1DC0 && cp <= 0x1DFF) || (cp >= 0x200B && cp <= 0x200D) || (cp >= 0x20D0 && cp <= 0x20FF) ||
         (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xFE20 && cp <= 0xFE2F);
}

//! Columns of the code point that starts at text[at]; `at` moves past it. Bytes that are not
//! UTF-8 count one column each.
size_t ColumnsOfNext(std::string_view text, size_t& at) {
  uint32_t cp = 0;
  const size_t length = DecodeUtf8(text, at, cp);
  if (length <= 1) {
    ++at;
    return 1;
  }
  at += length;
  return IsWide(cp) ? 2 : IsZeroWidth(cp) ? 0 : 1;
}

}  // namespace

size_t DisplayWidth(std::string_view text) {
  // ASCII, most cells: a column a byte, without decoding (a table of 40,000 rows measured each
  // cell twice).
  if (std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    return text.size();
  }
  size_t width = 0;
  for (size_t at = 0; at < text.size();) width += ColumnsOfNext(text, at);
  return width;
}

std::string TableCell(std::string_view text, size_t max_width) {
  std::string out = TerminalSafe(text);
  if (max_width == 0 || DisplayWidth(out) <= max_width) return out;
  // Keep what fits in max_width - 1 columns, then the ellipsis.
  size_t columns = 0, at = 0;
  while (at < out.size()) {
    size_t next = at;
    const size_t w = ColumnsOfNext(out, next);
    if (columns + w > max_width - 1) break;
    columns += w;
    at = next;
  }
  out.resize(at);
  return out + "\u2026";
}

size_t TerminalColumns() {
  if (const char* columns = std::getenv("COLUMNS"); columns != nullptr && *columns != '\0') {
    char* end = nullptr;
    const unsigned long n = std::strtoul(columns, &end, 10);
    if (*end == '\0' && n > 0) return n;
  }
  winsize size{};
  if (::isatty(STDOUT_FILENO) && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 0;
}


std::string FormatTable(Format format, const std::vector<std::string>& columns,
                        const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& numeric) {
  auto is_numeric = [&](size_t c) { return c < numeric.size() && numeric[c]; };
  std::string out;
  if (format == Format::kCsv) {
    auto csv_row = [&](const std::vector<std::string>& row) {
      for (size_t c = 0; c < row.size(); ++c) {
        if (c) out.push_back(',');
        AppendCsvField(out, row[c]);
      }
      out.push_back('\n');
    };
    csv_row(columns);
    for (const auto& row : rows) csv_row(row);
    return out;
  }
  if (format == Format::kJson) {
    out += "[";
    for (size_t r = 0; r < rows.size(); ++r) {
      out += r ? ",\n {" : "\n {";
      for (size_t c = 0; c < columns.size() && c < rows[r].size(); ++c) {
        if (c) out += ", ";
        out += JsonString(columns[c]);
        out += ": ";
        // A numeric cell without a value (a median of nothing) is JSON's null.
        out += is_numeric(c) ? (rows[r][c].empty() ? "null" : rows[r][c]) : JsonString(rows[r][c]);
      }
      out += "}";
    }
    out += rows.empty() ? "]\n" : "\n]\n";
    return out;
  }
  // A table is read by a person: every cell is shown TerminalSafe (a report's title or label can
  // hold escape sequences), and widths are in terminal columns, so UTF-8 text lines up too.
  // Cells that are printable already (most) are shown as they are, not copied.
  std::deque<std::string> escaped;
  std::vector<std::string_view> safe_columns;  // headers too: a group or a label can name a column
  for (const std::string& column : columns) {
    safe_columns.push_back(IsPrintableAscii(column) ? std::string_view(column)
                                                    : escaped.emplace_back(TerminalSafe(column)));
  }
  std::vector<std::vector<std::string_view>> safe_rows;
  safe_rows.reserve(rows.size());
  for (const auto& row : rows) {
    std::vector<std::string_view> safe;
    safe.reserve(row.size());
    for (const std::string& cell : row) {
      safe.push_back(IsPrintableAscii(cell) ? std::string_view(cell) : escaped.emplace_back(TerminalSafe(cell)));
    }
    safe_rows.push_back(std::move(safe));
  }
  std::vector<size_t> width(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) width[c] = DisplayWidth(safe_columns[c]);
  for (const auto& row : safe_rows) {
    for (size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], DisplayWidth(row[c]));
  }
  size_t row_bytes = 1;
  for (size_t w : width) row_bytes += w + 2;
  out.reserve(row_bytes * (rows.size() + 2));
  auto write_row = [&](const auto& row) {
    for (size_t c = 0; c < row.size() && c < width.size(); ++c) {
      const size_t pad = width[c] - DisplayWidth(row[c]);
      if (c) out += "  ";
      if (is_numeric(c)) {
        out.append(pad, ' ');
        out += row[c];
      } else {
        out += row[c];
        if (c + 1 < row.size()) out.append(pad, ' ');
      }
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();  // an empty last cell leaves none
    out.push_back('\n');
  };
  write_row(safe_columns);
  std::vector<std::string> rule;
  for (size_t w : width) rule.push_back(std::string(w, '-'));
  // A last column of text (a reason, a title) may be long in a few rows: its rule stops at 40
  // columns instead of running as wide as the longest.
  if (!rule.empty() && !is_numeric(rule.size() - 1)) {
    rule.back().resize(std::min(width.back(), std::max<size_t>(DisplayWidth(safe_columns.back()), 40)));
  }
  write_row(rule);
  for (const auto& row : safe_rows) write_row(row);
  return out;
}

}  // namespace ghsift::cli
