#include "io/archive_hours.hpp"

#include <algorithm>
#include <cstdio>

#include "common/time_util.hpp"

namespace ghsift {
namespace {

constexpr int64_t kFirstPacificNamedDay = 15410;   // 2012-03-11
constexpr int64_t kFirstUtcNamedDayAgain = 16436;  // 2015-01-01
constexpr int64_t kPst = 8, kPdt = 7;              // hours behind UTC

int64_t DayOfHour(int64_t hour) { return hour >= 0 ? hour / 24 : (hour - 23) / 24; }

//! Day number of the n-th (1-based) Sunday of a month.
int64_t NthSunday(int64_t year, unsigned month, int n) {
  const int64_t first = DaysFromCivil(year, month, 1);
  const int64_t weekday = ((first + 4) % 7 + 7) % 7;  // 1970-01-01 was a Thursday; 0 = Sunday
  return first + (7 - weekday) % 7 + 7 * (n - 1);
}

}  // namespace

std::optional<int64_t> HourOfFileName(std::string_view name) {
  const std::string stem(name.substr(0, name.find('.')));
  int year, month, day, hour;
  char tail;
  if (std::sscanf(stem.c_str(), "%4d-%2d-%2d-%2d%c", &year, &month, &day, &hour, &tail) != 4) return std::nullopt;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23) return std::nullopt;
  return DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) * 24 + hour;
}

std::vector<int64_t> UtcHoursOfFileHour(int64_t file_hour) {
  const int64_t day = DayOfHour(file_hour);
  if (day < kFirstPacificNamedDay || day >= kFirstUtcNamedDayAgain) return {file_hour};
  const int local_hour = static_cast<int>(file_hour - day * 24);
  const int64_t year = MonthOfDay(static_cast<int32_t>(day)) / 12;
  const int64_t summer_starts = NthSunday(year, 3, 2);
  const int64_t summer_ends = NthSunday(year, 11, 1);
  if (day == summer_ends && local_hour == 1) return {file_hour + kPdt, file_hour + kPst};  // 01:00 happens twice
  const bool summer = (day > summer_starts && day < summer_ends) || (day == summer_starts && local_hour >= 3) ||
                      (day == summer_ends && local_hour < 1);
  return {file_hour + (summer ? kPdt : kPst)};
}

std::vector<int64_t> UtcHoursOfFileName(std::string_view name) {
  const std::optional<int64_t> named = HourOfFileName(name);
  if (!named) return {};
  return UtcHoursOfFileHour(*named);
}

std::optional<int64_t> FileHourOfUtcHour(int64_t utc_hour) {
  for (int64_t file_hour : {utc_hour, utc_hour - kPdt, utc_hour - kPst}) {
    const std::vector<int64_t> held = UtcHoursOfFileHour(file_hour);
    if (std::find(held.begin(), held.end(), utc_hour) != held.end()) return file_hour;
  }
  return std::nullopt;
}

std::string FormatHour(int64_t hour) {
  const int64_t day = DayOfHour(hour);
  return FormatDay(static_cast<int32_t>(day)) + "-" + std::to_string(hour - day * 24);
}

std::optional<int64_t> ParseHour(std::string_view text) {
  if (text.size() == 10) return HourOfFileName(std::string(text) + "-0");
  return HourOfFileName(text);
}

std::string ArchiveFileName(int64_t file_hour) { return FormatHour(file_hour) + ".json.gz"; }

std::string ArchiveUrl(std::string_view base, int64_t file_hour) {
  while (!base.empty() && base.back() == '/') base.remove_suffix(1);
  return std::string(base) + "/" + ArchiveFileName(file_hour);
}

}  // namespace ghsift
