#include "rules/scanner.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "rules/rule_test_support.hpp"

namespace ghsift {
namespace {

using testing::MakeRule;

std::shared_ptr<const RuleDatabase> Compile(const RuleSet& set,
                                            RuleDatabase::Mode mode = RuleDatabase::Mode::kFlag) {
  auto db = RuleDatabase::Compile(set, mode);
  EXPECT_TRUE(db.ok()) << db.status().message();
  return db.ok() ? *db : nullptr;
}

std::vector<uint32_t> ScanIds(Scanner& scanner, Field field, std::string_view text) {
  MatchSet matches;
  EXPECT_TRUE(scanner.Scan(field, text, matches).ok());
  return matches.ids();
}

TEST(ScannerTest, CaselessFlag) {
  RuleSet set;
  set.rules.push_back(MakeRule("exact", "memory leak", MaskOf(Field::kTitle)));
  set.rules.push_back(MakeRule("anycase", "memory leak", MaskOf(Field::kTitle), {"caseless"}));
  Scanner scanner(Compile(set));
  EXPECT_EQ(ScanIds(scanner, Field::kTitle, "Memory LEAK in fit()"), (std::vector<uint32_t>{1}));
  const auto both = ScanIds(scanner, Field::kTitle, "a memory leak");
  EXPECT_EQ(both.size(), 2u);
  MatchSet none;
  EXPECT_TRUE(scanner.Scan(Field::kTitle, "", none).ok());
  EXPECT_TRUE(none.empty());
  EXPECT_TRUE(ScanIds(scanner, Field::kTitle, "memory is fine").empty());
}

TEST(ScannerTest, MatchesInLabels) {
  RuleSet set;
  set.rules.push_back(MakeRule("label.perf", "^(performance|perf)$", MaskOf(Field::kLabel), {"caseless"}));
  set.rules.push_back(MakeRule("title.perf", "performance", MaskOf(Field::kTitle)));
  Scanner scanner(Compile(set));
  EXPECT_EQ(ScanIds(scanner, Field::kLabel, "Performance"), (std::vector<uint32_t>{0}));
  EXPECT_EQ(ScanIds(scanner, Field::kLabel, "perf"), (std::vector<uint32_t>{0}));
  // Each label is its own string: anchors apply to the whole label.
  EXPECT_TRUE(ScanIds(scanner, Field::kLabel, "type: performance").empty());
  EXPECT_TRUE(ScanIds(scanner, Field::kLabel, "performance-regression").empty());
  // The title rule does not apply to labels, the label rule not to titles.
  EXPECT_EQ(ScanIds(scanner, Field::kTitle, "performance"), (std::vector<uint32_t>{1}));
}

TEST(ScannerTest, MatchSetKeepsDistinctRulesInFirstMatchOrder) {
  RuleSet set;
  set.rules.push_back(MakeRule("a", "alpha", MaskOf(Field::kBody)));
  set.rules.push_back(MakeRule("b", "beta", MaskOf(Field::kBody)));
  set.rules.push_back(MakeRule("c", "gamma", MaskOf(Field::kBody)));
  Scanner scanner(Compile(set));
  MatchSet matches;
  ASSERT_TRUE(scanner.Scan(Field::kBody, "gamma alpha gamma alpha", matches).ok());
  ASSERT_TRUE(scanner.Scan(Field::kBody, "beta alpha", matches).ok());
  EXPECT_EQ(matches.ids(), (std::vector<uint32_t>{2, 0, 1}));
  EXPECT_TRUE(matches.Contains(0));
  EXPECT_TRUE(matches.Contains(1));
  EXPECT_TRUE(matches.Contains(2));
  EXPECT_FALSE(matches.Contains(3));
  matches.Clear();
  EXPECT_TRUE(matches.empty());
  EXPECT_FALSE(matches.Contains(2));
  ASSERT_TRUE(scanner.Scan(Field::kBody, "beta", matches).ok());
  EXPECT_EQ(matches.ids(), (std::vector<uint32_t>{1}));
}

TEST(ScannerTest, MatchSetBeyondOneWord) {
  MatchSet m;
  m.Add(200);
  m.Add(3);
  m.Add(200);
  m.Add(64);
  EXPECT_EQ(m.ids(), (std::vector<uint32_t>{200, 3, 64}));
  EXPECT_TRUE(m.Contains(64));
  EXPECT_FALSE(m.Contains(65));
  EXPECT_FALSE(m.Contains(100000));
}

TEST(ScannerTest, ExplainModeReportsSpans) {
  RuleSet set;
  set.rules.push_back(MakeRule("slow", "slow(er)?", MaskOf(Field::kBody), {"caseless"}));
  set.rules.push_back(MakeRule("nan", "\\bnan\\b", MaskOf(Field::kBody)));
  Scanner scanner(Compile(set, RuleDatabase::Mode::kExplain));
  std::vector<std::tuple<unsigned, size_t, size_t>> spans;
  const std::string text = "Slow start, nan loss, slower end";
  ASSERT_TRUE(scanner.ScanSpans(Field::kBody, text, [&](unsigned id, size_t from, size_t to) {
                       spans.emplace_back(id, from, to);
                     }).ok());
  // Hyperscan reports every end offset; each span must cover the text of its rule.
  ASSERT_FALSE(spans.empty());
  bool saw_nan = false;
  bool saw_slower = false;
  for (const auto& [id, from, to] : spans) {
    ASSERT_LE(from, to);
    ASSERT_LE(to, text.size());
    const std::string piece = text.substr(from, to - from);
    if (id == 1) {
      EXPECT_EQ(piece, "nan");
      EXPECT_EQ(from, 12u);
      saw_nan = true;
    } else {
      ASSERT_EQ(id, 0u);
      EXPECT_TRUE(piece == "Slow" || piece == "slow" || piece == "slower") << piece;
      saw_slower = saw_slower || piece == "slower";
    }
  }
  EXPECT_TRUE(saw_nan);
  EXPECT_TRUE(saw_slower);
}

TEST(ScannerTest, ScannersShareADatabase) {
  RuleSet set;
  set.rules.push_back(MakeRule("hang", "hangs?", MaskOf(Field::kComment)));
  auto db = Compile(set);
  Scanner first(db);
  Scanner second(db);
  EXPECT_EQ(ScanIds(first, Field::kComment, "it hangs"), (std::vector<uint32_t>{0}));
  EXPECT_EQ(ScanIds(second, Field::kComment, "it hangs"), (std::vector<uint32_t>{0}));
  EXPECT_EQ(&first.database(), &second.database());
}

}  // namespace
}  // namespace ghsift
