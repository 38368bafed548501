// Learning phrase rules on a hand-made match table: the phrase every group's positives share is
// kept with a positive weight on the grid, the threshold stays as written, the held-out figures
// are those of the decision, and at lambda_max alone nothing is learned.
#include <gtest/gtest.h>

#include <cmath>

#include "eval/phrase_learner.hpp"

namespace ghsift {
namespace {

struct Toy {
  MatchTable table;
  PhraseIndex index;
  DecisionParams written;
};

// Three groups of the same seven titles; rule 0 (silent, weight 1) matches "nan".
Toy MakeToy() {
  const std::vector<std::pair<std::string, int>> titles = {
      {"wrong result from conv", 1}, {"wrong result after resize", 1}, {"nan in loss", 1},
      {"wrong link in docs", 0},     {"result type undocumented", 0},  {"crash on import", 0},
      {"build fails on mac", 0}};
  Toy t;
  t.table.rule_ids = {"s.nan"};
  t.table.rule_category = {0};
  t.table.rule_categories = {{0}};
  t.table.categories = {"silent"};
  std::vector<std::vector<std::string>> phrases;
  for (int g = 0; g < 3; ++g) {
    MatchTable::Group group;
    group.name = "g" + std::to_string(g);
    group.positive = {0};
    group.objective_f1 = true;
    group.positive_name = "silent";
    for (const auto& [title, label] : titles) {
      group.reports.push_back(static_cast<uint32_t>(t.table.label.size()));
      t.table.matched.push_back(title.find("nan") != std::string::npos ? std::vector<uint32_t>{0}
                                                                      : std::vector<uint32_t>{});
      t.table.label.push_back(static_cast<int8_t>(label));
      t.table.group.push_back(g);
      phrases.push_back(TextPhrases({title}, 3));
    }
    t.table.groups.push_back(group);
  }
  t.index = IndexPhrases(phrases);
  t.written.weight = {1'000'000};
  t.written.threshold = {1'000'000};
  return t;
}

TEST(PhraseLearnerTest, KeepsTheSharedPhraseAndTheWrittenThreshold) {
  const Toy t = MakeToy();
  LearnOptions o;
  o.vocabulary.min_reports = 2;
  const LearnResult r = LearnPhrases(t.table, t.index, t.written, 0, o);
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.groups, (std::vector<size_t>{0, 1, 2}));
  ASSERT_EQ(r.layer.phrases.size(), 1u);
  EXPECT_EQ(t.index.phrases[r.layer.phrases[0].first], "wrong result");
  const double w = r.layer.phrases[0].second;
  EXPECT_GE(w, 1.0);  // alone, it reaches the threshold
  EXPECT_NEAR(std::round(w / 0.05) * 0.05, w, 1e-12);  // on the grid
  EXPECT_EQ(r.layer.threshold, 1.0);
  EXPECT_TRUE(r.layer.rule_weights.empty());
  // As written each group gets its "nan" positive only (F1 0.5); held out, all three (1.0).
  for (size_t g = 0; g < 3; ++g) {
    EXPECT_EQ(r.written[g].confusion.tp, 1);
    EXPECT_EQ(r.path[r.chosen].held_out[g].confusion.tp, 3);
    EXPECT_EQ(r.path[r.chosen].held_out[g].confusion.fp, 0);
  }
  EXPECT_DOUBLE_EQ(r.path[r.chosen].mean, 1.0);
  // lambda_max is tried first and learns nothing there; the best later value is chosen.
  EXPECT_DOUBLE_EQ(r.path[0].mean, 0.5);
  EXPECT_GT(r.chosen, 0u);
}

TEST(PhraseLearnerTest, AtLambdaMaxAloneNothingIsLearned) {
  const Toy t = MakeToy();
  LearnOptions o;
  o.vocabulary.min_reports = 2;
  o.lambdas = 1;
  const LearnResult r = LearnPhrases(t.table, t.index, t.written, 0, o);
  EXPECT_TRUE(r.layer.phrases.empty());
  EXPECT_TRUE(r.layer.rule_weights.empty());
  EXPECT_DOUBLE_EQ(r.path[0].mean, 0.5);
}

TEST(PhraseLearnerTest, AGroupARuleWasWrittenFromIsScoredWithoutIt) {
  Toy t = MakeToy();
  t.table.rule_written_from = {{1}};  // "s.nan" was written from g1's reports
  LearnOptions o;
  o.vocabulary.min_reports = 2;
  o.lambdas = 1;  // lambda_max alone: no phrase, the rules' own decision
  const LearnResult r = LearnPhrases(t.table, t.index, t.written, 0, o);
  // In-sample every group finds its "nan" positive; held out, g1 finds nothing without the rule,
  // in the learned fold and in the rules-alone figure the gate compares it with.
  for (size_t g = 0; g < 3; ++g) EXPECT_EQ(r.written[g].confusion.tp, 1);
  EXPECT_EQ(r.written_held_out[0].confusion.tp, 1);
  EXPECT_EQ(r.written_held_out[1].confusion.tp, 0);
  EXPECT_EQ(r.path[0].held_out[0].confusion.tp, 1);
  EXPECT_EQ(r.path[0].held_out[1].confusion.tp, 0);
  EXPECT_EQ(r.path[0].held_out[1].confusion.fn, 3);
  EXPECT_DOUBLE_EQ(r.path[0].mean, 1.0 / 3);  // F1 0.5, 0, 0.5
  EXPECT_DOUBLE_EQ(r.path[0].worst_drop, 0.0);
}

TEST(PhraseLearnerTest, APhraseOfOneGroupIsNoFeature) {
  const Toy t = MakeToy();
  LearnOptions o;
  o.vocabulary.min_reports = 2;
  o.vocabulary.min_groups = 4;  // more than there are
  const LearnResult r = LearnPhrases(t.table, t.index, t.written, 0, o);
  EXPECT_EQ(r.vocabulary, 0u);
  EXPECT_TRUE(r.layer.phrases.empty());
}

}  // namespace
}  // namespace ghsift
