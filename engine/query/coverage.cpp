#include "query/coverage.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "common/time_util.hpp"

namespace ghsift {

std::optional<int64_t> HourOfFileName(const std::string& name) {
  const std::string stem = name.substr(0, name.find('.'));
  int year, month, day, hour;
  char tail;
  if (std::sscanf(stem.c_str(), "%4d-%2d-%2d-%2d%c", &year, &month, &day, &hour, &tail) != 4) return std::nullopt;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23) return std::nullopt;
  return DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) * 24 + hour;
}

std::string FormatHour(int64_t hour) {
  const int64_t day = hour >= 0 ? hour / 24 : (hour - 23) / 24;
  return FormatDay(static_cast<int32_t>(day)) + "-" + std::to_string(hour - day * 24);
}

std::optional<int64_t> ParseHour(const std::string& text) {
  if (text.size() == 10) return HourOfFileName(text + "-0");
  return HourOfFileName(text);
}

Result<Coverage> ComputeCoverage(const Store& store, std::optional<int64_t> from_hour, std::optional<int64_t> to_hour,
                                 double low_ratio) {
  std::map<int64_t, uint64_t> events_by_hour;
  GHSIFT_TRY(store.ScanFiles([&](const std::string& name, const FileEntry& entry) {
    if (auto hour = HourOfFileName(name)) events_by_hour[*hour] += entry.events;
  }));
  Coverage c;
  for (auto& failure : store.Failures()) {
    const bool gap = failure.second.starts_with(kMissingAtSource);
    (gap ? c.missing_at_source : c.failed_files).push_back(std::move(failure));
  }
  if (events_by_hour.empty() && (!from_hour || !to_hour)) return c;
  c.from_hour = from_hour.value_or(events_by_hour.begin()->first);
  c.to_hour = to_hour.value_or(events_by_hour.rbegin()->first);
  if (c.to_hour < c.from_hour) return Status::InvalidArgument("--to is before --from");
  std::vector<uint64_t> counts;
  for (const auto& [hour, n] : events_by_hour) {
    if (hour >= c.from_hour && hour <= c.to_hour) counts.push_back(n);
  }
  if (!counts.empty()) {
    std::nth_element(counts.begin(), counts.begin() + static_cast<long>(counts.size() / 2), counts.end());
    c.median_events = counts[counts.size() / 2];
  }
  for (int64_t h = c.from_hour; h <= c.to_hour; ++h) {
    auto it = events_by_hour.find(h);
    if (it == events_by_hour.end()) {
      c.missing_hours.push_back(h);
      continue;
    }
    ++c.hours_ingested;
    if (static_cast<double>(it->second) < low_ratio * static_cast<double>(c.median_events)) {
      c.low_hours.emplace_back(h, it->second);
    }
  }
  return c;
}

}  // namespace ghsift
