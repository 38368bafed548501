#include "gen/civil_time.hpp"

namespace ghsift::gen {

// Howard Hinnant's proleptic Gregorian day counting, written out for our integer types.
int64_t DaysFromCivil(int year, int month, int day) {
  const int64_t y = static_cast<int64_t>(year) - (month <= 2 ? 1 : 0);
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t mp = (month + 9) % 12;
  const int64_t doy = (153 * mp + 2) / 5 + day - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

void CivilFromDays(int64_t days, int* year, int* month, int* day) {
  const int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  *year = static_cast<int>(yoe + era * 400 + (m <= 2 ? 1 : 0));
  *month = static_cast<int>(m);
  *day = static_cast<int>(d);
}

namespace {

bool ReadDigits(const std::string& text, size_t pos, size_t count, int* value) {
  if (pos + count > text.size()) return false;
  int v = 0;
  for (size_t i = pos; i < pos + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    v = v * 10 + (text[i] - '0');
  }
  *value = v;
  return true;
}

int DaysInMonth(int year, int month) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

void Append2(std::string& out, int v) {
  out.push_back(static_cast<char>('0' + v / 10));
  out.push_back(static_cast<char>('0' + v % 10));
}

}  // namespace

Result<int64_t> ParseStartHour(const std::string& text) {
  int year = 0, month = 0, day = 0, hour = 0;
  const bool shape = text.size() >= 13 && text[4] == '-' && text[7] == '-' && text[10] == 'T' &&
                     ReadDigits(text, 0, 4, &year) && ReadDigits(text, 5, 2, &month) &&
                     ReadDigits(text, 8, 2, &day) && ReadDigits(text, 11, 2, &hour);
  const bool tail_ok = text.size() == 13 || text.substr(13) == ":00:00Z" || text.substr(13) == ":00:00";
  if (!shape || !tail_ok || month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month) ||
      hour > 23 || year < 1970) {
    return Status::InvalidArgument("start hour must look like 2024-01-01T00, got '" + text + "'");
  }
  return DaysFromCivil(year, month, day) * 86400 + hour * 3600;
}

void AppendTimestamp(std::string& out, int64_t unix_seconds) {
  int64_t days = unix_seconds / 86400;
  int64_t secs = unix_seconds % 86400;
  if (secs < 0) {
    secs += 86400;
    --days;
  }
  int year = 0, month = 0, day = 0;
  CivilFromDays(days, &year, &month, &day);
  char buf[20];
  buf[0] = static_cast<char>('0' + year / 1000 % 10);
  buf[1] = static_cast<char>('0' + year / 100 % 10);
  buf[2] = static_cast<char>('0' + year / 10 % 10);
  buf[3] = static_cast<char>('0' + year % 10);
  buf[4] = '-';
  buf[5] = static_cast<char>('0' + month / 10);
  buf[6] = static_cast<char>('0' + month % 10);
  buf[7] = '-';
  buf[8] = static_cast<char>('0' + day / 10);
  buf[9] = static_cast<char>('0' + day % 10);
  buf[10] = 'T';
  const int h = static_cast<int>(secs / 3600), m = static_cast<int>(secs / 60 % 60), s = static_cast<int>(secs % 60);
  buf[11] = static_cast<char>('0' + h / 10);
  buf[12] = static_cast<char>('0' + h % 10);
  buf[13] = ':';
  buf[14] = static_cast<char>('0' + m / 10);
  buf[15] = static_cast<char>('0' + m % 10);
  buf[16] = ':';
  buf[17] = static_cast<char>('0' + s / 10);
  buf[18] = static_cast<char>('0' + s % 10);
  buf[19] = 'Z';
  out.append(buf, 20);
}

void AppendOffsetTimestamp(std::string& out, int64_t unix_seconds, int offset_minutes) {
  AppendTimestamp(out, unix_seconds + int64_t{60} * offset_minutes);
  out.back() = offset_minutes < 0 ? '-' : '+';
  const int minutes = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  Append2(out, minutes / 60);
  out.push_back(':');
  Append2(out, minutes % 60);
}

void AppendSlashTimestamp(std::string& out, int64_t unix_seconds, int offset_minutes) {
  const size_t at = out.size();
  AppendTimestamp(out, unix_seconds + int64_t{60} * offset_minutes);  // 2012-04-11T15:01:33Z
  out[at + 4] = '/';
  out[at + 7] = '/';
  out[at + 10] = ' ';
  out.back() = ' ';
  out.push_back(offset_minutes < 0 ? '-' : '+');
  const int minutes = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  Append2(out, minutes / 60);
  Append2(out, minutes % 60);
}

int PacificOffsetMinutes(int64_t unix_seconds) {
  int year = 0, month = 0, day = 0;
  CivilFromDays(unix_seconds / 86400, &year, &month, &day);
  // Daylight time from the second Sunday of March, 02:00 PST (10:00 UTC), to the first Sunday
  // of November, 02:00 PDT (09:00 UTC). Day 0 (1970-01-01) was a Thursday.
  auto nth_sunday = [](int y, int m, int n) {
    const int64_t first = DaysFromCivil(y, m, 1);
    const int64_t weekday = (first + 4) % 7;  // 0 = Sunday
    return first + (7 - weekday) % 7 + 7 * (n - 1);
  };
  const int64_t begin = nth_sunday(year, 3, 2) * 86400 + 10 * 3600;
  const int64_t end = nth_sunday(year, 11, 1) * 86400 + 9 * 3600;
  return unix_seconds >= begin && unix_seconds < end ? -420 : -480;
}

std::string HourFileStem(int64_t hour_start) {
  int year = 0, month = 0, day = 0;
  CivilFromDays(hour_start / 86400, &year, &month, &day);
  std::string out = std::to_string(year);
  out.push_back('-');
  Append2(out, month);
  out.push_back('-');
  Append2(out, day);
  out.push_back('-');
  out += std::to_string(hour_start % 86400 / 3600);
  return out;
}

std::string MonthKey(int64_t unix_seconds) {
  int64_t days = unix_seconds / 86400;
  if (unix_seconds % 86400 < 0) --days;
  int year = 0, month = 0, day = 0;
  CivilFromDays(days, &year, &month, &day);
  std::string out = std::to_string(year);
  out.push_back('-');
  Append2(out, month);
  return out;
}

}  // namespace ghsift::gen
