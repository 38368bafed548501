#include "rules/decision.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "json/markdown_splitter.hpp"
#include "rules/rule_database.hpp"
#include "rules/scanner.hpp"

namespace ghsift {
namespace {

using Ids = std::vector<std::string>;

Rule MakeRule(std::string id, std::string tag, double weight) {
  Rule r;
  r.id = std::move(id);
  r.tag = std::move(tag);
  r.category = r.tag.substr(0, r.tag.find('/'));
  r.pattern = "x";
  r.weight = weight;
  r.source = "test.yaml";
  return r;
}

DecisionModel Model(std::vector<Rule> rules, std::map<std::string, double> thresholds = {}) {
  RuleSet set;
  set.rules = std::move(rules);
  set.thresholds = std::move(thresholds);
  return DecisionModel::FromRuleSet(set);
}

TEST(DecisionTest, ToMicro) {
  EXPECT_EQ(ToMicro(1.0), 1000000);
  EXPECT_EQ(ToMicro(0.1), 100000);
  EXPECT_EQ(ToMicro(-0.75), -750000);
  EXPECT_EQ(ToMicro(0.0000004), 0);
}

TEST(DecisionTest, TwoHalvesReachTheThreshold) {
  const DecisionModel m = Model({MakeRule("a", "perf/x", 0.5), MakeRule("b", "perf/y", 0.5)});
  EXPECT_EQ(m.Flagged({"a"}), Ids{});
  EXPECT_EQ(m.Flagged({"a", "b"}), Ids{"perf"});
  const auto scores = m.Score({"a", "b"});
  ASSERT_EQ(scores.size(), 1u);
  EXPECT_EQ(scores[0].category, "perf");
  EXPECT_EQ(scores[0].score, 1.0);
  EXPECT_EQ(scores[0].threshold, 1.0);
  EXPECT_TRUE(scores[0].flagged);
}

TEST(DecisionTest, QuartersAndTenthsSumExactly) {
  const DecisionModel quarters = Model({MakeRule("q1", "p", 0.25), MakeRule("q2", "p", 0.25),
                                        MakeRule("q3", "p", 0.25), MakeRule("q4", "p", 0.25)});
  EXPECT_EQ(quarters.Flagged({"q1", "q2", "q3"}), Ids{});
  EXPECT_EQ(quarters.Flagged({"q1", "q2", "q3", "q4"}), Ids{"p"});
  EXPECT_EQ(quarters.Score({"q4", "q3", "q2", "q1"})[0].score, 1.0);

  // 0.1 summed ten times is 0.9999999999999999 in floating point; the decision must not care.
  std::vector<Rule> tenths;
  Ids all;
  for (int i = 0; i < 10; ++i) {
    tenths.push_back(MakeRule("t" + std::to_string(i), "p", 0.1));
    all.push_back("t" + std::to_string(i));
  }
  const DecisionModel m = Model(tenths);
  EXPECT_EQ(m.Flagged(all), Ids{"p"});
  all.pop_back();
  EXPECT_EQ(m.Flagged(all), Ids{});
}

TEST(DecisionTest, NegativeWeights) {
  const DecisionModel m = Model({MakeRule("strong", "perf", 1.0), MakeRule("strong2", "perf", 1.0),
                                 MakeRule("question", "perf/not-a-bug", -1.0), MakeRule("weak", "perf", 0.5)});
  EXPECT_EQ(m.Flagged({"strong"}), Ids{"perf"});
  EXPECT_EQ(m.Flagged({"strong", "question"}), Ids{});
  EXPECT_EQ(m.Flagged({"strong", "strong2", "question"}), Ids{"perf"});
  EXPECT_EQ(m.Flagged({"question"}), Ids{});
  const auto scores = m.Score({"question", "weak"});
  ASSERT_EQ(scores.size(), 1u);
  EXPECT_EQ(scores[0].score, -0.5);
  EXPECT_FALSE(scores[0].flagged);
}

TEST(DecisionTest, RepeatedIdsCountOnce) {
  const DecisionModel m = Model({MakeRule("a", "perf", 0.5), MakeRule("b", "perf", 0.5)});
  EXPECT_EQ(m.Flagged({"a", "a"}), Ids{});
  EXPECT_EQ(m.Score({"a", "a", "a"})[0].score, 0.5);
  EXPECT_EQ(m.Flagged({"b", "a", "b"}), Ids{"perf"});
}

TEST(DecisionTest, UnknownIdsAreIgnored) {
  const DecisionModel m = Model({MakeRule("a", "perf", 0.5)});
  EXPECT_EQ(m.Flagged({"a", "zzz", "unknown"}), Ids{});
  EXPECT_EQ(m.Score({"zzz"})[0].score, 0.0);
}

TEST(DecisionTest, CategoriesWithoutAMatchAreNeverFlagged) {
  const DecisionModel m = Model({MakeRule("p", "perf", 1.0), MakeRule("z", "zero", 0.5), MakeRule("n", "neg", 0.5)},
                                {{"zero", 0.0}, {"neg", -2.0}});
  // No rule of "zero" or "neg" matched: not flagged, even though 0 >= 0 and 0 >= -2.
  EXPECT_EQ(m.Flagged({}), Ids{});
  EXPECT_EQ(m.Flagged({"p"}), Ids{"perf"});
  EXPECT_EQ(m.Flagged({"p", "z"}), (Ids{"perf", "zero"}));
  EXPECT_EQ(m.Flagged({"n"}), Ids{"neg"});
}

TEST(DecisionTest, ThresholdsPerCategory) {
  const DecisionModel m = Model({MakeRule("a", "acc/x", 1.0), MakeRule("b", "acc/y", 1.0), MakeRule("c", "sil", 0.25)},
                                {{"acc", 2.0}, {"sil", 0.25}});
  EXPECT_EQ(m.Flagged({"a"}), Ids{});
  EXPECT_EQ(m.Flagged({"a", "b"}), Ids{"acc"});
  EXPECT_EQ(m.Flagged({"c"}), Ids{"sil"});
  const auto scores = m.Score({"a", "c"});
  ASSERT_EQ(scores.size(), 2u);
  EXPECT_EQ(scores[0].category, "acc");
  EXPECT_EQ(scores[0].score, 1.0);
  EXPECT_EQ(scores[0].threshold, 2.0);
  EXPECT_FALSE(scores[0].flagged);
  EXPECT_EQ(scores[1].category, "sil");
  EXPECT_EQ(scores[1].score, 0.25);
  EXPECT_EQ(scores[1].threshold, 0.25);
  EXPECT_TRUE(scores[1].flagged);
}

TEST(DecisionTest, FlaggedIsSortedAndScoresCoverEveryCategory) {
  const DecisionModel m = Model({MakeRule("z1", "zeta", 1.0), MakeRule("a1", "alpha", 1.0), MakeRule("m1", "mid", 1.0)});
  EXPECT_EQ(m.Flagged({"z1", "a1"}), (Ids{"alpha", "zeta"}));
  const auto scores = m.Score({});
  ASSERT_EQ(scores.size(), 3u);
  EXPECT_EQ(scores[0].category, "alpha");
  EXPECT_EQ(scores[1].category, "mid");
  EXPECT_EQ(scores[2].category, "zeta");
}

// Flagged sums into arrays; Score into maps. On the default rules, for random sets of ids (in
// any order, with repeats and unknown ids), both decide alike, and a parsed model does too.
TEST(DecisionTest, FlaggedAgreesWithScoreOnTheDefaultRules) {
  auto set = LoadRuleSet(std::string(GHSIFT_SOURCE_DIR) + "/rules");
  ASSERT_TRUE(set.ok()) << set.status().message();
  const DecisionModel model = DecisionModel::FromRuleSet(*set);
  auto parsed = DecisionModel::Parse(model.Serialize());
  ASSERT_TRUE(parsed.ok());
  Ids all;
  for (const Rule& r : set->rules) all.push_back(r.id);
  all.push_back("no.such.rule");
  uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<size_t>(state >> 33);
  };
  size_t flagged_some = 0;
  for (int round = 0; round < 2000; ++round) {
    Ids ids;
    const size_t n = next() % 12;
    for (size_t i = 0; i < n; ++i) ids.push_back(all[next() % all.size()]);
    Ids expected;
    for (const CategoryScore& s : model.Score(ids)) {
      if (s.flagged) expected.push_back(s.category);
    }
    EXPECT_EQ(model.Flagged(ids), expected);
    EXPECT_EQ(parsed->Flagged(ids), expected);
    flagged_some += !expected.empty();
  }
  EXPECT_GT(flagged_some, 100u);  // the rounds exercise flagging, not only its absence
}

TEST(DecisionTest, CategoryAndTagOf) {
  const DecisionModel m = Model({MakeRule("a", "performance/memory", 1.0)});
  EXPECT_EQ(m.CategoryOf("a"), "performance");
  EXPECT_EQ(m.TagOf("a"), "performance/memory");
  EXPECT_EQ(m.CategoryOf("b"), "");
  EXPECT_EQ(m.TagOf("b"), "");
  EXPECT_FALSE(m.empty());
  EXPECT_TRUE(DecisionModel().empty());
}

TEST(DecisionTest, SerializeParseRoundTrip) {
  const DecisionModel m = Model({MakeRule("perf.a", "performance/low-speed", 0.75),
                                 MakeRule("perf.neg", "performance/not-a-bug", -1.0),
                                 MakeRule("acc.a", "accuracy", 1.0), MakeRule("tiny", "info/x", 0.000001)},
                                {{"accuracy", 2.5}});
  const std::string text = m.Serialize();
  auto parsed = DecisionModel::Parse(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_TRUE(*parsed == m);
  EXPECT_EQ(parsed->Serialize(), text);
  EXPECT_EQ(parsed->CategoryOf("perf.neg"), "performance");
  EXPECT_EQ(parsed->TagOf("perf.neg"), "performance/not-a-bug");
  EXPECT_EQ(parsed->Flagged({"perf.a"}), Ids{});
  EXPECT_EQ(parsed->Flagged({"acc.a"}), Ids{});
  const auto scores = parsed->Score({"tiny"});
  ASSERT_EQ(scores.size(), 3u);
  EXPECT_EQ(scores[1].category, "info");
  EXPECT_EQ(scores[1].score, 0.000001);
}

TEST(DecisionTest, ParseOfEmptyAndDamagedText) {
  auto empty = DecisionModel::Parse("");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  auto damaged = DecisionModel::Parse("rule\ta\tp\t1000000\nbogus line\n");
  ASSERT_FALSE(damaged.ok());
  EXPECT_EQ(damaged.status().code(), StatusCode::kStoreError);
  EXPECT_NE(damaged.status().message().find("bogus line"), std::string::npos);
}

TEST(DecisionTest, DefaultRuleSetDecides) {
  auto set = LoadRuleSet(std::string(GHSIFT_SOURCE_DIR) + "/rules");
  ASSERT_TRUE(set.ok()) << set.status().message();
  auto db = RuleDatabase::Compile(*set);
  ASSERT_TRUE(db.ok()) << db.status().message();
  for (Field f : {Field::kTitle, Field::kBody, Field::kCode, Field::kComment, Field::kLabel}) {
    EXPECT_NE((*db)->database(f), nullptr) << FieldName(f);
  }
  const DecisionModel model = DecisionModel::FromRuleSet(*set);
  auto round = DecisionModel::Parse(model.Serialize());
  ASSERT_TRUE(round.ok());
  EXPECT_TRUE(*round == model);

  Scanner scanner(*db);
  auto flag = [&](std::string_view title, std::string_view body, std::string_view category = "performance") {
    MatchSet matches;
    std::string prose, code;
    SplitMarkdown(body, prose, code);
    EXPECT_TRUE(scanner.Scan(Field::kTitle, title, matches).ok());
    EXPECT_TRUE(scanner.Scan(Field::kBody, prose, matches).ok());
    EXPECT_TRUE(scanner.Scan(Field::kCode, code, matches).ok());
    Ids ids;
    for (uint32_t id : matches.ids()) ids.push_back(set->rules[id].id);
    const Ids flagged = model.Flagged(ids);
    return std::find(flagged.begin(), flagged.end(), category) != flagged.end();
  };
  // README: "memory leak" and "very slow" are strong phrases, enough on their own.
  EXPECT_TRUE(flag("Memory leak when calling predict in a loop", ""));
  EXPECT_TRUE(flag("Model update", "Since 2.3 the training is very slow on GPU."));
  EXPECT_FALSE(flag("Update the README", "Fix a typo in the install section."));
  // A fix that names no symptom is taken for the one left when crash, hang, build failure and
  // poor performance are not named: wrong behaviour (rules/silent.yaml, sil.fix.unnamed-symptom).
  EXPECT_TRUE(flag("Fix Conv2D with dilation and same padding", "", "silent"));
  EXPECT_TRUE(flag("[Relay] fix dense_pack for odd sizes", "", "silent"));
  EXPECT_TRUE(flag("Small bugfix in the scheduler", "", "silent"));
  EXPECT_FALSE(flag("Fix crash in Conv2D with dilation", "", "silent"));
  EXPECT_FALSE(flag("Fix typo in the Conv2D docstring", "", "silent"));
  EXPECT_FALSE(flag("Fix flakiness of the Conv2D test", "", "silent"));
  EXPECT_FALSE(flag("core: fix SNIMissingWarning", "", "silent"));
  EXPECT_FALSE(flag("Conv2D with dilation is still not fixed in 2.1", "", "silent"));
}

}  // namespace
}  // namespace ghsift

namespace ghsift {
namespace {

//! A verdict category as rules/verdict.yaml writes it: not-a-bug evidence by kind, bug evidence
//! negative, threshold 1.
DecisionModel VerdictModel() {
  RuleSet set;
  const char* yaml =
      "categories:\n"
      "  verdict: {threshold: 1.0, verdict: true}\n"
      "rules:\n"
      "  - {id: v.howto, tag: verdict/question, pattern: '^how', weight: 1.5}\n"
      "  - {id: v.qtag, tag: verdict/question, pattern: 'question', weight: 0.5}\n"
      "  - {id: v.feature, tag: verdict/feature, pattern: '^add', weight: 0.75}\n"
      "  - {id: v.crash, tag: verdict/crash, pattern: 'crash', weight: 1.5}\n"
      "  - {id: v.bug, tag: verdict/bug, pattern: 'bug', fields: [label], weight: -1.0}\n"
      "  - {id: p.slow, tag: performance/low-speed, pattern: 'slow'}\n";
  EXPECT_TRUE(ParseRuleYaml(yaml, "verdict.yaml", set).ok());
  EXPECT_EQ(set.verdict, "verdict");
  EXPECT_TRUE(set.facets.count("verdict"));
  return DecisionModel::FromRuleSet(set);
}

TEST(DecisionVerdictTest, BugUnlessTheEvidenceReachesTheThreshold) {
  const DecisionModel m = VerdictModel();
  EXPECT_EQ(m.Verdict({}), "bug");
  EXPECT_EQ(m.Verdict({"p.slow"}), "bug");
  EXPECT_EQ(m.Verdict({"v.qtag"}), "bug");               // 0.5: weak, needs company
  EXPECT_EQ(m.Verdict({"v.qtag", "v.feature"}), "feature");  // 1.25; the kind with the most weight
  EXPECT_EQ(m.Verdict({"v.howto"}), "question");
  EXPECT_EQ(m.Verdict({"v.howto", "v.bug"}), "bug");      // 0.5: a maintainer's bug label wins
  EXPECT_EQ(m.Verdict({"v.howto", "v.crash", "v.bug"}), "crash");  // 2.0; a tie goes to the first name
  // The verdict is a facet: it never makes a report a problem report.
  EXPECT_EQ(m.Problems(m.Flagged({"v.howto", "p.slow"})), Ids{"performance"});
  EXPECT_EQ(m.VerdictValues(), (Ids{"bug", "crash", "feature", "question"}));
}

TEST(DecisionVerdictTest, SurvivesTheStoreAndOldStoresAnswerFromLabelFacets) {
  const DecisionModel m = VerdictModel();
  auto parsed = DecisionModel::Parse(m.Serialize());
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->verdict_category(), "verdict");
  EXPECT_EQ(parsed->Verdict({"v.howto"}), "question");
  EXPECT_TRUE(parsed->DecidesLike(m));
  // A model stored before verdict rules: the maintainers' label facets decide, as they did.
  const std::string old_model =
      "rule\tvb\tverdict-bug/label\t1000000\n"
      "rule\tvn\tverdict-not-a-bug/label\t1000000\n"
      "threshold\tverdict-bug\t1000000\n"
      "threshold\tverdict-not-a-bug\t1000000\n"
      "facets\tverdict-bug\tverdict-not-a-bug\n";
  auto old = DecisionModel::Parse(old_model);
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(old->Verdict({}), "unclassified");
  EXPECT_EQ(old->Verdict({"vb"}), "bug");
  EXPECT_EQ(old->Verdict({"vb", "vn"}), "not_a_bug");
}

TEST(DecisionVerdictTest, OneVerdictPerRuleSetAndKnownKeysOnly) {
  RuleSet set;
  const Status two = ParseRuleYaml(
      "categories:\n  a: {threshold: 1, verdict: true}\n  b: {threshold: 1, verdict: true}\n"
      "rules:\n  - {id: x, tag: a/q, pattern: x}\n  - {id: y, tag: b/q, pattern: y}\n",
      "two.yaml", set);
  ASSERT_FALSE(two.ok());
  EXPECT_NE(two.message().find("one verdict per rule set"), std::string::npos) << two.message();
  RuleSet other;
  const Status typo =
      ParseRuleYaml("categories:\n  a: {threshold: 1, verdit: true}\nrules:\n  - {id: x, tag: a/q, pattern: x}\n",
                    "typo.yaml", other);
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.message().find("unknown key 'verdit' (did you mean verdict?)"), std::string::npos)
      << typo.message();
}

}  // namespace
}  // namespace ghsift
