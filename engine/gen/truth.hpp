#pragma once
// truth.json: the exact numbers a correct engine must find in the generated corpus.
// Computed from the plan (what was actually written), never by re-reading the files.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "gen/event_writer.hpp"
#include "gen/issue_plan.hpp"
#include "gen/world.hpp"

namespace ghsift::gen {

struct CorpusCounts {
  std::vector<std::string> files;
  uint64_t events = 0;
  uint64_t bad_lines = 0;
  std::array<uint64_t, kEventTypeCount> by_type{};
};

//! Returns truth.json's text: keys sorted, two-space indentation, trailing newline.
std::string BuildTruthJson(const World& world, const Plan& plan, const CorpusCounts& counts);

}  // namespace ghsift::gen
