#include "gen/schemas.hpp"

#include <vector>

#include "common/closest_name.hpp"

namespace ghsift::gen {

namespace {

// gen_options.hpp's GenOptions::schema says what each layout's records hold in full; the
// start hours are the eras' (the glued 2012 file is named by its Pacific hour, 2012-04-11-15).
constexpr Schema kSchemas[] = {
    {"modern", "modern (2015 on)", "2024-01-01T00"},
    {"legacy", "legacy (2011-2014 Timeline API)", "2013-06-01T00"},
    {"mixed", "mixed (each event either, 50/50)", "2024-01-01T00"},
    {"timeline",
     "timeline (legacy at US-Pacific times, files named by the Pacific hour, as 2012-03-11..2014)",
     "2013-06-01T00"},
    {"timeline-2012", "timeline-2012 (the original 2012 files: timeline, records glued on one line, slash dates)",
     "2012-04-11T22"},
    {"events-2011", "events-2011 (the first hours, 2011-02..2012-03: issue events without title or body)",
     "2011-02-15T00"},
    {"slim-2025", "slim-2025 (since October 2025: pull requests without title or body, pushes without commits)",
     "2025-11-01T10"},
};

}  // namespace

std::span<const Schema> Schemas() { return kSchemas; }

const Schema* FindSchema(std::string_view name) {
  for (const Schema& s : kSchemas) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string SchemaNames() {
  std::vector<std::string_view> names;
  for (const Schema& s : kSchemas) names.push_back(s.name);
  return JoinChoices(names);
}

}  // namespace ghsift::gen
