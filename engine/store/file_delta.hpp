#pragma once
// What a file adds to a store's sums: its counters (repository and type counts per day, text
// shares per month, the store's statistics) and, per report, its events and reopenings (the
// additive fields of IssueRecord; the others are kept as the latest, earliest or union, which a
// fuller copy of the file gives again). A store keeps it for a file ingested with bad lines, so
// that a good copy can replace that file exactly (`ingest --replace`, Store::ReplaceFile).
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "aggregate/file_aggregate.hpp"
#include "common/result.hpp"

namespace ghsift {

struct ReportDelta {
  int64_t repo_id = 0;
  int64_t number = 0;
  uint64_t events = 0;
  uint64_t reopened = 0;
};

struct FileDelta {
  //! Counter keys (store/key_codec.hpp) and the amount the file adds to each.
  std::vector<std::pair<std::string, int64_t>> counters;
  std::vector<ReportDelta> reports;

  //! The sums of `files` files whose aggregate is `aggregate` (`compressed_bytes` their sizes).
  static FileDelta Of(const FileAggregate& aggregate, uint64_t files, uint64_t compressed_bytes);
  std::string Encode() const;
  static Result<FileDelta> Decode(std::string_view bytes);
};

}  // namespace ghsift
