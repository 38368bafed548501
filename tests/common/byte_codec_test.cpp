#include "common/byte_codec.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ghsift {
namespace {

TEST(ByteCodecTest, FixedBigEndianLayout) {
  std::string out;
  PutFixed32BE(out, 0x01020304u);
  PutFixed64BE(out, 0x0102030405060708ull);
  ASSERT_EQ(out.size(), 12u);
  EXPECT_EQ(out, std::string("\x01\x02\x03\x04\x01\x02\x03\x04\x05\x06\x07\x08", 12));
  EXPECT_EQ(GetFixed32BE(out, 0), 0x01020304u);
  EXPECT_EQ(GetFixed64BE(out, 4), 0x0102030405060708ull);
}

TEST(ByteCodecTest, OrderedIntegersSortNumerically) {
  const std::vector<int64_t> values = {std::numeric_limits<int64_t>::min(), -1000000, -1, 0, 1, 255, 256,
                                       std::numeric_limits<int64_t>::max()};
  std::vector<std::string> encoded;
  for (int64_t v : values) {
    std::string s;
    PutOrderedInt64(s, v);
    ASSERT_EQ(s.size(), 8u);
    EXPECT_EQ(GetOrderedInt64(s, 0), v);
    encoded.push_back(s);
  }
  EXPECT_TRUE(std::is_sorted(encoded.begin(), encoded.end()));
  EXPECT_EQ(std::adjacent_find(encoded.begin(), encoded.end()), encoded.end());

  const std::vector<int32_t> small = {std::numeric_limits<int32_t>::min(), -2, -1, 0, 1, 65536,
                                      std::numeric_limits<int32_t>::max()};
  std::vector<std::string> encoded32;
  for (int32_t v : small) {
    std::string s;
    PutOrderedInt32(s, v);
    ASSERT_EQ(s.size(), 4u);
    EXPECT_EQ(GetOrderedInt32(s, 0), v);
    encoded32.push_back(s);
  }
  EXPECT_TRUE(std::is_sorted(encoded32.begin(), encoded32.end()));
}

TEST(ByteCodecTest, VarintRoundTripAndSizes) {
  const std::vector<uint64_t> values = {0, 1, 127, 128, 300, 16383, 16384, uint64_t{1} << 35,
                                        std::numeric_limits<uint64_t>::max()};
  std::string out;
  for (uint64_t v : values) PutVarint(out, v);
  ByteReader in(out);
  for (uint64_t v : values) EXPECT_EQ(in.Varint(), v);
  EXPECT_TRUE(in.ok());
  EXPECT_TRUE(in.done());

  std::string one;
  PutVarint(one, 127);
  EXPECT_EQ(one.size(), 1u);
  one.clear();
  PutVarint(one, 128);
  EXPECT_EQ(one, std::string("\x80\x01", 2));
  one.clear();
  PutVarint(one, std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(one.size(), 10u);
}

TEST(ByteCodecTest, SignedVarintRoundTrip) {
  const std::vector<int64_t> values = {0, -1, 1, -64, 64, -1000000007, std::numeric_limits<int64_t>::min(),
                                       std::numeric_limits<int64_t>::max()};
  std::string out;
  for (int64_t v : values) PutSignedVarint(out, v);
  ByteReader in(out);
  for (int64_t v : values) EXPECT_EQ(in.SignedVarint(), v);
  EXPECT_TRUE(in.ok());
  EXPECT_TRUE(in.done());
  // Zigzag: small magnitudes stay one byte.
  std::string minus_one;
  PutSignedVarint(minus_one, -1);
  EXPECT_EQ(minus_one, std::string("\x01", 1));
}

TEST(ByteCodecTest, LengthPrefixedRoundTrip) {
  std::string out;
  PutLengthPrefixed(out, "");
  PutLengthPrefixed(out, "hello");
  PutLengthPrefixed(out, std::string(200, 'x'));
  PutLengthPrefixed(out, std::string("a\0b", 3));
  ByteReader in(out);
  EXPECT_EQ(in.LengthPrefixed(), "");
  EXPECT_EQ(in.LengthPrefixed(), "hello");
  EXPECT_EQ(in.LengthPrefixed(), std::string(200, 'x'));
  EXPECT_EQ(in.LengthPrefixed(), std::string("a\0b", 3));
  EXPECT_TRUE(in.ok());
  EXPECT_TRUE(in.done());
}

TEST(ByteCodecTest, ReaderDetectsOverruns) {
  {
    ByteReader in("");
    EXPECT_EQ(in.Varint(), 0u);
    EXPECT_FALSE(in.ok());
  }
  {
    // A continuation bit with nothing after it.
    ByteReader in(std::string_view("\x80", 1));
    EXPECT_EQ(in.Varint(), 0u);
    EXPECT_FALSE(in.ok());
  }
  {
    // Eleven continuation bytes: longer than any 64-bit varint.
    const std::string too_long(11, '\x80');
    ByteReader in(too_long);
    EXPECT_EQ(in.Varint(), 0u);
    EXPECT_FALSE(in.ok());
  }
  {
    // Length 5 but only 3 bytes follow.
    ByteReader in(std::string_view("\x05" "abc", 4));
    EXPECT_EQ(in.LengthPrefixed(), "");
    EXPECT_FALSE(in.ok());
  }
  {
    std::string out;
    PutLengthPrefixed(out, "hello");
    out.pop_back();
    ByteReader in(out);
    (void)in.LengthPrefixed();
    EXPECT_FALSE(in.ok());
  }
}

}  // namespace
}  // namespace ghsift
