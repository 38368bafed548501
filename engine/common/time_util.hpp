#pragma once
// Timestamps are kept as Unix seconds (UTC); days and months are derived from them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ghsift {

//! Parses every time form the archive uses and returns UTC Unix seconds: ISO 8601
//! "YYYY-MM-DDTHH:MM:SSZ", or with a "+HH:MM"/"-HHMM" offset (the 2011-2014 schema), and the
//! original 2012 files' "YYYY/MM/DD HH:MM:SS -0700". Returns nullopt for anything else.
std::optional<int64_t> ParseIsoTime(std::string_view text);

//! Days since 1970-01-01 for a UTC Unix time.
int32_t DayOf(int64_t unix_seconds);

//! Month index (year * 12 + month - 1) of a day number.
int32_t MonthOfDay(int32_t day);

//! "YYYY-MM" of a month index.
std::string FormatMonth(int32_t month_index);

//! "YYYY-MM-DD" of a day number.
std::string FormatDay(int32_t day);

//! "YYYY-MM-DDTHH:MM:SSZ".
std::string FormatIsoTime(int64_t unix_seconds);

//! Parses "YYYY-MM" into a month index.
std::optional<int32_t> ParseMonth(std::string_view text);

//! Days since 1970-01-01 of a civil date (proleptic Gregorian).
int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day);

}  // namespace ghsift
