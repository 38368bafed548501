#pragma once
// Writes tables as aligned text, CSV or JSON, and the small helpers the commands share.
#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/csv.hpp"
#include "common/terminal_safe.hpp"
#include "common/number_text.hpp"

namespace ghsift::cli {

enum class Format { kTable, kCsv, kJson };

//! The names of the formats, the only list of them: what ParseFormat reads and what its
//! refusal names.
inline constexpr std::array<std::pair<std::string_view, Format>, 3> kFormats = {
    {{"table", Format::kTable}, {"csv", Format::kCsv}, {"json", Format::kJson}}};

//! Parses a name of kFormats; returns false for anything else.
bool ParseFormat(const std::string& text, Format* out);

//! "--format must be table, csv or json, not 'x'": `also` names a command's own further formats
//! (issues: jsonl), after the shared ones.
std::string FormatRefusal(std::string_view given, const std::vector<std::string_view>& also = {});

//! `columns` head the cells; `numeric` marks columns right-aligned in a table and written as they
//! are in JSON (numbers, or JsonArray's lists). Built in one string: answers can have tens of
//! thousands of rows.
std::string FormatTable(Format format, const std::vector<std::string>& columns,
                        const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& numeric);
inline void WriteTable(std::ostream& out, Format format, const std::vector<std::string>& columns,
                       const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& numeric) {
  out << FormatTable(format, columns, rows, numeric);
}

std::string JsonString(std::string_view s);
//! Whether `s` is a JSON number as it stands (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), so
//! that a cell can be written unquoted.
bool IsJsonNumber(std::string_view s);
//! A cell of a column of numbers as JSON: null when empty, as it stands when it is a JSON number,
//! else a string (so that the output stays JSON whatever the cell holds).
std::string JsonNumberCell(std::string_view cell);
//! Whether column `c` of `rows` can be written unquoted (FormatTable's numeric): every cell a JSON
//! number or empty (null).
bool IsNumberColumn(const std::vector<std::vector<std::string>>& rows, size_t c);
//! ["a", "b"]: a list of strings as one JSON value.
std::string JsonArray(const std::vector<std::string>& items);
//! A comma list, each item trimmed of spaces, empty items dropped ("repo, month" = "repo,month");
//! "\," is a comma inside an item (a label "needs info, urgent" is `needs info\, urgent`).
std::vector<std::string> SplitList(const std::string& text);
//! The items as one comma list that SplitList reads back: a comma inside an item written "\,".
std::string JoinList(const std::vector<std::string>& items);
//! The items with `separator` between them ("a;b"); empty items before the first non-empty one
//! add nothing.
std::string Join(const std::vector<std::string>& items, std::string_view separator);
//! Columns of a terminal a UTF-8 text takes (one per code point; control characters escaped first).
size_t DisplayWidth(std::string_view text);
//! A text made fit for one table cell: TerminalSafe, cut to `max_width` columns with an ellipsis
//! (0: not cut).
std::string TableCell(std::string_view text, size_t max_width = 0);
//! The width of the terminal stdout writes to: $COLUMNS when set to a number, else the
//! terminal's own (ioctl); 0 when stdout is no terminal and COLUMNS is not set.
size_t TerminalColumns();

}  // namespace ghsift::cli
