#pragma once
// The one time syntax of the command line: YYYY-MM, YYYY-MM-DD or YYYY-MM-DDTHH (UTC), or a
// span back from now (7d, 4w, 12h) where a range is asked for.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.hpp"

namespace ghsift {

enum class TimePrecision { kMonth, kDay, kHour, kRelative };

//! What a time argument names: the interval [begin, end) in Unix seconds. A relative span names
//! one instant (begin == end == now - span).
struct TimeSpan {
  int64_t begin = 0;
  int64_t end = 0;
  TimePrecision precision = TimePrecision::kMonth;
};

//! The syntax as shown in messages.
inline constexpr const char* kTimeSyntax = "YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH (UTC) or a span back from now such as 7d or 4w";

//! Parses one argument of option `option` (named in the error). `now` resolves relative spans;
//! without `allow_relative` they are refused.
Result<TimeSpan> ParseTimeArgument(std::string_view text, std::string_view option, int64_t now, bool allow_relative);

//! A range from two optional arguments: begin of the first, end of the second (so `--from
//! 2024-01 --to 2024-01` is all of January). An empty or reversed range is an error naming both.
struct TimeRange {
  std::optional<int64_t> begin;  //!< inclusive
  std::optional<int64_t> end;    //!< exclusive
};
Result<TimeRange> ParseTimeRange(std::string_view from, std::string_view from_option, std::string_view to,
                                 std::string_view to_option, int64_t now, bool allow_relative);

//! Seconds since the epoch, now.
int64_t NowSeconds();

}  // namespace ghsift
