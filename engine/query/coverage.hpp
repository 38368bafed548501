#pragma once
// What the numbers of a store cover: the GH Archive hours never ingested (gaps), hours with
// suspiciously few events, and files that failed.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "aggregate/file_aggregate.hpp"
#include "io/archive_hours.hpp"
#include "store/store.hpp"

namespace ghsift {

struct Coverage {
  int64_t from_hour = 0, to_hour = 0;            //!< the range looked at, inclusive
  uint64_t hours_ingested = 0;
  std::vector<int64_t> missing_hours;            //!< no file ingested for that hour
  //! Ingested files not named by their hour (YYYY-MM-DD-H): their events are in no hour here.
  std::vector<std::string> unplaced_files;
  bool placed_any = false;                       //!< some ingested file is named by its hour
  std::vector<std::pair<int64_t, uint64_t>> low_hours;  //!< (hour, events) below the low mark
  uint64_t median_events = 0;                    //!< per ingested hour
  std::vector<std::pair<std::string, std::string>> failed_files;  //!< (file, reason)
  //! (month index, report events with and without text) for the months of the range that
  //! hold report events: where the archive itself is blind.
  std::vector<std::pair<int32_t, TextShare>> text_shares;
  //! Hours the HTTP source answered 404/410 for (`ingest --from/--to`, URLs): gaps of the archive
  //! itself, kept apart from failures. Such an hour is also in `missing_hours`.
  std::vector<std::pair<std::string, std::string>> missing_at_source;  //!< (file, reason)
};

//! The hours of `c`'s range a run could still fill: not ingested, and not missing at the source
//! (the archive's own gaps, which no run fills). `stats --coverage --check` fails on them.
size_t HoursToFill(const Coverage& c);

//! The files that failed when ingested (`failed`) and the hours the source did not have
//! (`missing_at_source`), each (file, reason) in time order, of the hours from `from_hour` to
//! `to_hour` (either open); a file not named by its hour only without either. Either output may be
//! null.
void FailuresWithin(const Store& store, std::optional<int64_t> from_hour, std::optional<int64_t> to_hour,
                    std::vector<std::pair<std::string, std::string>>* failed,
                    std::vector<std::pair<std::string, std::string>>* missing_at_source);

//! `low_ratio`: an hour with fewer events than low_ratio * median is listed as low. Without
//! from/to, the range is the first to the last ingested hour.
Result<Coverage> ComputeCoverage(const Store& store, std::optional<int64_t> from_hour,
                                 std::optional<int64_t> to_hour, double low_ratio = 0.1);

}  // namespace ghsift
