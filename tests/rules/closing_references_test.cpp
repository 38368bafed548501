#include "rules/closing_references.hpp"

#include <gtest/gtest.h>

namespace ghsift {
namespace {

using Numbers = std::vector<int64_t>;

TEST(ClosingReferencesTest, KeywordsAndReferenceForms) {
  const std::string_view repo = "tensorflow/tensorflow";
  EXPECT_EQ(FindClosingReferences("Fixes #12", repo), Numbers{12});
  EXPECT_EQ(FindClosingReferences("this closes: #7 and resolved #9.", repo), (Numbers{7, 9}));
  EXPECT_EQ(FindClosingReferences("FIXED tensorflow/tensorflow#31", repo), Numbers{31});
  EXPECT_EQ(FindClosingReferences("resolves https://github.com/tensorflow/tensorflow/issues/4001", repo),
            Numbers{4001});
  EXPECT_EQ(FindClosingReferences("close #5, fix #5", repo), Numbers{5});
}

TEST(ClosingReferencesTest, WhatDoesNotClose) {
  const std::string_view repo = "tensorflow/tensorflow";
  EXPECT_TRUE(FindClosingReferences("see #12", repo).empty());
  EXPECT_TRUE(FindClosingReferences("prefix #12", repo).empty());          // "fix" inside a word
  EXPECT_TRUE(FindClosingReferences("fixture #12", repo).empty());
  EXPECT_TRUE(FindClosingReferences("fixes keras-team/keras#12", repo).empty());  // another repo
  EXPECT_TRUE(FindClosingReferences("fixes https://github.com/pytorch/pytorch/issues/3", repo).empty());
  EXPECT_TRUE(FindClosingReferences("fixes #abc", repo).empty());
  EXPECT_TRUE(FindClosingReferences("fixes the bug", repo).empty());
}

}  // namespace
}  // namespace ghsift
