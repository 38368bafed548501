#include "pipelines/commit_group.hpp"

namespace ghsift {

void CommitGroup::Add(size_t index, std::string name, const FileEntry& entry, FileAggregate&& aggregate) {
  if (empty()) started_ = std::chrono::steady_clock::now();
  aggregate_.Combine(std::move(aggregate));
  indexes_.push_back(index);
  entries_.emplace_back(std::move(name), entry);
  decoded_bytes_ += entry.decoded_bytes;
}

void CommitGroup::Clear() {
  indexes_.clear();
  entries_.clear();
  aggregate_ = FileAggregate();
  decoded_bytes_ = 0;
}

}  // namespace ghsift
