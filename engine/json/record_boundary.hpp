#pragma once
// Where records start and end inside one line. The archive's original 2012 files glue every
// record of an hour onto one line (`}{`), and other hours hold the odd glued pair; these find
// the records in such a line without parsing them.
#include <cstddef>
#include <string_view>

namespace ghsift {

//! Position of the '}' of the first "}{\"" in `text` (two records glued together), or npos.
//! Fast enough to run on every line (32 bytes at a time where AVX2 is available). The pattern
//! can also occur inside a string, so a hit means "maybe glued", which the parser settles.
size_t FindRecordJoin(std::string_view text);

//! `text` starts with '{': returns the length of that JSON object (up to and including the '}'
//! that closes it, strings and escapes respected), or npos when it does not close within `text`
//! (a truncated record). Brackets are not checked against each other: the parser does that.
size_t RecordLength(std::string_view text);

//! `record` starts with '{': whether position `pos` lies outside every string and inside no object
//! or array but the record's own (nesting depth 1), so that a key starting there is a member of
//! the record itself, not of a nested value. Reads record[0, pos) only, once, strings and escapes
//! respected; brackets are not checked against each other (the parser does that).
bool AtTopLevel(std::string_view record, size_t pos);

//! Position of the first `needle` (2 or more bytes) in `text`, or npos: string_view::find with a
//! filter on the needle's first and last byte, 32 positions at a time. A JSON key opens with '"',
//! which string_view::find hands to memchr at every quote of the line, one call each.
size_t FindLiteral(std::string_view text, std::string_view needle);

}  // namespace ghsift
