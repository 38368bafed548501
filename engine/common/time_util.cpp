#include "common/time_util.hpp"

#include <cstdio>

namespace ghsift {
namespace {

bool ReadDigits(std::string_view text, size_t pos, size_t count, int* out) {
  if (pos + count > text.size()) return false;
  int value = 0;
  for (size_t i = pos; i < pos + count; ++i) {
    char c = text[i];
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  *out = value;
  return true;
}

void CivilFromDays(int64_t z, int64_t* year, unsigned* month, unsigned* day) {
  // Howard Hinnant's well-known civil calendar arithmetic (public-domain algorithm).
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *day = doy - (153 * mp + 2) / 5 + 1;
  *month = mp < 10 ? mp + 3 : mp - 9;
  *year = y + (*month <= 2);
}

}  // namespace

int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day) {
  year -= month <= 2;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(year - era * 400);
  const unsigned doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

namespace {

//! Reads a UTC offset: "Z", "+HH:MM", "+HHMM" (and '-'), or nothing (UTC). Returns seconds east
//! of UTC, or nullopt for anything else.
std::optional<int64_t> ParseOffset(std::string_view zone) {
  if (zone.empty() || zone == "Z") return 0;
  if (zone[0] != '+' && zone[0] != '-') return std::nullopt;
  int oh, om;
  if (!ReadDigits(zone, 1, 2, &oh)) return std::nullopt;
  const size_t minutes_at = zone.size() == 6 && zone[3] == ':' ? 4 : 3;
  if (zone.size() != minutes_at + 2 || !ReadDigits(zone, minutes_at, 2, &om) || oh > 23 || om > 59) {
    return std::nullopt;
  }
  const int64_t offset = oh * 3600 + om * 60;
  return zone[0] == '+' ? offset : -offset;
}

}  // namespace

std::optional<int64_t> ParseIsoTime(std::string_view text) {
  int year, month, day, hour, minute, second;
  // ISO "2015-01-01T15:00:01Z" or the original 2012 files' "2012/04/11 15:01:33 -0700".
  const bool slashes = text.size() >= 19 && text[4] == '/';
  const char date_separator = slashes ? '/' : '-';
  if (text.size() < 19 || !ReadDigits(text, 0, 4, &year) || text[4] != date_separator ||
      !ReadDigits(text, 5, 2, &month) || text[7] != date_separator || !ReadDigits(text, 8, 2, &day) ||
      (slashes ? text[10] != ' ' : text[10] != 'T' && text[10] != ' ') || !ReadDigits(text, 11, 2, &hour) || text[13] != ':' ||
      !ReadDigits(text, 14, 2, &minute) || text[16] != ':' || !ReadDigits(text, 17, 2, &second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  const int64_t t = DaysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
  std::string_view zone = text.substr(19);
  // Fractional seconds are ignored.
  if (!zone.empty() && zone[0] == '.') {
    size_t i = 1;
    while (i < zone.size() && zone[i] >= '0' && zone[i] <= '9') ++i;
    zone = zone.substr(i);
  }
  // The slash form always ends in " +hhmm"/" -hhmm"; ISO puts no space before its zone.
  if (slashes) {
    if (zone.size() != 6 || zone[0] != ' ' || (zone[1] != '+' && zone[1] != '-')) return std::nullopt;
    zone.remove_prefix(1);
  }
  const std::optional<int64_t> offset = ParseOffset(zone);
  if (!offset) return std::nullopt;
  return t - *offset;
}

int32_t DayOf(int64_t unix_seconds) {
  int64_t d = unix_seconds / 86400;
  if (unix_seconds % 86400 < 0) --d;
  return static_cast<int32_t>(d);
}

int32_t MonthOfDay(int32_t day) {
  int64_t y;
  unsigned m, d;
  CivilFromDays(day, &y, &m, &d);
  return static_cast<int32_t>(y * 12 + (m - 1));
}

std::string FormatMonth(int32_t month_index) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d", month_index / 12, month_index % 12 + 1);
  return buf;
}

std::string FormatDay(int32_t day) {
  int64_t y;
  unsigned m, d;
  CivilFromDays(day, &y, &m, &d);
  char buf[32];  // room for any year the type holds (GCC cannot see that m and d stay small)
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u", static_cast<long long>(y), m, d);
  return buf;
}

std::string FormatIsoTime(int64_t unix_seconds) {
  const int32_t day = DayOf(unix_seconds);
  const int64_t rest = unix_seconds - static_cast<int64_t>(day) * 86400;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%sT%02lld:%02lld:%02lldZ", FormatDay(day).c_str(),
                static_cast<long long>(rest / 3600), static_cast<long long>(rest / 60 % 60),
                static_cast<long long>(rest % 60));
  return buf;
}

std::optional<int32_t> ParseMonth(std::string_view text) {
  int year, month;
  if (text.size() != 7 || !ReadDigits(text, 0, 4, &year) || text[4] != '-' ||
      !ReadDigits(text, 5, 2, &month) || month < 1 || month > 12) {
    return std::nullopt;
  }
  return year * 12 + (month - 1);
}

}  // namespace ghsift
