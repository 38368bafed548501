#include "common/closest_name.hpp"

#include <gtest/gtest.h>

namespace ghsift {
namespace {

TEST(ClosestNameTest, EditDistanceIgnoresCase) {
  EXPECT_EQ(EditDistance("ingset", "ingest"), 2u);
  EXPECT_EQ(EditDistance("Query", "query"), 0u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
}

TEST(ClosestNameTest, APartOfANameFindsTheShortestHolder) {
  const std::vector<std::string> categories = {"accuracy", "info", "performance", "silent", "stage"};
  EXPECT_EQ(ClosestName("perf", categories), "performance");
  const std::vector<std::string> repos = {"tensorflow/tensorboard", "tensorflow/tensorflow", "keras-team/keras"};
  EXPECT_EQ(ClosestName("tensorflow", repos), "tensorflow/tensorflow");
}

TEST(ClosestNameTest, MisspellingsWithinAThirdOfTheLength) {
  const std::vector<std::string> commands = {"gen", "ingest", "issues", "query", "report", "stats"};
  EXPECT_EQ(ClosestName("ingset", commands), "ingest");
  EXPECT_EQ(ClosestName("qeury", commands), "query");
  EXPECT_EQ(ClosestName("xyzzy", commands), "");
  EXPECT_EQ(ClosestName("", commands), "");
}

// A name of parts is near by its last part too: a misspelt subcategory without its category, a
// misspelt repository without its owner. The whole name is suggested.
TEST(ClosestNameTest, ANameOfPartsIsNearByItsLastPart) {
  const std::vector<std::string> tags = {"accuracy/nan-inf", "performance/memory", "performance/low-speed"};
  EXPECT_EQ(ClosestName("memmory", tags), "performance/memory");
  EXPECT_EQ(ClosestName("pytorh", {"google/jax", "pytorch/pytorch"}), "pytorch/pytorch");
  EXPECT_EQ(ClosestName("performance/memmory", tags), "performance/memory");
  EXPECT_EQ(ClosestName("throughput", tags), "");
  EXPECT_EQ(DidYouMean("opne", {"open", "closed", "unknown"}), " (did you mean open?)");
  EXPECT_EQ(DidYouMean("zzz", {"open", "closed", "unknown"}), "");
}

TEST(ClosestNameTest, JoinNamesSaysWhenItCut) {
  EXPECT_EQ(JoinNames({"a", "b", "c"}), "a, b, c");
  EXPECT_EQ(JoinNames({"a", "b", "c"}, 2), "a, b, ... (3 in all)");
}

}  // namespace
}  // namespace ghsift
