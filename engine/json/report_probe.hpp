#pragma once
// What is counted of a report event whose report is not kept, read straight from the line's
// bytes. Outside the tracked repositories a report event only counts (json/event.hpp): as an
// event, in its month's text share (does it carry text?), and as a report event without a
// number when it names none. Parsing its payload in full (simdjson, the report object's every
// member) cost about a tenth of a default-scope ingest for these two facts.
#include <cstdint>
#include <optional>
#include <string_view>

namespace ghsift {

//! What the probe read of the report object.
struct ReportProbe {
  int64_t number = 0;      //!< the object's `number`: positive, as written
  std::string_view title;  //!< the object's `title`: not empty, no escape in it (as written is as decoded)
};

//! `payload` starts at the payload object's '{' of a 2015+ line. Reads the members of the payload
//! up to its `issue` or `pull_request` object, and that object's members up to both `number` and
//! `title`. Nothing when the bytes do not say for certain: a nested value (or whitespace, an
//! escape in a key, a number that is not a plain positive integer) before both are found, an
//! empty or escaped title. The full parser then decides. Like the envelope read from the bytes
//! (EventExtractor), the rest of the line is not validated.
std::optional<ReportProbe> ProbeReport(std::string_view payload);

}  // namespace ghsift
