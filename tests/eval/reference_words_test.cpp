// Word lists scored beside the rules: how a list becomes a pattern, and a group's score under it.
#include "eval/reference_words.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "eval/labeled_suite.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

TEST(ReferenceWordsTest, ParsesCategoryEqualsFile) {
  auto list = ParseReferenceWords("performance=bench/peers/words.txt");
  ASSERT_TRUE(list.ok()) << list.status().message();
  EXPECT_EQ(list->category, "performance");
  EXPECT_EQ(list->path, "bench/peers/words.txt");
  for (const char* bad : {"performance", "=words.txt", "performance="}) {
    const auto parsed = ParseReferenceWords(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_NE(parsed.status().message().find("CATEGORY=FILE"), std::string::npos);
  }
}

TEST(ReferenceWordsTest, PatternSkipsCommentsBlanksAndRepeatsAndEscapesRegexCharacters) {
  testing::TempDir dir;
  std::ofstream(dir / "words.txt") << "# a comment\nslow\n\n  memory leak  \nc++\nslow\nx.y\n";
  auto pattern = ReferencePattern(dir / "words.txt");
  ASSERT_TRUE(pattern.ok()) << pattern.status().message();
  EXPECT_EQ(*pattern, "\\b(slow|memory leak|c\\+\\+|x\\.y)\\b");
}

TEST(ReferenceWordsTest, AnEmptyOrMissingListIsAnError) {
  testing::TempDir dir;
  std::ofstream(dir / "empty.txt") << "# only a comment\n\n";
  const auto empty = ReferencePattern(dir / "empty.txt");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("no word"), std::string::npos);
  const auto missing = ReferencePattern(dir / "missing.txt");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("missing.txt: cannot read"), std::string::npos);
  std::ofstream(dir / "w.txt") << "slow\n";
  const auto twice = ReferenceRuleSet({{"performance", dir / "w.txt"}, {"performance", dir / "w.txt"}});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("two word lists for performance"), std::string::npos);
}

LabeledReport Report(const std::string& group, const std::string& title, const std::string& body, int label) {
  LabeledReport r;
  r.group = group;
  r.text[Field::kTitle] = {title};
  if (!body.empty()) r.text[Field::kBody] = {body};
  r.binary = label;
  return r;
}

TEST(ReferenceWordsTest, FlagsAReportWithAWordInTitleOrBodyAndLeavesUncoveredGroupsOut) {
  testing::TempDir dir;
  std::ofstream(dir / "perf.txt") << "slow\nmemory leak\n";
  const std::vector<LabeledReport> reports = {
      Report("a", "Training is SLOW", "", 1),            // tp (case is ignored)
      Report("a", "Crash on start", "a Memory Leak", 1),  // tp, from the body
      Report("a", "Docs typo", "", 1),                    // fn
      Report("a", "slowly add a feature", "", 0),         // tn: "slowly" is not the word "slow"
      Report("a", "Add a slow mode", "", 0),              // fp
      Report("b", "slow", "", 1),                         // group b asks for accuracy too: no list
  };
  const std::vector<GroupDefinition> groups = {{"a", {"performance"}, {}, true, false},
                                               {"b", {"performance", "accuracy"}, {}, true, false}};
  auto scores = ScoreReferenceWords({{"performance", dir / "perf.txt"}}, reports, groups, {0, 0, 0, 0, 0, 1});
  ASSERT_TRUE(scores.ok()) << scores.status().message();
  ASSERT_EQ(scores->size(), 2u);
  ASSERT_TRUE((*scores)[0].has_value());
  const Confusion& c = (*scores)[0]->score.confusion;
  EXPECT_EQ(c.tp, 2);
  EXPECT_EQ(c.fp, 1);
  EXPECT_EQ(c.fn, 1);
  EXPECT_EQ(c.tn, 1);
  // Each report's decision, in the group's order, for the paired interval.
  const DecidedGroup& decided = (*scores)[0]->decided;
  ASSERT_EQ(decided.reports.size(), 5u);
  const bool predicted[] = {true, true, false, false, true}, positive[] = {true, true, true, false, false};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(decided.reports[i].predicted, predicted[i]) << i;
    EXPECT_EQ(decided.reports[i].positive, positive[i]) << i;
  }
  EXPECT_FALSE((*scores)[1].has_value());
}

TEST(ReferenceWordsTest, TheSuiteNamesListsFromItsOwnFolder) {
  testing::TempDir dir;
  std::ofstream(dir / "suite.yaml") << "reference_words:\n  performance: ../lists/perf.txt\n"
                                       "sets:\n  - {path: a.csv, positive: [performance]}\n";
  auto suite = LoadLabeledSuite(dir / "suite.yaml", "/data");
  ASSERT_TRUE(suite.ok()) << suite.status().message();
  ASSERT_EQ(suite->reference_words.size(), 1u);
  EXPECT_EQ(suite->reference_words[0].category, "performance");
  EXPECT_EQ(suite->reference_words[0].path,
            (std::filesystem::path(dir.path()).parent_path() / "lists/perf.txt").lexically_normal().string());
  std::ofstream(dir / "bad.yaml") << "reference_words: [a, b]\nsets:\n  - {path: a.csv, positive: [performance]}\n";
  const auto bad = LoadLabeledSuite(dir / "bad.yaml", "/data");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'reference_words' must map a category to a word list file"),
            std::string::npos);
}

}  // namespace
}  // namespace ghsift
