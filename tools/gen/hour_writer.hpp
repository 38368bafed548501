#pragma once
// Writes one hourly file: merges the planned lifecycle events of the hour with background
// events in the requested schema, plants bad lines and the archive's quirks (joined records,
// NUL lines, duplicates), and streams the lines through the compressor. Runs on any
// thread; everything it draws comes from an RNG derived from (seed, hour).
#include <array>
#include <cstdint>
#include <string>

#include "common/status.hpp"
#include "gen/background_pr.hpp"
#include "gen/compressed_writer.hpp"
#include "gen/event_writer.hpp"
#include "gen/gen_options.hpp"
#include "gen/issue_plan.hpp"
#include "gen/profile.hpp"
#include "gen/world.hpp"

namespace ghsift::gen {

struct HourResult {
  Status status;
  uint64_t events = 0;     //!< distinct valid events (a duplicate copy is not counted again)
  uint64_t bad_lines = 0;  //!< NUL lines included
  uint64_t bytes_uncompressed = 0;
  uint64_t bytes_written = 0;
  std::array<uint64_t, kEventTypeCount> by_type{};
  uint64_t modern_events = 0;
  uint64_t legacy_events = 0;
  uint64_t joined_records = 0;    //!< lines holding two records
  uint64_t duplicate_events = 0;  //!< second copies written
  uint64_t nul_lines = 0;         //!< bad lines whose first byte is NUL
  //! Planned lifecycle actions of the hour that were written: always a prefix of the hour's
  //! range in Plan::actions (all of it, except in a single-event hour, where it is 0).
  uint64_t lifecycle_written = 0;
  //! The background pull requests that the hour's review events named.
  ReviewedPrs reviewed_prs;
};

struct HourJob {
  const World* world = nullptr;
  const Plan* plan = nullptr;
  const GenOptions* options = nullptr;
  const Profile* profile = nullptr;  //!< null = no profile (gen/profile.hpp)
  Compression compression = Compression::kGzip;
  int hour = 0;  //!< index in the corpus
  bool single_event = false;  //!< write exactly one line: one background event, no bad or quirk lines
  std::string path;
};

HourResult WriteHour(const HourJob& job);

}  // namespace ghsift::gen
