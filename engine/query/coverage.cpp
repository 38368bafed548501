#include "query/coverage.hpp"

#include <climits>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "common/time_util.hpp"
#include "query/blind_months.hpp"
#include "store/key_codec.hpp"

namespace ghsift {

size_t HoursToFill(const Coverage& c) {
  std::set<int64_t> absent;
  for (const auto& [file, reason] : c.missing_at_source) {
    for (const int64_t hour : UtcHoursOfFileName(file)) absent.insert(hour);
  }
  return static_cast<size_t>(std::count_if(c.missing_hours.begin(), c.missing_hours.end(),
                                           [&](int64_t hour) { return !absent.count(hour); }));
}

void FailuresWithin(const Store& store, std::optional<int64_t> from_hour, std::optional<int64_t> to_hour,
                    std::vector<std::pair<std::string, std::string>>* failed,
                    std::vector<std::pair<std::string, std::string>>* missing_at_source) {
  // In time order (the store keeps them by name: 2026-12-01-10 before -2).
  std::vector<std::pair<std::string, std::string>> failures = store.Failures();
  const auto hour_of = [](const std::string& name) {
    const std::vector<int64_t> hours = UtcHoursOfFileName(name);
    return hours.empty() ? std::optional<int64_t>() : std::optional<int64_t>(hours.front());
  };
  std::stable_sort(failures.begin(), failures.end(), [&](const auto& a, const auto& b) {
    return hour_of(a.first).value_or(INT64_MAX) < hour_of(b.first).value_or(INT64_MAX);
  });
  const auto in_range = [&](const std::string& name) {
    const std::vector<int64_t> hours = UtcHoursOfFileName(name);  // two for the autumn's 01:00
    if (hours.empty()) return !from_hour && !to_hour;
    return std::any_of(hours.begin(), hours.end(), [&](int64_t hour) {
      return (!from_hour || hour >= *from_hour) && (!to_hour || hour <= *to_hour);
    });
  };
  for (auto& failure : failures) {
    if (!in_range(failure.first)) continue;
    const bool gap = IsMissingAtSource(failure.second);
    if (gap && missing_at_source != nullptr) missing_at_source->push_back(std::move(failure));
    if (!gap && failed != nullptr) failed->push_back(std::move(failure));
  }
}

Result<Coverage> ComputeCoverage(const Store& store, std::optional<int64_t> from_hour, std::optional<int64_t> to_hour,
                                 double low_ratio) {
  std::map<int64_t, uint64_t> events_by_hour;
  std::vector<std::string> unplaced;
  GHSIFT_TRY(store.ScanFiles([&](const std::string& name, const FileEntry& entry) {
    // The hours a file covers share its events (two only at the autumn clock change).
    const std::vector<int64_t> hours = UtcHoursOfFileName(name);
    if (hours.empty()) unplaced.push_back(name);
    for (size_t i = 0; i < hours.size(); ++i) {
      events_by_hour[hours[i]] += entry.events / hours.size() + (i < entry.events % hours.size() ? 1 : 0);
    }
  }));
  Coverage c;
  c.unplaced_files = std::move(unplaced);
  c.placed_any = !events_by_hour.empty();
  FailuresWithin(store, from_hour, to_hour, &c.failed_files, &c.missing_at_source);
  if (events_by_hour.empty() && (!from_hour || !to_hour)) return c;
  // Not value_or: its argument is read even when unused, and a store of no hour has no first one.
  c.from_hour = from_hour ? *from_hour : events_by_hour.begin()->first;
  c.to_hour = to_hour ? *to_hour : events_by_hour.rbegin()->first;
  if (c.to_hour < c.from_hour) return Status::InvalidArgument("--to is before --from");
  GHSIFT_ASSIGN_OR_RETURN(const auto shares, ReadTextShares(store));
  const int32_t first_month = MonthOfDay(DayOf(c.from_hour * 3600));
  const int32_t last_month = MonthOfDay(DayOf(c.to_hour * 3600));
  for (const auto& [month, share] : shares) {
    if (month >= first_month && month <= last_month) c.text_shares.emplace_back(month, share);
  }
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
