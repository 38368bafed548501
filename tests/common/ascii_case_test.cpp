#include "common/ascii_case.hpp"

#include <gtest/gtest.h>

namespace ghsift {
namespace {

TEST(AsciiCaseTest, FoldsAsciiLettersOnly) {
  EXPECT_EQ(AsciiLower("PyTorch/PyTorch-1.0_Z@"), "pytorch/pytorch-1.0_z@");
  // Bytes of UTF-8 letters stay as they are, whatever the process locale.
  EXPECT_EQ(AsciiLower("\xC3\x89t\xC3\xA9"), "\xC3\x89t\xC3\xA9");
  EXPECT_EQ(AsciiLower('['), '[');  // between 'Z' and 'a'
}

TEST(AsciiCaseTest, ComparesWithoutCase) {
  EXPECT_TRUE(EqualsAnyCase("OctoCat", "octocat"));
  EXPECT_FALSE(EqualsAnyCase("octocat", "octocats"));
  EXPECT_FALSE(EqualsAnyCase("a[", "A{"));  // '[' and '{' are 32 apart but no letters
  EXPECT_TRUE(StartsWithAnyCase("HTTPS://data.gharchive.org/", "https://"));
  EXPECT_FALSE(StartsWithAnyCase("http:/", "http://"));
}

}  // namespace
}  // namespace ghsift
