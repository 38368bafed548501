#include "common/hash.hpp"

#include <gtest/gtest.h>

#include "common/short_digest.hpp"
#include "common/split_mix.hpp"

namespace ghsift {
namespace {

// The values below were computed by the code as it stood before the hash and the generator
// each got one definition: stores keep these hashes and digests, and corpora and samples are
// drawn from these streams, so a change here changes data already written.

TEST(HashTest, Fnv1a64KeepsItsValues) {
  EXPECT_EQ(Fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(Fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(Fnv1a64("pytorch/pytorch"), 0x7a2b4500da89ef28ull);
  EXPECT_EQ(Fnv1a64("performance/low-speed"), 0x18acfe87df3da5b6ull);
}

TEST(HashTest, ShortDigestKeepsItsSeed) {
  EXPECT_EQ(ShortDigest(""), "14650fb0739d0383");
  EXPECT_EQ(ShortDigest("a"), "44bd8ad473cd9906");
  EXPECT_EQ(ShortDigest("pytorch/pytorch"), "dba41265c424f90e");
  EXPECT_EQ(ShortDigest("performance/low-speed"), "64421b17bad2c638");
}

TEST(SplitMixTest, StreamKeepsItsValues) {
  SplitMix64 rng(0);
  EXPECT_EQ(rng.Next(), 0xe220a8397b1dcdafull);
  EXPECT_EQ(rng.Next(), 0x6e789e6aa1b965f4ull);
  EXPECT_EQ(rng.Next(), 0x06c45d188009454full);
  uint64_t state = 0;
  EXPECT_EQ(SplitMixNext(state), 0xe220a8397b1dcdafull);
  EXPECT_EQ(SplitMixNext(state), 0x6e789e6aa1b965f4ull);
}

TEST(SplitMixTest, BelowKeepsItsValues) {
  SplitMix64 rng(42);
  EXPECT_EQ(rng.Below(1000), 413u);
  EXPECT_EQ(rng.Below(1000), 291u);
  EXPECT_EQ(rng.Below(1000), 858u);
}

}  // namespace
}  // namespace ghsift
