// Facets (stage, info, verdict) describe a report; only problem categories flag it.
#include <gtest/gtest.h>

#include "rules/decision.hpp"
#include "rules/rule_set.hpp"

namespace ghsift {
namespace {

const char* kRules = R"(
categories:
  performance: {threshold: 1.0}
  stage: {threshold: 1.0, facet: true}
rules:
  - id: perf.slow
    tag: performance/low-speed
    pattern: 'slow'
  - id: stage.train
    tag: stage/training
    pattern: 'train'
)";

DecisionModel ModelOf(const char* yaml) {
  RuleSet set;
  const Status s = ParseRuleYaml(yaml, "test.yaml", set);
  EXPECT_TRUE(s.ok()) << s.message();
  return DecisionModel::FromRuleSet(set);
}

TEST(FacetTest, RuleFileMarksFacets) {
  RuleSet set;
  ASSERT_TRUE(ParseRuleYaml(kRules, "test.yaml", set).ok());
  EXPECT_EQ(set.facets, (std::set<std::string>{"stage"}));
  const DecisionModel model = DecisionModel::FromRuleSet(set);
  EXPECT_TRUE(model.IsFacet("stage"));
  EXPECT_FALSE(model.IsFacet("performance"));
  const std::vector<std::string> flagged = model.Flagged({"perf.slow", "stage.train"});
  EXPECT_EQ(flagged, (std::vector<std::string>{"performance", "stage"}));
  EXPECT_EQ(model.Problems(flagged), (std::vector<std::string>{"performance"}));
  EXPECT_EQ(model.FacetsAmong(flagged), (std::vector<std::string>{"stage"}));
  EXPECT_TRUE(model.Problems(model.Flagged({"stage.train"})).empty());
}

TEST(FacetTest, SerializedModelKeepsTheMarks) {
  const DecisionModel model = ModelOf(kRules);
  const std::string text = model.Serialize();
  EXPECT_NE(text.find("facets\tstage\n"), std::string::npos) << text;
  auto parsed = DecisionModel::Parse(text);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, model);
}

TEST(FacetTest, ModelWithoutFacetLineReadsTheDefaultFacets) {
  // A store written before facet marks: no `facets` line. Its stage category is the default
  // set's facet; a user's category named otherwise stays a problem.
  auto legacy = DecisionModel::Parse(
      "rule\tperf.slow\tperformance/low-speed\t1000000\nrule\tstage.train\tstage/training\t1000000\n"
      "rule\tx.y\tcustom/y\t1000000\nthreshold\tcustom\t1000000\nthreshold\tperformance\t1000000\n"
      "threshold\tstage\t1000000\n");
  ASSERT_TRUE(legacy.ok());
  EXPECT_EQ(legacy->facets(), (std::set<std::string>{"stage"}));
  // An explicit empty list is kept as it is.
  auto none = DecisionModel::Parse("rule\tstage.train\tstage/training\t1000000\nthreshold\tstage\t1000000\nfacets\n");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->facets().empty());
}

TEST(FacetTest, MarksAloneDoNotChangeTheDecision) {
  const DecisionModel marked = ModelOf(kRules);
  RuleSet unmarked_set;
  ASSERT_TRUE(ParseRuleYaml(kRules, "test.yaml", unmarked_set).ok());
  unmarked_set.facets.clear();
  const DecisionModel unmarked = DecisionModel::FromRuleSet(unmarked_set);
  EXPECT_FALSE(marked == unmarked);
  EXPECT_TRUE(marked.DecidesLike(unmarked));
  unmarked_set.thresholds["stage"] = 2.0;
  EXPECT_FALSE(marked.DecidesLike(DecisionModel::FromRuleSet(unmarked_set)));
}

TEST(FacetTest, DefaultRulesMarkStageInfoAndVerdict) {
  auto set = LoadRuleSet(std::string(GHSIFT_SOURCE_DIR) + "/rules");
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ(set->facets, (std::set<std::string>{"info", "stage", "verdict"}));
  EXPECT_EQ(set->verdict, "verdict");
  const DecisionModel model = DecisionModel::FromRuleSet(*set);
  std::vector<std::string> problems;
  for (const std::string& c : model.categories()) {
    if (!model.IsFacet(c)) problems.push_back(c);
  }
  EXPECT_EQ(problems, (std::vector<std::string>{"accuracy", "performance", "silent"}));
}

}  // namespace
}  // namespace ghsift
