// Word n-gram features for `rules learn`: the phrases of a text exactly, the fields they come
// from, and the vocabulary's document-frequency floor over reports and groups.
#include <gtest/gtest.h>

#include "eval/phrase_features.hpp"

namespace ghsift {
namespace {

TEST(PhraseFeaturesTest, NGramsWithinWhitespaceRunsWithoutStopwordOnlyOnes) {
  // "," ends a run (the pattern joins words by \s+ only); "on", "the" and "2" alone are left out.
  const auto phrases = TextPhrases({"Slow training, on the GPU 2"}, 3);
  EXPECT_EQ(phrases, (std::vector<std::string>{"gpu", "gpu 2", "on the gpu", "slow", "slow training", "the gpu",
                                               "the gpu 2", "training"}));
  EXPECT_EQ(TextPhrases({"Slow training, on the GPU 2"}, 1),
            (std::vector<std::string>{"gpu", "slow", "training"}));
  // Two texts: no phrase spans them; a phrase in both counts once.
  EXPECT_EQ(TextPhrases({"very slow", "slow model"}, 2),
            (std::vector<std::string>{"model", "slow", "slow model", "very", "very slow"}));
  // \v and \f are whitespace to \s, so they join words as a space does.
  EXPECT_EQ(TextPhrases({"wrong\vresult"}, 2), (std::vector<std::string>{"result", "wrong", "wrong result"}));
}

TEST(PhraseFeaturesTest, FieldTextsAreTheRulesFields) {
  LabeledReport r;
  r.text[Field::kTitle] = {"Wrong output"};
  r.text[Field::kBody] = {"It is wrong.\n```\nwrong_code()\n```\nafter"};
  r.text[Field::kComment] = {"first", "second"};
  const auto title_body = FieldTexts(r, MaskOf(Field::kTitle) | MaskOf(Field::kBody));
  ASSERT_EQ(title_body.size(), 2u);
  EXPECT_EQ(title_body[0], "Wrong output");
  EXPECT_EQ(title_body[1].find("wrong_code"), std::string::npos);  // fenced code is not prose
  EXPECT_NE(title_body[1].find("after"), std::string::npos);
  const auto comments = FieldTexts(r, MaskOf(Field::kComment));
  ASSERT_EQ(comments.size(), 2u);
  EXPECT_NE(comments[0].find("first"), std::string::npos);
  EXPECT_NE(comments[1].find("second"), std::string::npos);
}

TEST(PhraseFeaturesTest, VocabularyNeedsEnoughReportsInEnoughGroups) {
  // "slow": 3 reports in 2 groups; "leak": 3 reports in 1 group; "nan": 2 reports in 2 groups.
  const PhraseIndex index = IndexPhrases({{"slow"}, {"leak", "slow"}, {"leak"}, {"leak", "nan"}, {"nan", "slow"}});
  EXPECT_EQ(index.phrases, (std::vector<std::string>{"leak", "nan", "slow"}));
  EXPECT_EQ(index.of_report[1], (std::vector<uint32_t>{0, 2}));
  const std::vector<int> group = {0, 0, 0, 0, 1};
  const std::vector<char> use = {1, 1, 1, 1, 1};
  VocabularyOptions o;
  o.min_reports = 2;
  o.min_groups = 2;
  EXPECT_EQ(Vocabulary(index, group, use, o), (std::vector<uint32_t>{1, 2}));  // nan, slow
  o.min_reports = 3;
  EXPECT_EQ(Vocabulary(index, group, use, o), (std::vector<uint32_t>{2}));  // slow
  o.min_groups = 1;
  EXPECT_EQ(Vocabulary(index, group, use, o), (std::vector<uint32_t>{0, 2}));  // leak, slow
  // Reports not used (the held-out group) do not count.
  const std::vector<char> without_last = {1, 1, 1, 1, 0};
  o.min_groups = 2;
  o.min_reports = 1;
  EXPECT_TRUE(Vocabulary(index, group, without_last, o).empty());
}

}  // namespace
}  // namespace ghsift
