#include "gen/rng.hpp"

#include <gtest/gtest.h>

namespace ghsift::gen {
namespace {

// Computed before the generator's splitmix64 became common/split_mix.hpp's: a corpus is the same
// bytes for the same seed on every version, so these never change.
TEST(GenRngTest, SeedsAndStreamsKeepTheirValues) {
  EXPECT_EQ(MixSeed(7, 1, 2), 0x4c9e09c92d4f11feull);
  Rng rng(7);
  EXPECT_EQ(rng.Next(), 0xb358faf74ef9765aull);
  EXPECT_EQ(rng.Next(), 0x475c3d964f482cd2ull);
  EXPECT_EQ(rng.Next(), 0xd6f1d349952c7996ull);
}

}  // namespace
}  // namespace ghsift::gen
