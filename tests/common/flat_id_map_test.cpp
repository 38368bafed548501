#include "common/flat_id_map.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/split_mix.hpp"

namespace ghsift {
namespace {

TEST(FlatIdMapTest, AnEmptyMapFindsNothingAndIteratesNothing) {
  const FlatIdMap<int> map;
  EXPECT_EQ(map.Find(7), nullptr);
  EXPECT_TRUE(map.empty());
  EXPECT_EQ(map.begin(), map.end());
}

TEST(FlatIdMapTest, EmplaceSaysWhetherTheIdIsNew) {
  FlatIdMap<std::string> map;
  auto [first, added] = map.Emplace(-1);
  EXPECT_TRUE(added);
  first = "untracked";
  auto [again, added_again] = map.Emplace(-1);
  EXPECT_FALSE(added_again);
  EXPECT_EQ(again, "untracked");
  EXPECT_EQ(map.size(), 1u);
  EXPECT_EQ(map.at(-1), "untracked");
}

// Ids of every sign and size, many of them close together (store ids are dense), against a
// std::map: the same values found, each id iterated exactly once, none left after growing.
TEST(FlatIdMapTest, HoldsWhatAnOrderedMapHoldsThroughEveryGrowth) {
  FlatIdMap<std::string> map;
  std::map<int64_t, std::string> want;
  SplitMix64 random(42);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t r = random.Next();
    const int64_t id = (r % 3 == 0) ? static_cast<int64_t>(r) : static_cast<int64_t>(r % 5000) - 100;
    const std::string value = std::to_string(i);
    map[id] += value;
    want[id] += value;
  }
  ASSERT_EQ(map.size(), want.size());
  for (const auto& [id, value] : want) {
    const std::string* found = map.Find(id);
    ASSERT_NE(found, nullptr) << id;
    EXPECT_EQ(*found, value) << id;
  }
  std::map<int64_t, std::string> seen;
  for (const auto& [id, value] : map) EXPECT_TRUE(seen.emplace(id, value).second) << "twice: " << id;
  EXPECT_EQ(seen, want);
  EXPECT_EQ(map.Find(5000), nullptr);
  EXPECT_EQ(map.Find(-101), nullptr);
}

}  // namespace
}  // namespace ghsift
