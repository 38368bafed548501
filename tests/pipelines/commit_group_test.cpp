// A commit group's age starts with its first file and ends with Clear: what commits a group
// after --commit-seconds even when it has not reached --commit-mib.
#include "pipelines/commit_group.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace ghsift {
namespace {

TEST(CommitGroupTest, AgeCountsFromTheFirstFileUntilCleared) {
  CommitGroup group;
  EXPECT_EQ(group.age_seconds(), 0.0);
  FileEntry entry;
  entry.decoded_bytes = 100;
  group.Add(0, "a", entry, FileAggregate());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double first = group.age_seconds();
  EXPECT_GE(first, 0.02);
  group.Add(1, "b", entry, FileAggregate());  // a later file does not restart the clock
  EXPECT_GE(group.age_seconds(), first);
  EXPECT_EQ(group.decoded_bytes(), 200u);
  EXPECT_EQ(group.file_indexes(), (std::vector<size_t>{0, 1}));
  group.Clear();
  EXPECT_TRUE(group.empty());
  EXPECT_EQ(group.age_seconds(), 0.0);
  EXPECT_EQ(group.decoded_bytes(), 0u);
}

}  // namespace
}  // namespace ghsift
