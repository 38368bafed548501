#pragma once
// Event counters keyed by (repo, day, type): an open-addressing hash table with linear probing.
// Every event of the archive goes through Add, so it avoids the node allocation and pointer
// chasing of std::unordered_map.
#include <cstdint>
#include <utility>
#include <vector>

#include "common/assert.hpp"

namespace ghsift {

struct CounterKey {
  int64_t repo_id = 0;
  int32_t day = 0;
  uint16_t type_id = 0;  //!< EventTypeId, or kUnknownEventType with the name kept elsewhere
  bool operator==(const CounterKey&) const = default;
};

struct CounterKeyHash {
  size_t operator()(const CounterKey& k) const {
    uint64_t h = static_cast<uint64_t>(k.repo_id) * 0x9E3779B97F4A7C15ull;
    h ^= (static_cast<uint64_t>(static_cast<uint32_t>(k.day)) << 16 | k.type_id) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

class CounterTable {
 public:
  struct Slot {
    CounterKey key;
    uint64_t count = 0;  //!< 0 = empty (counts are never 0 once added)
  };

  void Add(const CounterKey& key, uint64_t n) {
    if ((size_ + 1) * 4 > slots_.size() * 3) Grow();
    Slot& s = Find(key);
    if (s.count == 0) {
      s.key = key;
      ++size_;
    }
    s.count += n;
  }
  //! Takes `n` back from a count that is larger than `n` (a slot never becomes empty again,
  //! which would break the probe chains of other keys).
  void Subtract(const CounterKey& key, uint64_t n) {
    GHSIFT_ASSERT(!slots_.empty());
    Slot& s = Find(key);
    GHSIFT_ASSERT(s.count > n);
    s.count -= n;
  }
  //! The count of `key` (0 when absent).
  uint64_t at(const CounterKey& key) const {
    if (slots_.empty()) return 0;
    return const_cast<CounterTable*>(this)->Find(key).count;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  //! Calls fn(key, count) for every entry, in no particular order.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (const Slot& s : slots_) {
      if (s.count != 0) fn(s.key, s.count);
    }
  }
  void Merge(const CounterTable& other) {
    other.ForEach([&](const CounterKey& k, uint64_t n) { Add(k, n); });
  }
  bool operator==(const CounterTable& other) const {
    if (size_ != other.size_) return false;
    bool same = true;
    ForEach([&](const CounterKey& k, uint64_t n) { same = same && other.at(k) == n; });
    return same;
  }

 private:
  Slot& Find(const CounterKey& key) {
    const size_t mask = slots_.size() - 1;
    for (size_t i = CounterKeyHash()(key) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.count == 0 || s.key == key) return s;
    }
  }
  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{});
    size_ = 0;
    for (const Slot& s : old) {
      if (s.count != 0) Add(s.key, s.count);
    }
  }

  std::vector<Slot> slots_;  //!< size is a power of two, at most 3/4 full
  size_t size_ = 0;
};

}  // namespace ghsift
