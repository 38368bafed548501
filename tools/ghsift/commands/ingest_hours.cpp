#include "commands/ingest_hours.hpp"

#include <algorithm>

#include "common/time_range.hpp"
#include "io/archive_hours.hpp"
#include "io/http_source.hpp"

namespace ghsift::cli {

Result<HourSpan> ParseHourSpan(const std::string& text, const char* option, int64_t now) {
  if (std::count(text.begin(), text.end(), '-') == 3) {
    // A file's name names that file: from 2012-03-11 to 2014 its hour is US-Pacific, and the
    // autumn change's repeated 01:00 holds two UTC hours.
    const std::vector<int64_t> hours = UtcHoursOfFileName(text);
    if (!hours.empty()) return HourSpan{hours.front(), hours.back(), false, ParseHour(text)};
  }
  auto span = ParseTimeArgument(text, option, now, true);
  if (!span.ok()) return span.status();
  const int64_t first = span->begin / 3600;
  const int64_t last = span->end > span->begin ? (span->end - 1) / 3600 : first;
  return HourSpan{first, last, span->precision == TimePrecision::kRelative, std::nullopt};
}

Result<std::vector<std::string>> HourUrls(const std::string& from_text, const std::string& to_text, const std::string& source,
                                          int64_t now, std::string* note) {
  const auto from = ParseHourSpan(from_text, "--from", now);
  if (!from.ok()) return from.status();
  const Result<HourSpan> to = !to_text.empty() ? ParseHourSpan(to_text, "--to", now)
                              : from->relative ? Result<HourSpan>(HourSpan{now / 3600, now / 3600, true, std::nullopt})
                                               : from;
  if (!to.ok()) return to.status();
  const int64_t first = from->first;
  int64_t last = to->last;
  if (last < first) return Status::InvalidArgument("--to " + to_text + " is before --from " + from_text);
  // An hour that has not ended has no file yet: asking would record it as missing at the source.
  const int64_t newest_ended = now / 3600 - 1;
  if (first > newest_ended) {
    return Status::InvalidArgument("--from " + from_text + ": that hour has not ended yet (the newest hour that has "
                                   "ended is " + FormatHour(newest_ended) + " UTC); --follow reads hours as they are "
                                   "published");
  }
  if (last > newest_ended) {
    if (!to_text.empty() || !from->relative) {
      *note = "ghsift: reading up to " + FormatHour(newest_ended) +
              " UTC, the newest hour that has ended; the later hours of the range have no file yet";
    }
    last = newest_ended;
  }
  if (!IsHttpUrl(source)) {
    return Status::InvalidArgument("--source must be an http:// or https:// URL, not '" + source + "'");
  }
  std::vector<std::string> urls;
  if (from->file_hour && (to_text.empty() || to->file_hour)) {
    // Named by files: those files, in name order, up to the newest whose hours have all ended.
    for (int64_t h = *from->file_hour; h <= *to->file_hour; ++h) {
      if (UtcHoursOfFileHour(h).back() > newest_ended) break;
      urls.push_back(ArchiveUrl(source, h));
    }
    return urls;
  }
  // The range is of UTC hours; Timeline-era files are named by their US-Pacific hour (the
  // autumn change's repeated 01:00 is one file for two UTC hours).
  for (int64_t h = first; h <= last; ++h) {
    const std::optional<int64_t> file_hour = FileHourOfUtcHour(h);
    if (!file_hour) continue;
    std::string url = ArchiveUrl(source, *file_hour);
    if (urls.empty() || urls.back() != url) urls.push_back(std::move(url));
  }
  return urls;
}

CatchUp CatchUpHours(const std::set<int64_t>& held, int64_t range_first, int64_t oldest, const std::string& source) {
  CatchUp catch_up;
  if (held.empty()) return catch_up;
  const int64_t newest = *held.rbegin();
  if (newest + 1 < range_first && oldest > newest + 1) {
    catch_up.left_first = newest + 1;
    catch_up.left_last = std::min(oldest, range_first) - 1;
  }
  // Every hour of the span the store lacks, from its first hour on (not the hours before the
  // store began): after its newest, and gaps before it, such as an hour that failed and has left
  // the range of the runs since. Hours held are not asked for.
  for (int64_t h = std::max(oldest, *held.begin()); h < range_first; ++h) {
    if (!held.count(h)) catch_up.urls.push_back(ArchiveUrl(source, h));
  }
  return catch_up;
}

}  // namespace ghsift::cli
