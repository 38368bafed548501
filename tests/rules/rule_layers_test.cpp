// Layered rule sets: later --rules layers add rules and override rules, weights and thresholds
// by id; negative rules may name several categories.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/short_digest.hpp"
#include "json/markdown_splitter.hpp"
#include "rules/decision.hpp"
#include "rules/rule_database.hpp"
#include "rules/rule_set.hpp"
#include "rules/scanner.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;

std::string Data(const std::string& name) { return std::string(GHSIFT_SOURCE_DIR) + "/tests/data/layers/" + name; }

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

const Rule* Find(const RuleSet& set, const std::string& id) {
  for (const Rule& r : set.rules) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

class RuleLayersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::path(::testing::TempDir()) / "ghsift-layers-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = (fs::path(dir_) / name).string();
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream out(path, std::ios::binary);
    out << text;
    return path;
  }
  std::string dir_;
};

TEST_F(RuleLayersTest, OverlayChangesOnlyWeightsAndThresholds) {
  auto set = LoadRuleLayers({Data("base.yaml"), Data("overlay.yaml")});
  ASSERT_TRUE(set.ok()) << set.status().message();
  ASSERT_EQ(set->rules.size(), 5u);
  const Rule* slow = Find(*set, "p.slow");
  ASSERT_NE(slow, nullptr);
  EXPECT_EQ(slow->weight, 0.75);
  EXPECT_EQ(slow->pattern, "\\bslow\\b");
  EXPECT_EQ(slow->tag, "performance/low-speed");
  EXPECT_EQ(slow->flags, std::vector<std::string>{"caseless"});
  EXPECT_EQ(slow->fields, MaskOf(Field::kTitle) | MaskOf(Field::kBody));
  EXPECT_EQ(slow->source, Data("base.yaml"));  // where the pattern is, for compile errors
  EXPECT_EQ(Find(*set, "nab.question")->weight, -0.5);
  EXPECT_EQ(Find(*set, "nab.question")->ScoredCategories(),
            (std::vector<std::string>{"performance", "accuracy", "silent"}));
  EXPECT_EQ(Find(*set, "p.leak")->weight, 1.0);
  EXPECT_EQ(set->ThresholdOf("performance"), 1.25);
  EXPECT_EQ(set->ThresholdOf("accuracy"), 0.5);
  EXPECT_EQ(set->ThresholdOf("silent"), 1.0);
  // Rules keep their order (their Hyperscan ids).
  EXPECT_EQ(set->rules[0].id, "p.slow");
  EXPECT_EQ(set->rules[4].id, "nab.question");
}

TEST_F(RuleLayersTest, LaterLayerReplacesRemovesAndAdds) {
  auto set = LoadRuleLayers({Data("base.yaml"), Data("edits.yaml")});
  ASSERT_TRUE(set.ok()) << set.status().message();
  std::vector<std::string> ids;
  for (const Rule& r : set->rules) ids.push_back(r.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"p.slow", "p.leak", "a.nan", "nab.question", "p.hang"}));
  const Rule* leak = Find(*set, "p.leak");
  EXPECT_EQ(leak->pattern, "\\bleaks?\\b");
  EXPECT_EQ(leak->fields, MaskOf(Field::kTitle));  // replaced whole: nothing of the old rule is kept
  EXPECT_EQ(leak->source, Data("edits.yaml"));
  EXPECT_EQ(leak->line, 3);
  EXPECT_EQ(Find(*set, "s.quiet"), nullptr);
  EXPECT_EQ(set->Categories(), (std::vector<std::string>{"accuracy", "performance", "silent"}));
}

TEST_F(RuleLayersTest, OverrideOfFieldsFlagsTagAndCategories) {
  const std::string overlay = Write("o.yaml",
                                    "rules:\n"
                                    "  - {id: p.slow, fields: [title], flags: [], tag: performance/hang}\n"
                                    "  - {id: nab.question, categories: [performance, silent]}\n"
                                    "  - {id: a.nan, categories: [accuracy, silent]}\n");
  auto set = LoadRuleLayers({Data("base.yaml"), overlay});
  ASSERT_TRUE(set.ok()) << set.status().message();
  const Rule* slow = Find(*set, "p.slow");
  EXPECT_EQ(slow->fields, MaskOf(Field::kTitle));
  EXPECT_TRUE(slow->flags.empty());
  EXPECT_EQ(slow->tag, "performance/hang");
  EXPECT_EQ(slow->pattern, "\\bslow\\b");
  const Rule* nab = Find(*set, "nab.question");
  EXPECT_EQ(nab->ScoredCategories(), (std::vector<std::string>{"performance", "silent"}));
  EXPECT_EQ(nab->tag, "performance/not-a-bug");
  const Rule* nan = Find(*set, "a.nan");
  EXPECT_EQ(nan->ScoredCategories(), (std::vector<std::string>{"accuracy", "silent"}));
  EXPECT_EQ(nan->tag, "accuracy/nan-inf");
}

TEST_F(RuleLayersTest, OverrideOfAnUnknownIdNamesFileAndId) {
  const std::string overlay = Write("o.yaml", "rules:\n  - {id: p.slow, weight: 0.5}\n  - {id: p.typo, weight: 0.5}\n");
  auto set = LoadRuleLayers({Data("base.yaml"), overlay});
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(set.status().message(), overlay +
                                        ": rule 'p.typo' (line 3): missing 'pattern' (an entry without one overrides a rule of "
                                        "an earlier --rules layer, and none defines 'p.typo')");
  // An overlay alone has nothing to override: said once, as the overlay it is (OverlayAlone).
  auto alone = LoadRuleLayers({Data("overlay.yaml")});
  ASSERT_FALSE(alone.ok());
  EXPECT_TRUE(Contains(alone.status().message(), "overlay.yaml holds no categories")) << alone.status().message();
  // Disabling a rule no layer defines is the same mistake.
  const std::string disable = Write("d.yaml", "rules:\n  - {id: p.nothing, enabled: false}\n");
  auto disabled = LoadRuleLayers({Data("base.yaml"), disable});
  ASSERT_FALSE(disabled.ok());
  EXPECT_TRUE(Contains(disabled.status().message(), disable + ": rule 'p.nothing'")) << disabled.status().message();
}

// An overlay given as the only layer (no `base: default`) is told apart from a broken rule file by
// what it holds: overrides of rules or thresholds it does not define. One line says so and gives
// the command line that works, where each entry used to fail alone ("missing 'pattern'") or a
// threshold named an empty list ("which no rule has; the categories: ").
TEST_F(RuleLayersTest, OverlayAloneSaysToGiveTheBaseFirst) {
  const std::string fix = ": an overlay is layered on a rule set, give the base first: --rules " +
                          DefaultRulesPath() + " --rules ";
  const std::string thresholds = Write("thresholds.yaml", "categories:\n  performance: {threshold: 1.5}\n");
  auto only_thresholds = LoadRuleLayers({thresholds});
  ASSERT_FALSE(only_thresholds.ok());
  EXPECT_EQ(only_thresholds.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(only_thresholds.status().message(),
            "--rules " + thresholds + " holds no categories" + fix + thresholds + " (or begin it with 'base: default')");
  // `rules tune --write`'s kind: weights and thresholds.
  auto tuned = LoadRuleLayers({Data("overlay.yaml")});
  ASSERT_FALSE(tuned.ok());
  EXPECT_EQ(tuned.status().message(), "--rules " + Data("overlay.yaml") + " holds no categories" + fix +
                                          Data("overlay.yaml") + " (or begin it with 'base: default')");
  // `rules learn --write`'s kind: rules of its own, and overrides of rules and thresholds it does not define.
  const std::string learned =
      Write("learned.yaml", "categories:\n  performance: {threshold: 1.25}\n  accuracy: {threshold: 0.5}\nrules:\n"
                            "  - {id: learned.performance.sluggish, tag: performance/learned, pattern: sluggish}\n"
                            "  - {id: p.slow, weight: 0.5}\n");
  auto with_rules = LoadRuleLayers({learned});
  ASSERT_FALSE(with_rules.ok());
  EXPECT_EQ(with_rules.status().message(), "--rules " + learned + " overrides what it does not define (rules p.slow; "
                                           "thresholds of accuracy)" + fix + learned +
                                           " (or begin it with 'base: default')");
  // On its base it loads; a complete rule file alone loads as before.
  ASSERT_TRUE(LoadRuleLayers({Data("base.yaml"), learned}).ok());
  ASSERT_TRUE(LoadRuleLayers({Data("base.yaml")}).ok());
}

// A rule file with a mistake of its own is no overlay: a misspelt `patern` (which leaves the
// entry without a pattern) or a bad id is named with its line, not taken for an overlay given
// without its base; nor is a file whose tags and thresholds name different categories.
TEST_F(RuleLayersTest, ARuleFilesOwnMistakeIsNotTakenForAnOverlay) {
  const std::string misspelt =
      Write("misspelt.yaml", "categories:\n  perf: {threshold: 1}\nrules:\n  - id: a\n    tag: perf\n    patern: slow\n");
  auto typo = LoadRuleLayers({misspelt});
  ASSERT_FALSE(typo.ok());
  EXPECT_EQ(typo.status().message(),
            misspelt + ": rule 'a' (line 4): unknown key 'patern' (line 6); did you mean pattern? The keys: categories, "
                       "description, enabled, fields, flags, id, pattern, tag, weight, written_from");
  const std::string bad_id =
      Write("bad_id.yaml", "categories:\n  perf: {threshold: 1}\nrules:\n  - id: \"A b\"\n    tag: perf\n    pattern: slow\n");
  auto id = LoadRuleLayers({bad_id});
  ASSERT_FALSE(id.ok());
  EXPECT_EQ(id.status().message(), bad_id + ": rule 'A b' (line 4): id must match [a-z0-9._-]+");
  // Every entry a whole rule, its threshold under another name than its tags: the names disagree.
  const std::string mismatch = Write("mismatch.yaml", "categories:\n  perf: {threshold: 1}\nrules:\n"
                                                      "  - {id: a, tag: performance/low-speed, pattern: slow}\n");
  auto names = LoadRuleLayers({mismatch});
  ASSERT_FALSE(names.ok());
  EXPECT_EQ(names.status().message(), mismatch + ": threshold for category 'perf', which no rule has (did you mean "
                                                 "performance?); the categories: performance");
}

TEST_F(RuleLayersTest, SameIdTwiceInOneLayerNamesBothPlaces) {
  const std::string a = Write("layer/a.yaml", "rules:\n  - {id: x, tag: t, pattern: a}\n");
  const std::string b = Write("layer/b.yaml", "rules:\n  - {id: y, tag: t, pattern: b}\n  - {id: x, weight: 2}\n");
  auto set = LoadRuleLayers({dir_ + "/layer"});
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.status().message(),
            b + ": rule 'x' (line 3): duplicate id in one layer (rule #2; first defined in " + a + ": rule #1 (line 2))");
  // The same two files as two layers: the second overrides the first.
  auto layered = LoadRuleLayers({a, b});
  ASSERT_TRUE(layered.ok()) << layered.status().message();
  EXPECT_EQ(Find(*layered, "x")->weight, 2.0);
  EXPECT_EQ(Find(*layered, "x")->pattern, "a");
}

TEST_F(RuleLayersTest, ThresholdTwiceInOneLayerIsRefusedButLaterLayersOverride) {
  const std::string a = Write("a.yaml", "categories:\n  t: {threshold: 2}\nrules:\n  - {id: x, tag: t, pattern: a}\n");
  const std::string b = Write("b.yaml", "categories:\n  t: {threshold: 3}\n");
  auto layered = LoadRuleLayers({a, b});
  ASSERT_TRUE(layered.ok()) << layered.status().message();
  EXPECT_EQ(layered->ThresholdOf("t"), 3.0);
  auto one_layer = LoadRuleLayers({dir_});
  ASSERT_FALSE(one_layer.ok());
  EXPECT_TRUE(Contains(one_layer.status().message(), "defined twice")) << one_layer.status().message();
}

TEST_F(RuleLayersTest, RefusedLayerLeavesTheSetUnchanged) {
  RuleSet set;
  ASSERT_TRUE(ParseRuleYaml("rules:\n  - {id: x, tag: t, pattern: a, weight: 1}\n", "a.yaml", set).ok());
  const Status s = ParseRuleYaml("rules:\n  - {id: x, weight: 5}\n  - {id: y, weight: 1}\n", "b.yaml", set);
  ASSERT_FALSE(s.ok());
  ASSERT_EQ(set.rules.size(), 1u);
  EXPECT_EQ(set.rules[0].weight, 1.0);
}

TEST_F(RuleLayersTest, BadCategoryListsAreRefused) {
  struct Case {
    const char* yaml;
    const char* expect;
  } cases[] = {
      {"rules:\n  - {id: x, categories: [], pattern: p}\n", "'categories' must be a non-empty list"},
      {"rules:\n  - {id: x, categories: [a, a], pattern: p}\n", "category 'a' listed twice"},
      {"rules:\n  - {id: x, categories: [a, b/c], pattern: p}\n", "category 'b/c' must be a name"},
      {"rules:\n  - {id: x, categories: [a, b], tag: c/kind, pattern: p}\n", "names a category not in 'categories'"},
      {"rules:\n  - {id: x, tag: t, pattern: p, enabled: maybe}\n", "'enabled' must be true or false"},
  };
  for (const auto& c : cases) {
    RuleSet set;
    const Status s = ParseRuleYaml(c.yaml, "m.yaml", set);
    ASSERT_FALSE(s.ok()) << c.yaml;
    EXPECT_TRUE(Contains(s.message(), c.expect)) << s.message();
  }
}

// One negative rule listing three categories decides exactly as three copies of it, one per
// category, on real scans of a few texts.
TEST_F(RuleLayersTest, OneRuleListingThreeCategoriesEqualsThreeCopies) {
  const std::string positives =
      "  - {id: p.slow, tag: performance/low-speed, pattern: '\\bslow\\b', flags: [caseless]}\n"
      "  - {id: a.nan, tag: accuracy/nan-inf, pattern: '\\bnan\\b', flags: [caseless], weight: 0.5}\n"
      "  - {id: s.quiet, tag: silent/no-error, pattern: 'no error', weight: 2}\n";
  const std::string listed = Write("listed.yaml", "rules:\n" + positives +
                                                      "  - {id: nab.how, categories: [performance, accuracy, silent], "
                                                      "tag: not-a-bug, pattern: '^how', flags: [caseless], weight: -1}\n");
  std::string copies_text = "rules:\n" + positives;
  for (const char* c : {"performance", "accuracy", "silent"}) {
    copies_text += std::string("  - {id: nab.how.") + c + ", tag: " + c +
                   "/not-a-bug, pattern: '^how', flags: [caseless], weight: -1}\n";
  }
  const std::string copies = Write("copies.yaml", copies_text);
  auto listed_set = LoadRuleSet(listed), copies_set = LoadRuleSet(copies);
  ASSERT_TRUE(listed_set.ok()) << listed_set.status().message();
  ASSERT_TRUE(copies_set.ok()) << copies_set.status().message();
  auto listed_db = RuleDatabase::Compile(*listed_set), copies_db = RuleDatabase::Compile(*copies_set);
  ASSERT_TRUE(listed_db.ok() && copies_db.ok());
  const DecisionModel listed_model = DecisionModel::FromRuleSet(*listed_set);
  const DecisionModel copies_model = DecisionModel::FromRuleSet(*copies_set);
  Scanner listed_scanner(*listed_db), copies_scanner(*copies_db);
  auto judge = [](Scanner& scanner, const DecisionModel& model, const std::string& title) {
    MatchSet matches;
    EXPECT_TRUE(scanner.Scan(Field::kTitle, title, matches).ok());
    std::vector<std::string> ids;
    for (uint32_t id : matches.ids()) ids.push_back(scanner.database().rules().rules[id].id);
    std::vector<std::pair<std::string, double>> scores;
    for (const CategoryScore& s : model.Score(ids)) scores.emplace_back(s.category, s.score);
    return std::make_pair(model.Flagged(ids), scores);
  };
  int flagged_somewhere = 0;
  for (const char* title : {"How to fix slow training", "slow training", "How come loss is NaN and slow",
                            "NaN and slow", "how is there no error", "no error at all", "how", "nothing here"}) {
    const auto a = judge(listed_scanner, listed_model, title), b = judge(copies_scanner, copies_model, title);
    EXPECT_EQ(a, b) << title;
    flagged_somewhere += !a.first.empty();
  }
  EXPECT_EQ(flagged_somewhere, 4);  // "slow training", "NaN and slow", "how is there no error", "no error at all"
  EXPECT_EQ(listed_model.Flagged({"nab.how", "s.quiet"}), std::vector<std::string>{"silent"});
  EXPECT_EQ(listed_model.Flagged({"nab.how", "p.slow"}), std::vector<std::string>{});
}

//! A rule's scan digest as decision.cpp makes it, for a rule without flags: its pattern and fields,
//! and for one reading markdown how this build reads it (so an edit of the template prompts
//! changes no test).
std::string ScanDigestOf(const std::string& pattern, FieldMask fields, bool markdown) {
  std::string s = pattern + '\0' + '\0' + std::to_string(fields);
  if (markdown) s += std::string(1, '\0') + MarkdownReading();
  return ShortDigest(s);
}

// A rule's scan digest names how a markdown field is read when it reads one, so that a store whose
// bodies were read another way (before HTML comments were left out) is not taken as scanned alike;
// a rule of titles and labels alone keeps the digest it had.
TEST_F(RuleLayersTest, ScanDigestNamesTheMarkdownReadingOfMarkdownFieldsOnly) {
  RuleSet set;
  ASSERT_TRUE(ParseRuleYaml("rules:\n"
                            "  - {id: t, tag: performance/low-speed, pattern: a, fields: [title, label], weight: 1}\n"
                            "  - {id: b, tag: performance/low-speed, pattern: a, fields: [body], weight: 1}\n"
                            "  - {id: c, tag: performance/low-speed, pattern: a, fields: [code], weight: 1}\n",
                            "m.yaml", set)
                  .ok());
  const std::string text = DecisionModel::FromRuleSet(set).Serialize();
  EXPECT_NE(text.find("scan\tt\t" + ScanDigestOf("a", MaskOf(Field::kTitle) | MaskOf(Field::kLabel), false) + "\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("scan\tb\t" + ScanDigestOf("a", MaskOf(Field::kBody), true) + "\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("scan\tc\t" + ScanDigestOf("a", MaskOf(Field::kCode), true) + "\n"), std::string::npos)
      << text;
}

// Stores keep the decision model as text: a one-category rule is written as before (so stores
// built before category lists compare equal), a rule with a list gets a fifth column.
TEST_F(RuleLayersTest, DecisionModelStoresCategoryLists) {
  RuleSet set;
  ASSERT_TRUE(ParseRuleYaml("rules:\n"
                            "  - {id: p, tag: performance/low-speed, pattern: a, weight: 0.5}\n"
                            "  - {id: n, categories: [performance, silent], tag: not-a-bug, pattern: b, weight: -1}\n",
                            "m.yaml", set)
                  .ok());
  const DecisionModel model = DecisionModel::FromRuleSet(set);
  const std::string text = model.Serialize();
  const FieldMask title_and_body = MaskOf(Field::kTitle) | MaskOf(Field::kBody);  // the default fields
  EXPECT_EQ(text,
            "rule\tn\tperformance/not-a-bug\t-1000000\tperformance,silent\n"
            "rule\tp\tperformance/low-speed\t500000\n"
            // what each rule matches with: pattern, flags, fields, and how markdown is read
            "scan\tn\t" + ScanDigestOf("b", title_and_body, true) + "\n"
            "scan\tp\t" + ScanDigestOf("a", title_and_body, true) + "\n"
            "threshold\tperformance\t1000000\n"
            "threshold\tsilent\t1000000\n"
            "facets\n");
  auto parsed = DecisionModel::Parse(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(*parsed, model);
  EXPECT_EQ(parsed->CategoriesOf("n"), (std::vector<std::string>{"performance", "silent"}));
  EXPECT_EQ(parsed->CategoryOf("n"), "performance");
  EXPECT_EQ(parsed->CategoriesOf("p"), std::vector<std::string>{"performance"});
  EXPECT_EQ(parsed->Flagged({"n", "p"}), std::vector<std::string>{});
  // A model written before category lists existed still reads.
  auto old = DecisionModel::Parse("rule\tp\tperformance/low-speed\t1000000\nthreshold\tperformance\t1000000\n");
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(old->Flagged({"p"}), std::vector<std::string>{"performance"});
  EXPECT_EQ(old->CategoriesOf("p"), std::vector<std::string>{"performance"});
}

}  // namespace
}  // namespace ghsift

namespace ghsift {
namespace {

// `base: default` puts a layer on the default rule set without naming its path; only the first
// layer may say it.
TEST(RuleLayersBaseTest, BaseDefaultLiesOnTheDefaultSet) {
  testing::TempDir dir;
  std::ofstream(dir / "flaky.yaml") << "base: default\nrules:\n"
                                       "  - {id: flaky.title, tag: flaky, pattern: 'flaky', fields: [title]}\n"
                                       "  - {id: perf.speed.title-slow, weight: 0.5}\n";
  auto defaults = LoadRuleSet(DefaultRulesPath());
  ASSERT_TRUE(defaults.ok());
  auto set = LoadRuleLayers({dir / "flaky.yaml"});
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ(set->rules.size(), defaults->rules.size() + 1);
  EXPECT_EQ(set->rules.back().id, "flaky.title");
  const auto slow = std::find_if(set->rules.begin(), set->rules.end(),
                                 [](const Rule& r) { return r.id == "perf.speed.title-slow"; });
  ASSERT_NE(slow, set->rules.end());
  EXPECT_EQ(slow->weight, 0.5);
  EXPECT_EQ(set->verdict, "verdict");

  std::ofstream(dir / "none.yaml") << "base: none\nrules:\n  - {id: a, tag: x, pattern: a}\n";
  auto alone = LoadRuleLayers({dir / "none.yaml"});
  ASSERT_TRUE(alone.ok());
  EXPECT_EQ(alone->rules.size(), 1u);
  auto second = LoadRuleLayers({dir / "none.yaml", dir / "flaky.yaml"});
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().message().find("'base: default' only in the first --rules layer"), std::string::npos)
      << second.status().message();
  std::ofstream(dir / "bad.yaml") << "base: defaults\nrules: []\n";
  auto bad = LoadRuleLayers({dir / "bad.yaml"});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            dir / "bad.yaml" + ": base must be default (on top of the default rule set) or none, not 'defaults'");
}


// GHSIFT_RULES naming a `base: default` layer makes it the default set: it lies on the bundled set,
// not on itself alone (which gave its own rules and nothing else). An overlay without the key
// named there gets the bundled set as the base to give first.
TEST(RuleLayersBaseTest, AnOverlayNamedByGhsiftRulesLiesOnTheBundledSet) {
  testing::TempDir dir;
  const std::string overlay = dir / "flaky.yaml";
  std::ofstream(overlay) << "base: default\nrules:\n  - {id: flaky.title, tag: flaky, pattern: 'flaky'}\n";
  const std::string weights = dir / "weights.yaml";
  std::ofstream(weights) << "rules:\n  - {id: perf.speed.title-slow, weight: 0.5}\n";
  auto bundled = LoadRuleSet(BundledRulesPath());
  ASSERT_TRUE(bundled.ok()) << bundled.status().message();
  ::setenv("GHSIFT_RULES", overlay.c_str(), 1);
  auto set = LoadRuleSet(DefaultRulesPath());
  ::setenv("GHSIFT_RULES", weights.c_str(), 1);
  auto alone = LoadRuleSet(DefaultRulesPath());
  ::unsetenv("GHSIFT_RULES");
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ(set->rules.size(), bundled->rules.size() + 1);
  EXPECT_EQ(set->rules.back().id, "flaky.title");
  ASSERT_FALSE(alone.ok());
  EXPECT_NE(alone.status().message().find("give the base first: --rules " + BundledRulesPath() + " --rules " + weights),
            std::string::npos)
      << alone.status().message();
}

// One run names every mistake of a rule file: wrong entries, then patterns that do not compile.
TEST(RuleLayersBaseTest, EveryErrorOfARuleFileInOneRun) {
  RuleSet set;
  const Status keys = ParseRuleYaml("rules:\n  - {id: a, tag: x, pattern: a, weigth: 1}\n"
                                    "  - {id: b, tag: x, pattern: b}\n  - {id: c, pattern: c}\n",
                                    "f.yaml", set);
  ASSERT_FALSE(keys.ok());
  EXPECT_EQ(keys.message().rfind("2 rules are wrong:\nf.yaml: rule 'a' (line 2): unknown key 'weigth'", 0), 0u)
      << keys.message();
  EXPECT_NE(keys.message().find("\nf.yaml: rule 'c' (line 4): missing 'tag'"), std::string::npos) << keys.message();
  // An entry that cannot be read as a rule (a bad id) is named with the others, not alone first.
  RuleSet ids;
  const Status id = ParseRuleYaml("rules:\n  - {id: Bad_Id, tag: x, pattern: a}\n  - {id: b, tag: x, pattern: b, "
                                  "fields: [titel]}\n",
                                  "g.yaml", ids);
  EXPECT_EQ(id.message(),
            "2 rules are wrong:\ng.yaml: rule 'Bad_Id' (line 2): id must match [a-z0-9._-]+\ng.yaml: rule 'b' (line 3): "
            "unknown field 'titel' (title, body, label, comment, code, review)");
  // A wrong entry and a pattern that does not compile, in one file: both named in one run.
  RuleSet both;
  const Status mixed = ParseRuleYaml("rules:\n  - {id: a, tag: x, pattern: a, weigth: 1}\n"
                                     "  - {id: b, tag: x, pattern: '(b'}\n  - {id: c, tag: x, pattern: c}\n",
                                     "m.yaml", both);
  EXPECT_EQ(mixed.message(),
            "2 rules are wrong:\nm.yaml: rule 'a' (line 2): unknown key 'weigth' (line 2); did you mean weight? The "
            "keys: categories, description, enabled, fields, flags, id, pattern, tag, weight, written_from\n"
            "m.yaml: rule 'b' (line 3): pattern '(b': Missing close parenthesis for group started at index 0.");
  RuleSet patterns;
  ASSERT_TRUE(ParseRuleYaml("rules:\n  - {id: a, tag: x, pattern: '(a'}\n  - {id: b, tag: x, pattern: b}\n"
                            "  - {id: c, tag: x, pattern: 'c)'}\n",
                            "p.yaml", patterns)
                  .ok());
  auto db = RuleDatabase::Compile(patterns, RuleDatabase::Mode::kFlag, RuleDatabase::Layout::kPerRule);
  ASSERT_FALSE(db.ok());
  const std::string& m = db.status().message();
  EXPECT_EQ(m.rfind("2 rules do not compile:\n", 0), 0u) << m;
  EXPECT_NE(m.find("rule 'a'"), std::string::npos) << m;
  EXPECT_NE(m.find("rule 'c'"), std::string::npos) << m;
}

}  // namespace
}  // namespace ghsift
