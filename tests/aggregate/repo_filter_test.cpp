// RepoFilter: the stored description of a scope reads back as the same filter.
#include "aggregate/repo_filter.hpp"

#include <gtest/gtest.h>

namespace ghsift {
namespace {

TEST(RepoFilterTest, DescriptionReadsBackAsTheSameFilter) {
  const RepoFilter tracked = RepoFilter::FromNames({"BVLC/caffe", "keras-team/keras"});
  auto read = RepoFilter::FromDescription(tracked.Describe() + ";keep-text");  // the store's suffix
  ASSERT_TRUE(read.has_value());
  EXPECT_FALSE(read->all());
  EXPECT_EQ(read->Describe(), tracked.Describe());
  EXPECT_TRUE(read->Tracks("bvlc/CAFFE"));
  EXPECT_FALSE(read->Tracks("bvlc/caff"));
  auto all = RepoFilter::FromDescription("all");
  ASSERT_TRUE(all.has_value());
  EXPECT_TRUE(all->all());
  EXPECT_FALSE(RepoFilter::FromDescription("everything").has_value());
}

}  // namespace
}  // namespace ghsift
