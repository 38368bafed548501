#pragma once
// Little binary encoding helpers for store values and keys.
// Keys use big-endian fixed-width integers so that RocksDB's bytewise order is numeric order;
// values use varints and length-prefixed strings.
#include <cstdint>
#include <string>
#include <string_view>

namespace ghsift {

inline void PutFixed64BE(std::string& out, uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}
inline void PutFixed32BE(std::string& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}
inline uint64_t GetFixed64BE(std::string_view in, size_t pos) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v = (v << 8) | static_cast<unsigned char>(in[pos + i]);
  return v;
}
inline uint32_t GetFixed32BE(std::string_view in, size_t pos) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(in[pos + i]);
  return v;
}
//! Signed values are biased so that negative numbers sort before positive ones.
inline void PutOrderedInt64(std::string& out, int64_t v) {
  PutFixed64BE(out, static_cast<uint64_t>(v) ^ (uint64_t{1} << 63));
}
inline int64_t GetOrderedInt64(std::string_view in, size_t pos) {
  return static_cast<int64_t>(GetFixed64BE(in, pos) ^ (uint64_t{1} << 63));
}
inline void PutOrderedInt32(std::string& out, int32_t v) {
  PutFixed32BE(out, static_cast<uint32_t>(v) ^ (uint32_t{1} << 31));
}
inline int32_t GetOrderedInt32(std::string_view in, size_t pos) {
  return static_cast<int32_t>(GetFixed32BE(in, pos) ^ (uint32_t{1} << 31));
}

inline void PutVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}
inline void PutSignedVarint(std::string& out, int64_t v) {
  PutVarint(out, (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
}
inline void PutLengthPrefixed(std::string& out, std::string_view s) {
  PutVarint(out, s.size());
  out.append(s);
}

//! Sequential reader over an encoded value; any overrun turns `ok()` false instead of reading
//! out of bounds, so a damaged value is detected rather than trusted.
class ByteReader {
 public:
  explicit ByteReader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_; }
  bool done() const { return pos_ >= in_.size(); }
  uint64_t Varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= in_.size()) {
        ok_ = false;
        return 0;
      }
      const auto byte = static_cast<unsigned char>(in_[pos_++]);
      v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (byte < 0x80) return v;
    }
    ok_ = false;
    return 0;
  }
  int64_t SignedVarint() {
    const uint64_t u = Varint();
    return static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
  }
  std::string_view LengthPrefixed() {
    const uint64_t n = Varint();
    if (!ok_ || n > in_.size() - pos_) {
      ok_ = false;
      return {};
    }
    std::string_view s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }

 private:
  std::string_view in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace ghsift
