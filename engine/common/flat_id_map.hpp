#pragma once
// A map from a 64-bit id (a repository's) to a value, in one open-addressing array.
//
// Why not std::unordered_map: ingest looks up the repository of every event of the archive
// (its latest name), and sampling the repository of every listed report. A node-based map
// allocates a node per id and chases a pointer per lookup, usually a cache miss; here a lookup
// mostly reads one slot. Linear probing, at most 3/4 full, Fibonacci hashing (ids close
// together land far apart). No erase: nothing needs it, and it would need tombstones.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "common/assert.hpp"

namespace ghsift {

template <typename Value>
class FlatIdMap {
 public:
  //! Marks a free slot; never a key.
  static constexpr int64_t kNoId = std::numeric_limits<int64_t>::min();

  //! A slot; iteration yields the used ones, which bind as `auto& [id, value]`.
  struct Entry {
    int64_t id = kNoId;
    Value value{};
  };

  Value* Find(int64_t id) { return const_cast<Value*>(std::as_const(*this).Find(id)); }
  const Value* Find(int64_t id) const {
    if (slots_.empty()) return nullptr;
    for (size_t i = SlotOf(id);; i = (i + 1) & (slots_.size() - 1)) {
      const Entry& e = slots_[i];
      if (e.id == id) return &e.value;
      if (e.id == kNoId) return nullptr;
    }
  }
  //! The value of an id that must be in the map.
  const Value& at(int64_t id) const {
    const Value* v = Find(id);
    GHSIFT_ASSERT(v != nullptr);
    return *v;
  }
  //! The value of `id`, and whether it was just added (default-constructed).
  std::pair<Value&, bool> Emplace(int64_t id) {
    GHSIFT_ASSERT(id != kNoId);
    if ((size_ + 1) * 4 > slots_.size() * 3) Grow();
    Entry& e = SlotFor(id);
    const bool added = e.id == kNoId;
    if (added) {
      e.id = id;
      ++size_;
    }
    return {e.value, added};
  }
  Value& operator[](int64_t id) { return Emplace(id).first; }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  template <typename EntryT>
  class Iterator {
   public:
    Iterator(EntryT* at, EntryT* end) : at_(at), end_(end) { SkipFree(); }
    EntryT& operator*() const { return *at_; }
    Iterator& operator++() {
      ++at_;
      SkipFree();
      return *this;
    }
    bool operator==(const Iterator& o) const { return at_ == o.at_; }

   private:
    void SkipFree() {
      while (at_ != end_ && at_->id == kNoId) ++at_;
    }
    EntryT* at_;
    EntryT* end_;
  };
  Iterator<Entry> begin() { return {slots_.data(), slots_.data() + slots_.size()}; }
  Iterator<Entry> end() { return {slots_.data() + slots_.size(), slots_.data() + slots_.size()}; }
  Iterator<const Entry> begin() const { return {slots_.data(), slots_.data() + slots_.size()}; }
  Iterator<const Entry> end() const { return {slots_.data() + slots_.size(), slots_.data() + slots_.size()}; }

 private:
  static constexpr size_t kMinSlots = 64;

  size_t SlotOf(int64_t id) const {
    return static_cast<size_t>((static_cast<uint64_t>(id) * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  //! The slot holding `id`, or the free one where it belongs.
  Entry& SlotFor(int64_t id) {
    for (size_t i = SlotOf(id);; i = (i + 1) & (slots_.size() - 1)) {
      Entry& e = slots_[i];
      if (e.id == id || e.id == kNoId) return e;
    }
  }
  void Grow() { Rehash(slots_.empty() ? kMinSlots : slots_.size() * 2); }
  void Rehash(size_t slots) {
    std::vector<Entry> old = std::move(slots_);
    slots_ = std::vector<Entry>(slots);
    shift_ = 64;
    for (size_t s = slots; s > 1; s /= 2) --shift_;
    for (Entry& e : old) {
      if (e.id != kNoId) SlotFor(e.id) = std::move(e);
    }
  }

  std::vector<Entry> slots_;  //!< a power of two in size, at most 3/4 used
  size_t size_ = 0;
  int shift_ = 64;  //!< 64 - log2(slots_.size()): the hash's top bits pick the slot
};

}  // namespace ghsift
