// EventExtractor::Extract on arbitrary bytes, as one NDJSON line (padded as simdjson requires),
// including the `}{` continuation the chunk worker drives.
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "json/event_extractor.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static ghsift::EventExtractor extractor;  // reused, as a worker thread does
  std::vector<char> buffer(size + simdjson::SIMDJSON_PADDING, '\0');
  if (size > 0) std::memcpy(buffer.data(), data, size);
  std::string_view rest(buffer.data(), size);
  ghsift::Event event;
  for (int records = 0; !rest.empty() && records < 64; ++records) {
    if (extractor.Extract(rest, event) == ghsift::ExtractOutcome::kBadLine) {
      if (extractor.error() == nullptr || *extractor.error() == '\0') __builtin_trap();  // a bad line says why
      break;
    }
    const size_t used = extractor.consumed();
    if (used == 0 || used > rest.size()) __builtin_trap();  // must make progress inside the line
    // Touch every view the event hands out, so ASan sees reads past the buffer.
    volatile size_t sink = event.type.size() + event.repo_name.size();
    for (std::string_view s : {event.type, event.repo_name, event.report.state, event.report.action}) {
      for (char c : s) sink = sink + static_cast<unsigned char>(c);
    }
    for (std::string_view s : event.report.text.by_id) {
      for (char c : s) sink = sink + static_cast<unsigned char>(c);
    }
    for (std::string_view label : event.report.labels) sink = sink + label.size();
    (void)sink;
    rest.remove_prefix(used);
  }
  return 0;
}
