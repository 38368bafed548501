#include "common/time_range.hpp"

#include <charconv>
#include <chrono>

#include "common/time_util.hpp"

namespace ghsift {
namespace {

//! Reads exactly `width` digits at `at`; false when they are not digits.
bool Digits(std::string_view text, size_t at, size_t width, int& out) {
  if (at + width > text.size()) return false;
  out = 0;
  for (size_t i = at; i < at + width; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    out = out * 10 + (text[i] - '0');
  }
  return true;
}

int64_t DayStart(int year, int month, int day) { return DaysFromCivil(year, month, day) * 86400; }

bool ValidDay(int year, int month, int day) {
  if (day < 1 || day > 31) return false;
  // A day past the month's end rolls over in DaysFromCivil: compare with the next month's start.
  const int next_year = month == 12 ? year + 1 : year, next_month = month == 12 ? 1 : month + 1;
  return DaysFromCivil(year, month, day) < DaysFromCivil(next_year, next_month, 1);
}

std::optional<TimeSpan> ParseAbsolute(std::string_view t) {
  int year = 0, month = 0, day = 0, hour = 0;
  if (!Digits(t, 0, 4, year) || t.size() < 7 || t[4] != '-' || !Digits(t, 5, 2, month)) return std::nullopt;
  if (month < 1 || month > 12) return std::nullopt;
  if (t.size() == 7) {
    const int next_year = month == 12 ? year + 1 : year, next_month = month == 12 ? 1 : month + 1;
    return TimeSpan{DayStart(year, month, 1), DayStart(next_year, next_month, 1), TimePrecision::kMonth};
  }
  if (t[7] != '-' || !Digits(t, 8, 2, day) || !ValidDay(year, month, day)) return std::nullopt;
  const int64_t start = DayStart(year, month, day);
  if (t.size() == 10) return TimeSpan{start, start + 86400, TimePrecision::kDay};
  if (t.size() != 13 || t[10] != 'T' || !Digits(t, 11, 2, hour) || hour > 23) return std::nullopt;
  return TimeSpan{start + hour * 3600, start + (hour + 1) * 3600, TimePrecision::kHour};
}

std::optional<int64_t> ParseRelativeSeconds(std::string_view t) {
  if (t.size() < 2) return std::nullopt;
  const char unit = t.back();
  const int64_t seconds = unit == 'h' ? 3600 : unit == 'd' ? 86400 : unit == 'w' ? 7 * 86400 : 0;
  if (seconds == 0) return std::nullopt;
  int64_t n = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size() - 1, n);
  if (ec != std::errc() || end != t.data() + t.size() - 1 || n <= 0 || n > 100000) return std::nullopt;
  return n * seconds;
}

}  // namespace

Result<TimeSpan> ParseTimeArgument(std::string_view text, std::string_view option, int64_t now, bool allow_relative) {
  if (auto span = ParseAbsolute(text)) return *span;
  if (auto back = ParseRelativeSeconds(text)) {
    if (!allow_relative) {
      return Status::InvalidArgument(std::string(option) + " '" + std::string(text) +
                                     "': a span back from now is not accepted here; use YYYY-MM, YYYY-MM-DD or "
                                     "YYYY-MM-DDTHH");
    }
    return TimeSpan{now - *back, now - *back, TimePrecision::kRelative};
  }
  return Status::InvalidArgument(std::string(option) + " '" + std::string(text) + "' is not a time; use " +
                                 (allow_relative ? std::string(kTimeSyntax)
                                                 : std::string("YYYY-MM, YYYY-MM-DD or YYYY-MM-DDTHH (UTC)")));
}

Result<TimeRange> ParseTimeRange(std::string_view from, std::string_view from_option, std::string_view to,
                                 std::string_view to_option, int64_t now, bool allow_relative) {
  TimeRange range;
  if (!from.empty()) {
    GHSIFT_ASSIGN_OR_RETURN(const TimeSpan span, ParseTimeArgument(from, from_option, now, allow_relative));
    range.begin = span.begin;
  }
  if (!to.empty()) {
    GHSIFT_ASSIGN_OR_RETURN(const TimeSpan span, ParseTimeArgument(to, to_option, now, allow_relative));
    range.end = span.end;
  }
  if (range.begin && range.end && *range.end <= *range.begin) {
    return Status::InvalidArgument("empty range: " + std::string(from_option) + " " + std::string(from) +
                                   " is not before " + std::string(to_option) + " " + std::string(to));
  }
  return range;
}

int64_t NowSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace ghsift
