#include "rules/rule_set.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace ghsift {
namespace {

namespace fs = std::filesystem;

class RuleSetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::path(::testing::TempDir()) / "ghsift-rules-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = (fs::path(dir_) / name).string();
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    EXPECT_TRUE(out.good());
    return path;
  }
  std::string dir_;
};

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST_F(RuleSetTest, DefaultsForFieldsWeightAndFlags) {
  const std::string path = Write("one.yaml",
                                 "rules:\n"
                                 "  - id: perf.slow\n"
                                 "    tag: performance/low-speed\n"
                                 "    pattern: 'slow'\n");
  auto set = LoadRuleSet(dir_);
  ASSERT_TRUE(set.ok()) << set.status().message();
  ASSERT_EQ(set->rules.size(), 1u);
  const Rule& r = set->rules[0];
  EXPECT_EQ(r.id, "perf.slow");
  EXPECT_EQ(r.tag, "performance/low-speed");
  EXPECT_EQ(r.category, "performance");
  EXPECT_EQ(r.pattern, "slow");
  EXPECT_EQ(r.fields, MaskOf(Field::kTitle) | MaskOf(Field::kBody));
  EXPECT_TRUE(r.flags.empty());
  EXPECT_EQ(r.weight, 1.0);
  EXPECT_EQ(r.source, path);
  EXPECT_TRUE(set->thresholds.empty());
  EXPECT_EQ(set->ThresholdOf("performance"), kDefaultThreshold);
  EXPECT_EQ(kDefaultThreshold, 1.0);
}

TEST_F(RuleSetTest, AllKeysAreRead) {
  Write("one.yaml",
        "rules:\n"
        "  - id: a-1_b.c\n"
        "    tag: silent\n"
        "    pattern: 'x'\n"
        "    fields: [code, comment, label]\n"
        "    flags: [caseless, dotall, multiline, ucp]\n"
        "    weight: -0.75\n"
        "    written_from: [hive, tensorflow/tensorflow]\n"
        "    description: some words\n");
  auto set = LoadRuleSet(dir_);
  ASSERT_TRUE(set.ok()) << set.status().message();
  ASSERT_EQ(set->rules.size(), 1u);
  const Rule& r = set->rules[0];
  EXPECT_EQ(r.id, "a-1_b.c");
  EXPECT_EQ(r.tag, "silent");
  EXPECT_EQ(r.category, "silent");
  EXPECT_EQ(r.fields, MaskOf(Field::kCode) | MaskOf(Field::kComment) | MaskOf(Field::kLabel));
  EXPECT_EQ(r.flags, (std::vector<std::string>{"caseless", "dotall", "multiline", "ucp"}));
  EXPECT_EQ(r.weight, -0.75);
  EXPECT_EQ(r.written_from, (std::vector<std::string>{"hive", "tensorflow/tensorflow"}));
}

TEST_F(RuleSetTest, WrittenFromIsAListOfGroupNames) {
  auto scalar = LoadRuleSet(Write("s.yaml", "rules:\n  - {id: r, tag: t, pattern: x, written_from: hive}\n"));
  ASSERT_FALSE(scalar.ok());
  EXPECT_NE(scalar.status().message().find("rule 'r' (line 2): 'written_from' must be a list of labeled group names"), std::string::npos)
      << scalar.status().message();
  auto empty_name = LoadRuleSet(Write("e.yaml", "rules:\n  - {id: r, tag: t, pattern: x, written_from: ['']}\n"));
  ASSERT_FALSE(empty_name.ok());
  EXPECT_NE(empty_name.status().message().find("'written_from' must be a list"), std::string::npos);
}

TEST_F(RuleSetTest, FilesLoadInNameOrder) {
  Write("b.yaml", "rules:\n  - {id: from-b, tag: t, pattern: b}\n");
  Write("a.yml", "rules:\n  - {id: from-a1, tag: t, pattern: a}\n  - {id: from-a2, tag: t, pattern: a}\n");
  Write("c.yaml", "rules:\n  - {id: from-c, tag: u, pattern: c}\n");
  Write("notes.txt", "rules: [this is not loaded\n");
  auto set = LoadRuleSet(dir_);
  ASSERT_TRUE(set.ok()) << set.status().message();
  ASSERT_EQ(set->rules.size(), 4u);
  EXPECT_EQ(set->rules[0].id, "from-a1");
  EXPECT_EQ(set->rules[1].id, "from-a2");
  EXPECT_EQ(set->rules[2].id, "from-b");
  EXPECT_EQ(set->rules[3].id, "from-c");
  EXPECT_EQ(set->Categories(), (std::vector<std::string>{"t", "u"}));
}

TEST_F(RuleSetTest, SingleFilePath) {
  const std::string path = Write("only.yaml", "rules:\n  - {id: x, tag: t, pattern: p}\n");
  Write("other.yaml", "rules:\n  - {id: y, tag: t, pattern: p}\n");
  auto set = LoadRuleSet(path);
  ASSERT_TRUE(set.ok()) << set.status().message();
  ASSERT_EQ(set->rules.size(), 1u);
  EXPECT_EQ(set->rules[0].id, "x");
}

TEST_F(RuleSetTest, DuplicateIdAcrossFilesNamesBothFiles) {
  const std::string first = Write("a.yaml", "rules:\n  - {id: dup, tag: t, pattern: a}\n");
  const std::string second = Write("b.yaml", "rules:\n  - {id: other, tag: t, pattern: b}\n  - {id: dup, tag: t, pattern: c}\n");
  auto set = LoadRuleSet(dir_);
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.status().code(), StatusCode::kInvalidArgument);
  const std::string& m = set.status().message();
  EXPECT_TRUE(Contains(m, first)) << m;
  EXPECT_TRUE(Contains(m, second)) << m;
  EXPECT_TRUE(Contains(m, "'dup'")) << m;
  EXPECT_TRUE(Contains(m, "duplicate")) << m;
}

TEST_F(RuleSetTest, DuplicateIdInOneFile) {
  const std::string path = Write("a.yaml", "rules:\n  - {id: dup, tag: t, pattern: a}\n  - {id: dup, tag: t, pattern: b}\n");
  auto set = LoadRuleSet(path);
  ASSERT_FALSE(set.ok());
  EXPECT_TRUE(Contains(set.status().message(), "duplicate")) << set.status().message();
}

// A piece of pattern defined once (`fragments:`) and used by rules of several files: `{{name}}`
// is replaced where a rule is read, wherever in the layer the fragment is defined.
TEST_F(RuleSetTest, FragmentsAreWrittenOnceAndUsedByName) {
  fs::create_directories(fs::path(dir_) / "set");
  Write("set/a.yaml", "rules:\n  - {id: a.crash, tag: a/crash, pattern: 'x{{crash}}y|{{crash}}'}\n");
  Write("set/b.yaml",
        "fragments:\n  crash: '(segfault|abort)'\nrules:\n  - {id: b.crash, tag: b/crash, pattern: '^{{crash}}$', "
        "weight: -1}\n  - {id: b.braces, tag: b/braces, pattern: 'a{{2}}|{{ not a name }}'}\n");
  auto set = LoadRuleSet((fs::path(dir_) / "set").string());
  ASSERT_TRUE(set.ok()) << set.status().message();
  ASSERT_EQ(set->rules.size(), 3u);
  EXPECT_EQ(set->rules[0].pattern, "x(segfault|abort)y|(segfault|abort)");
  EXPECT_EQ(set->rules[1].pattern, "^(segfault|abort)$");
  EXPECT_EQ(set->rules[2].pattern, "a{{2}}|{{ not a name }}");  // regex text, not a reference
  // A later layer may replace a fragment for its own rules.
  const std::string layer = Write("layer.yaml", "fragments:\n  crash: 'panic'\nrules:\n  - {id: c.crash, tag: c/crash, "
                                                "pattern: '{{crash}}'}\n");
  auto layered = LoadRuleLayers({(fs::path(dir_) / "set").string(), layer});
  ASSERT_TRUE(layered.ok()) << layered.status().message();
  EXPECT_EQ(layered->rules.back().pattern, "panic");
  EXPECT_EQ(layered->rules.front().pattern, "x(segfault|abort)y|(segfault|abort)");
}

TEST_F(RuleSetTest, FragmentMistakesAreNamed) {
  auto unknown = LoadRuleSet(Write("u.yaml", "fragments:\n  crash: 'a'\nrules:\n  - {id: r, tag: t, pattern: '{{crahs}}'}\n"));
  ASSERT_FALSE(unknown.ok());
  EXPECT_TRUE(Contains(unknown.status().message(),
                       "u.yaml: rule 'r' (line 4): pattern uses fragment '{{crahs}}', which no file defines (the fragments: crash)"))
      << unknown.status().message();
  fs::create_directories(fs::path(dir_) / "twice");
  Write("twice/a.yaml", "fragments:\n  crash: 'a'\n");
  Write("twice/b.yaml", "fragments:\n  crash: 'b'\nrules:\n  - {id: r, tag: t, pattern: x}\n");
  auto twice = LoadRuleSet((fs::path(dir_) / "twice").string());
  ASSERT_FALSE(twice.ok());
  EXPECT_TRUE(Contains(twice.status().message(), "b.yaml: fragment 'crash' is defined twice in one layer (also in "))
      << twice.status().message();
  auto bad_name = LoadRuleSet(Write("n.yaml", "fragments:\n  2x: 'a'\nrules:\n  - {id: r, tag: t, pattern: x}\n"));
  ASSERT_FALSE(bad_name.ok());
  EXPECT_TRUE(Contains(bad_name.status().message(), "fragment '2x': a name must match [a-z][a-z0-9_-]*"))
      << bad_name.status().message();
}

TEST_F(RuleSetTest, InvalidIds) {
  for (const char* id : {"Upper", "has space", "slash/id", "\"\"", "é"}) {
    RuleSet set;
    const std::string yaml = std::string("rules:\n  - id: ") + id + "\n    tag: t\n    pattern: p\n";
    const Status s = ParseRuleYaml(yaml, "mem.yaml", set);
    ASSERT_FALSE(s.ok()) << id;
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << id;
    EXPECT_TRUE(Contains(s.message(), "mem.yaml")) << s.message();
    EXPECT_TRUE(set.rules.empty());
  }
  RuleSet set;
  const Status s = ParseRuleYaml("rules:\n  - {id: Bad, tag: t, pattern: p}\n", "mem.yaml", set);
  EXPECT_TRUE(Contains(s.message(), "rule 'Bad'")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "[a-z0-9._-]+")) << s.message();
}

TEST_F(RuleSetTest, InvalidTags) {
  for (const char* tag : {"Perf", "/perf", "per f"}) {
    RuleSet set;
    const Status s = ParseRuleYaml(std::string("rules:\n  - {id: x, tag: '") + tag + "', pattern: p}\n", "m.yaml", set);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << tag;
  }
}

TEST_F(RuleSetTest, MissingRequiredKeys) {
  struct Case {
    const char* yaml;
    const char* expect;
  } cases[] = {
      {"rules:\n  - {tag: t, pattern: p}\n", "missing 'id'"},
      {"rules:\n  - {id: x, pattern: p}\n", "missing 'tag'"},
      {"rules:\n  - {id: x, tag: t}\n", "missing 'pattern'"},
      {"rules:\n  - {id: x, tag: t, pattern: ''}\n", "empty pattern"},
      {"rules:\n  - just a string\n", "must be a mapping"},
  };
  for (const auto& c : cases) {
    RuleSet set;
    const Status s = ParseRuleYaml(c.yaml, "m.yaml", set);
    ASSERT_FALSE(s.ok()) << c.yaml;
    EXPECT_TRUE(Contains(s.message(), c.expect)) << s.message();
  }
}

TEST_F(RuleSetTest, UnknownFieldIsRefused) {
  const std::string path = Write("f.yaml", "rules:\n  - {id: x, tag: t, pattern: p, fields: [title, titel]}\n");
  auto set = LoadRuleSet(dir_);
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(set.status().message(), "unknown field 'titel'")) << set.status().message();
  EXPECT_TRUE(Contains(set.status().message(), path)) << set.status().message();
  EXPECT_TRUE(Contains(set.status().message(), "rule 'x'")) << set.status().message();
}

TEST_F(RuleSetTest, EmptyFieldListIsRefused) {
  RuleSet set;
  const Status s = ParseRuleYaml("rules:\n  - {id: x, tag: t, pattern: p, fields: []}\n", "m.yaml", set);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(s.message(), "non-empty list")) << s.message();
}

TEST_F(RuleSetTest, UnknownFlagIsRefused) {
  Write("f.yaml", "rules:\n  - {id: x, tag: t, pattern: p, flags: [caseless, ignorecase]}\n");
  auto set = LoadRuleSet(dir_);
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(set.status().message(), "unknown flag 'ignorecase'")) << set.status().message();
}

TEST_F(RuleSetTest, UnknownRuleKeyIsRefused) {
  Write("k.yaml", "rules:\n  - {id: x, tag: t, pattern: p, wieght: 2}\n");
  auto set = LoadRuleSet(dir_);
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(set.status().message(), "unknown key 'wieght' (line 2); did you mean weight? The keys: "
                                                "categories, description, enabled, fields, flags, id, pattern, tag, "
                                                "weight"))
      << set.status().message();
}

TEST_F(RuleSetTest, UnknownTopLevelKeyIsRefused) {
  Write("k.yaml", "rules:\n  - {id: x, tag: t, pattern: p}\nthresholds: {t: 2}\n");
  auto set = LoadRuleSet(dir_);
  ASSERT_FALSE(set.ok());
  EXPECT_TRUE(Contains(set.status().message(), "unknown top-level key 'thresholds'")) << set.status().message();
}

TEST_F(RuleSetTest, BadWeightIsRefused) {
  RuleSet set;
  const Status s = ParseRuleYaml("rules:\n  - {id: x, tag: t, pattern: p, weight: heavy}\n", "m.yaml", set);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "m.yaml: rule 'x' (line 2): weight must be a finite number, not 'heavy'");
  // YAML's .nan and .inf are numbers to yaml-cpp: a NaN weight or threshold decided every report.
  RuleSet nan_weight;
  EXPECT_EQ(ParseRuleYaml("rules:\n  - {id: x, tag: t, pattern: p, weight: .nan}\n", "m.yaml", nan_weight).message(),
            "m.yaml: rule 'x' (line 2): weight must be a finite number, not '.nan'");
  RuleSet inf_weight;
  EXPECT_EQ(ParseRuleYaml("rules:\n  - {id: x, tag: t, pattern: p, weight: -.inf}\n", "m.yaml", inf_weight).message(),
            "m.yaml: rule 'x' (line 2): weight must be a finite number, not '-.inf'");
  RuleSet nan_threshold;
  EXPECT_EQ(ParseRuleYaml("categories:\n  t: {threshold: .NaN}\nrules:\n  - {id: x, tag: t, pattern: p}\n", "m.yaml",
                          nan_threshold)
                .message(),
            "m.yaml: category 't' (line 2): threshold must be a finite number, not '.NaN'");
}

// A key given twice in one mapping: yaml-cpp keeps both and a lookup reads one, so the other
// pattern (or weight, or threshold) was dropped without a word.
TEST_F(RuleSetTest, AKeyGivenTwiceIsRefusedWithBothLines) {
  RuleSet set;
  const Status s =
      ParseRuleYaml("rules:\n  - id: x\n    tag: t\n    pattern: slow\n    pattern: fast\n", "twice.yaml", set);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "twice.yaml: line 5: key 'pattern' given twice in one mapping (also on line 4)");
  RuleSet top;
  EXPECT_EQ(ParseRuleYaml("rules: []\nrules: []\n", "top.yaml", top).message(),
            "top.yaml: line 2: key 'rules' given twice in one mapping (also on line 1)");
}

TEST_F(RuleSetTest, InvalidYamlIsRefused) {
  RuleSet set;
  const Status s = ParseRuleYaml("rules: [unclosed\n", "broken.yaml", set);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(s.message(), "broken.yaml")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "invalid YAML")) << s.message();
  const Status list = ParseRuleYaml("- a\n- b\n", "list.yaml", set);
  EXPECT_EQ(list.code(), StatusCode::kInvalidArgument);
}

// yaml-cpp reads a quoted value that the file ends in without its closing quote as if it were
// closed: the rule would match another pattern than the one written. Quotes that close, with
// their escapes ('' inside single quotes, \" inside double ones), are read as they were.
TEST_F(RuleSetTest, AQuotedValueLeftOpenAtTheEndIsRefused) {
  RuleSet set;
  for (const char quote : {'"', '\''}) {
    const Status s = ParseRuleYaml(std::string("rules:\n  - id: a\n    tag: x/y\n    pattern: ") + quote + "slow\n",
                                   "cut.yaml", set);
    EXPECT_EQ(s.message(), std::string("cut.yaml: line 4, column 14: the quoted value opened there (") + quote +
                               ") is not closed before the end of the file");
  }
  RuleSet closed;
  ASSERT_TRUE(ParseRuleYaml("rules:\n  - {id: a, tag: x/y, pattern: 'it''s'}\n  - {id: b, tag: x/y, pattern: \"q\\\"\"}\n",
                            "ok.yaml", closed)
                  .ok());
  ASSERT_EQ(closed.rules.size(), 2u);
  EXPECT_EQ(closed.rules[0].pattern, "it's");
  EXPECT_EQ(closed.rules[1].pattern, "q\"");
}

TEST_F(RuleSetTest, CategoryThresholds) {
  Write("a.yaml",
        "categories:\n"
        "  performance: {threshold: 2.5}\n"
        "  silent:\n"
        "    threshold: 0.5\n"
        "rules:\n"
        "  - {id: p1, tag: performance/memory, pattern: leak}\n"
        "  - {id: s1, tag: silent, pattern: quiet}\n"
        "  - {id: a1, tag: accuracy/nan-inf, pattern: nan}\n");
  auto set = LoadRuleSet(dir_);
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ(set->ThresholdOf("performance"), 2.5);
  EXPECT_EQ(set->ThresholdOf("silent"), 0.5);
  EXPECT_EQ(set->ThresholdOf("accuracy"), 1.0);
  EXPECT_EQ(set->thresholds.size(), 2u);
  EXPECT_EQ(set->Categories(), (std::vector<std::string>{"accuracy", "performance", "silent"}));
}

// A threshold for a category no rule has changes nothing: a misspelt name, named with the closest.
TEST_F(RuleSetTest, ThresholdOfACategoryNoRuleHasIsRefused) {
  RuleSet set;
  ASSERT_TRUE(ParseRuleYaml("rules:\n  - {id: p1, tag: performance/memory, pattern: leak}\n", "r.yaml", set).ok());
  const Status s = ParseRuleYaml("categories:\n  perfromance: {threshold: 2.0}\n", "ov.yaml", set);
  EXPECT_EQ(s.message(), "ov.yaml: threshold for category 'perfromance', which no rule has (did you mean "
                         "performance?); the categories: performance");
  EXPECT_EQ(set.ThresholdOf("performance"), 1.0);  // the layer was not applied
}

// `rules tune --write` records what an overlay was fitted on; the set keeps it, by layer.
TEST_F(RuleSetTest, FittedRecordIsKeptWithItsSource) {
  RuleSet set;
  ASSERT_TRUE(ParseRuleYaml("rules:\n  - {id: p1, tag: performance/memory, pattern: leak}\n", "r.yaml", set).ok());
  ASSERT_TRUE(ParseRuleYaml("categories:\n  performance: {threshold: 0.5}\nfitted:\n  groups: ['a', 'b/c']\n"
                            "  logo: 0.618\n",
                            "ov.yaml", set)
                  .ok());
  ASSERT_EQ(set.fitted.size(), 1u);
  EXPECT_EQ(set.fitted[0].source, "ov.yaml");
  EXPECT_EQ(set.fitted[0].groups, (std::vector<std::string>{"a", "b/c"}));
  EXPECT_EQ(set.fitted[0].logo, 0.618);
  EXPECT_EQ(set.fitted[0].data_digest, "");  // a layer written before they were recorded
  // What the fit read (`rules eval`'s provenance): data and rules digests, the ghsift version.
  ASSERT_TRUE(ParseRuleYaml("fitted:\n  groups: ['a']\n  logo: 0.5\n  data: \"00112233aabbccdd\"\n"
                            "  rules: \"0123456789abcdef\"\n  ghsift: \"0.1.0\"\n",
                            "ov2.yaml", set)
                  .ok());
  ASSERT_EQ(set.fitted.size(), 2u);
  EXPECT_EQ(set.fitted[1].data_digest, "00112233aabbccdd");
  EXPECT_EQ(set.fitted[1].rules_digest, "0123456789abcdef");
  EXPECT_EQ(set.fitted[1].ghsift, "0.1.0");
  const Status bad = ParseRuleYaml("fitted: [a]\n", "bad.yaml", set);
  EXPECT_EQ(bad.message(), "bad.yaml: 'fitted' must be {groups: [...], logo: X} (as `rules tune --write` writes it)");
}

TEST_F(RuleSetTest, ThresholdDefinedTwiceIsRefused) {
  Write("a.yaml", "categories:\n  perf: {threshold: 1}\nrules:\n  - {id: x, tag: perf, pattern: p}\n");
  const std::string second = Write("b.yaml", "categories:\n  perf: {threshold: 2}\n");
  auto set = LoadRuleSet(dir_);
  ASSERT_FALSE(set.ok());
  EXPECT_TRUE(Contains(set.status().message(), "defined twice")) << set.status().message();
  EXPECT_TRUE(Contains(set.status().message(), second)) << set.status().message();
}

TEST_F(RuleSetTest, CategoryWithoutThresholdIsRefused) {
  RuleSet set;
  const Status s = ParseRuleYaml("categories:\n  perf: {limit: 1}\n", "m.yaml", set);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(s.message(), "missing 'threshold'")) << s.message();
}

TEST_F(RuleSetTest, TagGivesTheCategory) {
  RuleSet set;
  ASSERT_TRUE(ParseRuleYaml("rules:\n"
                            "  - {id: a, tag: performance/low-speed, pattern: p}\n"
                            "  - {id: b, tag: stage/data-loading/x, pattern: p}\n"
                            "  - {id: c, tag: info, pattern: p}\n",
                            "m.yaml", set)
                  .ok());
  ASSERT_EQ(set.rules.size(), 3u);
  EXPECT_EQ(set.rules[0].category, "performance");
  EXPECT_EQ(set.rules[1].category, "stage");
  EXPECT_EQ(set.rules[1].tag, "stage/data-loading/x");
  EXPECT_EQ(set.rules[2].category, "info");
  EXPECT_EQ(set.Categories(), (std::vector<std::string>{"info", "performance", "stage"}));
}

TEST_F(RuleSetTest, EmptyDirectoryAndMissingPath) {
  auto empty = LoadRuleSet(dir_);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), StatusCode::kInvalidArgument);
  auto missing = LoadRuleSet((fs::path(dir_) / "nope").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  Write("empty.yaml", "");
  auto no_rules = LoadRuleSet(dir_);
  ASSERT_FALSE(no_rules.ok());
  EXPECT_TRUE(Contains(no_rules.status().message(), "no rules")) << no_rules.status().message();
}

TEST_F(RuleSetTest, DefaultRuleDirectoryLoads) {
  auto set = LoadRuleSet(std::string(GHSIFT_SOURCE_DIR) + "/rules");
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_GT(set->rules.size(), 50u);
  EXPECT_EQ(set->Categories(), (std::vector<std::string>{"accuracy", "info", "performance", "silent", "stage", "verdict"}));
  for (const std::string& c : set->Categories()) EXPECT_EQ(set->ThresholdOf(c), 1.0) << c;
}

}  // namespace
}  // namespace ghsift
