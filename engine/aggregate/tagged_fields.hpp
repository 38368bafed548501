#pragma once
// Records that can grow. After the fields every format of a record has, it carries tagged
// fields: their count, then each as (tag, length-prefixed bytes). A reader takes the tags it
// knows, skips the others, and leaves a field it finds no tag for at its default. A new field is
// a new tag: records written before it decode (without it), and so do records a newer ghsift
// wrote (without the fields this one does not know). The count makes a record cut short an
// error rather than a record without its last fields.
#include <cstdint>
#include <string>
#include <string_view>

#include "common/byte_codec.hpp"

namespace ghsift {

class TaggedFields {
 public:
  void Add(uint64_t tag, std::string_view bytes) {
    PutVarint(fields_, tag);
    PutLengthPrefixed(fields_, bytes);
    ++count_;
  }
  bool empty() const { return count_ == 0; }
  void AppendTo(std::string& out) const {
    PutVarint(out, count_);
    out += fields_;
  }

 private:
  std::string fields_;
  uint64_t count_ = 0;
};

//! Calls `fn(tag, bytes)` for each tagged field `in` holds from its position; false when they are
//! damaged (cut short, or followed by more bytes).
template <typename Fn>
bool ReadTaggedFields(ByteReader& in, Fn&& fn) {
  const uint64_t count = in.Varint();
  for (uint64_t i = 0; i < count && in.ok(); ++i) {
    const uint64_t tag = in.Varint();
    const std::string_view bytes = in.LengthPrefixed();
    if (in.ok()) fn(tag, bytes);
  }
  return in.ok() && in.done();
}

}  // namespace ghsift
