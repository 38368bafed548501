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

//! GH Archive file stem of the hour that starts at `hour_start`: "2024-01-01-0" (hour not padded).
std::string HourFileStem(int64_t hour_start);

//! "YYYY-MM" of a timestamp.
std::string MonthKey(int64_t unix_seconds);

}  // namespace ghsift::gen
