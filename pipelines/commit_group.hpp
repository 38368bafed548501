#pragma once
// Finished files waiting to be committed together (see IngestOptions::commit_group_bytes):
// their aggregates folded into one, and each file's entry for the ingested-files set.
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "aggregate/file_aggregate.hpp"
#include "store/file_entry.hpp"

namespace ghsift {

class CommitGroup {
 public:
  //! Adds a finished file (`index` into the run's input list) and takes its aggregate.
  void Add(size_t index, std::string name, const FileEntry& entry, FileAggregate&& aggregate);
  void Clear();

  bool empty() const { return entries_.empty(); }
  uint64_t decoded_bytes() const { return decoded_bytes_; }
  //! Seconds since the group's first file was added (0 when empty).
  double age_seconds() const {
    return empty() ? 0.0 : std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }
  const std::vector<size_t>& file_indexes() const { return indexes_; }
  const std::vector<std::pair<std::string, FileEntry>>& entries() const { return entries_; }
  const FileAggregate& aggregate() const { return aggregate_; }

 private:
  std::vector<size_t> indexes_;
  std::vector<std::pair<std::string, FileEntry>> entries_;
  FileAggregate aggregate_;
  uint64_t decoded_bytes_ = 0;
  std::chrono::steady_clock::time_point started_;  //!< when the first file was added
};

}  // namespace ghsift
