// The per-rule layout (rules check/eval/explain) finds exactly the matches of the combined one
// (ingest), and MatchStartFinder gives rules without start offsets their real start.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "eval/evaluation.hpp"
#include "eval/labeled_report.hpp"
#include "rules/match_start.hpp"
#include "rules/report_scan.hpp"
#include "rules/rule_database.hpp"
#include "rules/scanner.hpp"

namespace ghsift {
namespace {

std::string Source(const std::string& path) { return std::string(GHSIFT_SOURCE_DIR) + "/" + path; }

LabeledReport Report(std::string title, std::string body, std::vector<std::string> comments = {}) {
  LabeledReport r;
  r.id = title;
  r.text.Add(Field::kTitle, title);
  r.text.Add(Field::kBody, body);
  r.text[Field::kComment] = std::move(comments);
  return r;
}

std::vector<std::vector<std::string>> MatchedIds(const RuleSet& rules, RuleDatabase::Layout layout,
                                                 const std::vector<LabeledReport>& reports) {
  auto db = RuleDatabase::Compile(rules, RuleDatabase::Mode::kFlag, layout);
  EXPECT_TRUE(db.ok()) << db.status().message();
  std::vector<std::vector<std::string>> out;
  for (const ReportVerdict& v : JudgeReports(*db, reports)) out.push_back(v.rules);
  return out;
}

TEST(RuleDatabaseLayoutTest, PerRuleAndCombinedMatchTheSameOnTheDefaultSet) {
  auto rules = LoadRuleSet(Source("rules"));
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  std::vector<LabeledReport> reports = {
      Report("Training is 10x slower after upgrade", "GPU memory leak, NaN loss\n```\nx = model.cuda()\n```"),
      Report("How to install on Windows?", "Traceback (most recent call last):\n  ValueError: bad"),
      Report("[Feature request] add an option", "it would be nice to have this", {"accuracy dropped to 10%"}),
      Report("Wrong output shape of conv layer", "Expected behavior: (1, 3). Current output is (3, 1) instead of it"),
      Report("", ""),
  };
  // Real reports too, when the labeled data is there: the per-rule path must agree on all of them.
  const std::string caffe = Source("../shared/data/labeled/mhnurf/caffe.csv");
  if (std::filesystem::exists(caffe)) {
    auto labeled = ReadLabeledReports(caffe, {});
    ASSERT_TRUE(labeled.ok()) << labeled.status().message();
    for (auto& r : *labeled) reports.push_back(std::move(r));
  }
  const auto combined = MatchedIds(*rules, RuleDatabase::Layout::kCombined, reports);
  const auto per_rule = MatchedIds(*rules, RuleDatabase::Layout::kPerRule, reports);
  ASSERT_EQ(combined.size(), reports.size());
  EXPECT_EQ(combined, per_rule);
  EXPECT_EQ(combined[0].empty(), false);
  size_t matched = 0;
  for (const auto& ids : combined) matched += !ids.empty();
  EXPECT_GE(matched, 4u);
}

TEST(RuleDatabaseLayoutTest, PerRuleDatabasesAreSharedAcrossFields) {
  auto rules = LoadRuleSet(Source("tests/data/explain_rules.yaml"));
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  auto db = RuleDatabase::Compile(*rules, RuleDatabase::Mode::kFlag, RuleDatabase::Layout::kPerRule);
  ASSERT_TRUE(db.ok()) << db.status().message();
  // t.instead and t.slow apply to title and body, t.how to the title, t.code to code.
  EXPECT_EQ((*db)->pieces(Field::kTitle).size(), 3u);
  EXPECT_EQ((*db)->pieces(Field::kBody).size(), 2u);
  EXPECT_EQ((*db)->pieces(Field::kCode).size(), 1u);
  EXPECT_EQ((*db)->pieces(Field::kComment).size(), 0u);
  EXPECT_EQ((*db)->pieces(Field::kTitle)[0].db, (*db)->pieces(Field::kBody)[0].db);
  EXPECT_EQ((*db)->pieces(Field::kCode)[0].rule_of, std::vector<uint32_t>{1});
}

TEST(RuleDatabaseLayoutTest, TitleAndBodyShareOneDatabaseAndKeepTheirOwnRules) {
  auto rules = LoadRuleSet(Source("tests/data/explain_rules.yaml"));
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  auto db = RuleDatabase::Compile(*rules, RuleDatabase::Mode::kFlag, RuleDatabase::Layout::kCombined);
  ASSERT_TRUE(db.ok()) << db.status().message();
  // Title {t.instead, t.slow, t.how} and body {t.instead, t.slow} share 2 of 3 rules: one
  // database; code {t.code} shares none with them: its own.
  ASSERT_EQ((*db)->pieces(Field::kTitle).size(), 1u);
  ASSERT_EQ((*db)->pieces(Field::kBody).size(), 1u);
  ASSERT_EQ((*db)->pieces(Field::kCode).size(), 1u);
  EXPECT_EQ((*db)->pieces(Field::kTitle)[0].db, (*db)->pieces(Field::kBody)[0].db);
  EXPECT_NE((*db)->pieces(Field::kCode)[0].db, (*db)->pieces(Field::kBody)[0].db);
  EXPECT_EQ((*db)->pieces(Field::kTitle)[0].fields_of, nullptr);  // every rule applies to titles
  EXPECT_NE((*db)->pieces(Field::kBody)[0].fields_of, nullptr);   // t.how does not to bodies
  // t.how matches a title that starts with "how", never a body that does.
  Scanner scanner(*db);
  auto ids = [&](Field field, const std::string& text) {
    MatchSet matches;
    EXPECT_TRUE(scanner.Scan(field, text, matches).ok());
    std::vector<std::string> out;
    for (uint32_t id : matches.ids()) out.push_back(rules->rules[id].id);
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(ids(Field::kTitle, "How is this much slower"), (std::vector<std::string>{"t.how", "t.slow"}));
  EXPECT_EQ(ids(Field::kBody, "How is this much slower"), (std::vector<std::string>{"t.slow"}));
  EXPECT_EQ(ids(Field::kBody, "how so"), (std::vector<std::string>{}));
}

TEST(RuleDatabaseLayoutTest, StartFinderGivesTheStartHyperscanCannot) {
  auto rules = LoadRuleSet(Source("tests/data/explain_rules.yaml"));
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  auto db = RuleDatabase::Compile(*rules, RuleDatabase::Mode::kExplain, RuleDatabase::Layout::kPerRule);
  ASSERT_TRUE(db.ok()) << db.status().message();
  ASSERT_EQ(rules->rules[0].id, "t.instead");
  EXPECT_FALSE((*db)->ReportsStart(0));  // the long gaps: Hyperscan refuses start offsets
  EXPECT_TRUE((*db)->ReportsStart(2));
  auto finder = MatchStartFinder::Compile(rules->rules[0]);
  ASSERT_TRUE(finder.ok()) << finder.status().message();
  const std::string text = "takes 5 s instead of 5 ms";
  EXPECT_EQ((*finder)->StartOf(text, 20), 10u);  // "instead of", not just "of"
  const std::string gap = "x\nthe current output is 3\nnext";
  EXPECT_EQ((*finder)->StartOf(gap, gap.size()), 6u);  // "current output is 3\nnext"
  EXPECT_EQ((*finder)->StartOf(text, 5), 5u);  // no match ends there
}

}  // namespace
}  // namespace ghsift
