#pragma once
// The distinct rules that matched a report: what the decision is a function of.
#include <cstdint>
#include <vector>

namespace ghsift {

class MatchSet {
 public:
  //! Records rule `id`; duplicates are ignored.
  void Add(uint32_t id) {
    const size_t word = id / 64;
    if (word >= bits_.size()) bits_.resize(word + 1, 0);
    const uint64_t bit = uint64_t{1} << (id % 64);
    if (bits_[word] & bit) return;
    bits_[word] |= bit;
    ids_.push_back(id);
  }
  bool Contains(uint32_t id) const {
    const size_t word = id / 64;
    return word < bits_.size() && (bits_[word] >> (id % 64)) & 1;
  }
  //! Clears in time proportional to the number of ids, keeping capacity.
  void Clear() {
    for (uint32_t id : ids_) bits_[id / 64] = 0;
    ids_.clear();
  }
  bool empty() const { return ids_.empty(); }
  //! In the order first matched.
  const std::vector<uint32_t>& ids() const { return ids_; }

 private:
  std::vector<uint64_t> bits_;
  std::vector<uint32_t> ids_;
};

}  // namespace ghsift
