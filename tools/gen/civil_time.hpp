#pragma once
// UTC calendar arithmetic on unix seconds, without <ctime> (timegm is not portable and
// localtime state is not thread-safe).
#include <cstdint>
#include <string>

#include "common/result.hpp"

namespace ghsift::gen {

int64_t DaysFromCivil(int year, int month, int day);
void CivilFromDays(int64_t days, int* year, int* month, int* day);

//! Parses "YYYY-MM-DDTHH" (a trailing ":MM:SSZ" is tolerated and must be zero) to unix seconds.
Result<int64_t> ParseStartHour(const std::string& text);

//! Appends "2024-01-01T00:00:01Z" (no quotes).
void AppendTimestamp(std::string& out, int64_t unix_seconds);

//! Appends the local time of `unix_seconds` at a UTC offset, as the 2011-2014 Timeline API
//! wrote it: "2014-06-01T01:05:30-07:00" (offset_minutes = -420). Never "Z".
void AppendOffsetTimestamp(std::string& out, int64_t unix_seconds, int offset_minutes);

//! Appends the original 2012 archive's form of a local time: "2012/04/11 15:01:33 -0700".
void AppendSlashTimestamp(std::string& out, int64_t unix_seconds, int offset_minutes);

//! The US-Pacific UTC offset at `unix_seconds`: -420 (PDT) or -480 (PST), with the rules of 2007 on.
int PacificOffsetMinutes(int64_t unix_seconds);

//! GH Archive file stem of the hour that starts at `hour_start`: "2024-01-01-0" (hour not padded).
std::string HourFileStem(int64_t hour_start);

//! "YYYY-MM" of a timestamp.
std::string MonthKey(int64_t unix_seconds);

}  // namespace ghsift::gen
