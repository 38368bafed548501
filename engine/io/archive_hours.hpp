#pragma once
// How GH Archive names its hourly files ("2016-01-01-15.json.gz": the hour not zero-padded) and
// which UTC hours each holds. The one place that knows the naming: ingest builds the URLs of a
// range from it, --follow the next file to ask for, and coverage places every stored file.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ghsift {

//! The hour in a file's name ("YYYY-MM-DD-H.json[.gz|.zst]"), as hours since the epoch.
std::optional<int64_t> HourOfFileName(std::string_view name);

//! The UTC hours the file named by hour `file_hour` holds. Files of 2012-03-11 to 2014-12-31
//! (the Timeline era) are named by the US-Pacific local hour of their events (PST -8, PDT -7;
//! daylight time from the second Sunday of March to the first Sunday of November, 02:00 local),
//! so the repeated 01:00 of the autumn change stands for two UTC hours; files before and after
//! are named by the UTC hour.
std::vector<int64_t> UtcHoursOfFileHour(int64_t file_hour);
//! The same for a file name; empty for a name that is not an hour.
std::vector<int64_t> UtcHoursOfFileName(std::string_view name);
//! The hour in the name of the file that holds UTC hour `utc_hour` (the inverse of
//! UtcHoursOfFileHour). None for the UTC hours no file holds (those before the first
//! Pacific-named file of 2012-03-11).
std::optional<int64_t> FileHourOfUtcHour(int64_t utc_hour);

//! "YYYY-MM-DD-H" (hour not zero-padded, as GH Archive names files).
std::string FormatHour(int64_t hour);
//! Parses "YYYY-MM-DD" (hour 0) or "YYYY-MM-DD-H".
std::optional<int64_t> ParseHour(std::string_view text);

//! The archive's name of the file of `file_hour`: "YYYY-MM-DD-H.json.gz".
std::string ArchiveFileName(int64_t file_hour);
//! `base` (an http(s) URL, trailing slashes ignored) joined with ArchiveFileName(file_hour).
std::string ArchiveUrl(std::string_view base, int64_t file_hour);

}  // namespace ghsift
