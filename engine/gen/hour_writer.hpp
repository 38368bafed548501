#pragma once
// Writes one hourly file: merges the planned lifecycle events of the hour with background
// events, plants bad lines, and streams the lines through the compressor. Runs on any
// thread; everything it draws comes from an RNG derived from (seed, hour).
#include <array>
#include <cstdint>
#include <string>

#include "common/status.hpp"
#include "gen/compressed_writer.hpp"
#include "gen/event_writer.hpp"
#include "gen/gen_options.hpp"
#include "gen/issue_plan.hpp"
#include "gen/world.hpp"

namespace ghsift::gen {

struct HourResult {
  Status status;
  uint64_t events = 0;
  uint64_t bad_lines = 0;
  uint64_t bytes_uncompressed = 0;
  uint64_t bytes_written = 0;
  std::array<uint64_t, kEventTypeCount> by_type{};
};

struct HourJob {
  const World* world = nullptr;
  const Plan* plan = nullptr;
  const GenOptions* options = nullptr;
  Compression compression = Compression::kGzip;
  int hour = 0;  //!< index in the corpus
  std::string path;
};

HourResult WriteHour(const HourJob& job);

}  // namespace ghsift::gen
