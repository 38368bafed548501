#include "rules/rule_database.hpp"

#include <gtest/gtest.h>

#include <string>

#include "rules/rule_test_support.hpp"
#include "rules/scanner.hpp"

namespace ghsift {
namespace {

Rule MakeRule(std::string id, std::string pattern, FieldMask fields, std::vector<std::string> flags = {}) {
  return testing::MakeRule(std::move(id), std::move(pattern), fields, std::move(flags), "performance/x",
                           "/rules/test.yaml");
}

//! Hyperscan's own message for a pattern it refuses.
std::string HyperscanMessage(const char* pattern) {
  hs_database_t* db = nullptr;
  hs_compile_error_t* error = nullptr;
  const hs_error_t rc = hs_compile(pattern, HS_FLAG_UTF8 | HS_FLAG_SINGLEMATCH, HS_MODE_BLOCK, nullptr, &db, &error);
  EXPECT_NE(rc, HS_SUCCESS);
  std::string message = error != nullptr ? error->message : "";
  if (error != nullptr) hs_free_compile_error(error);
  if (db != nullptr) hs_free_database(db);
  return message;
}

TEST(RuleDatabaseTest, BadPatternNamesFileRuleAndHyperscanMessage) {
  for (const char* bad : {"(", "a{99999}"}) {
    RuleSet set;
    set.rules.push_back(MakeRule("good.one", "fine", MaskOf(Field::kTitle)));
    set.rules.push_back(MakeRule("bad.one", bad, MaskOf(Field::kTitle)));
    auto db = RuleDatabase::Compile(set);
    ASSERT_FALSE(db.ok()) << bad;
    EXPECT_EQ(db.status().code(), StatusCode::kInvalidArgument);
    const std::string& m = db.status().message();
    EXPECT_NE(m.find("/rules/test.yaml"), std::string::npos) << m;
    EXPECT_NE(m.find("'bad.one'"), std::string::npos) << m;
    EXPECT_EQ(m.find("good.one"), std::string::npos) << m;
    const std::string hs_message = HyperscanMessage(bad);
    ASSERT_FALSE(hs_message.empty());
    EXPECT_NE(m.find(hs_message), std::string::npos) << m << " lacks " << hs_message;
  }
}

//! Hyperscan names the first bad pattern of a database only; the load names each of them, so that
//! one run lists every pattern to mend.
TEST(RuleDatabaseTest, EveryBadPatternOfADatabaseIsNamed) {
  RuleSet set;
  set.rules.push_back(MakeRule("bad.first", "sl(ow", MaskOf(Field::kTitle)));
  set.rules.push_back(MakeRule("good.one", "fine", MaskOf(Field::kTitle)));
  set.rules.push_back(MakeRule("bad.second", "sl[ow", MaskOf(Field::kTitle)));
  auto db = RuleDatabase::Compile(set);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().message(), "2 rules do not compile:\n"
                                   "/rules/test.yaml: rule 'bad.first': pattern 'sl(ow': " + HyperscanMessage("sl(ow") +
                                       "\n/rules/test.yaml: rule 'bad.second': pattern 'sl[ow': " +
                                       HyperscanMessage("sl[ow"));
}

TEST(RuleDatabaseTest, BadPatternInALaterFieldDatabase) {
  RuleSet set;
  set.rules.push_back(MakeRule("title.ok", "ok", MaskOf(Field::kTitle)));
  set.rules.push_back(MakeRule("label.bad", "[z-a]", MaskOf(Field::kLabel)));
  auto db = RuleDatabase::Compile(set);
  ASSERT_FALSE(db.ok());
  EXPECT_NE(db.status().message().find("'label.bad'"), std::string::npos) << db.status().message();
}

TEST(RuleDatabaseTest, UnknownFlagIsRefused) {
  RuleSet set;
  set.rules.push_back(MakeRule("r", "x", MaskOf(Field::kTitle), {"caseless", "bogus"}));
  auto db = RuleDatabase::Compile(set);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(db.status().message().find("unknown flag 'bogus'"), std::string::npos) << db.status().message();
}

TEST(RuleDatabaseTest, HyperscanFlags) {
  const Rule plain = MakeRule("r", "x", MaskOf(Field::kTitle));
  auto flag = HyperscanFlags(plain, RuleDatabase::Mode::kFlag);
  ASSERT_TRUE(flag.ok());
  EXPECT_EQ(*flag, unsigned{HS_FLAG_UTF8 | HS_FLAG_SINGLEMATCH});
  auto explain = HyperscanFlags(plain, RuleDatabase::Mode::kExplain);
  ASSERT_TRUE(explain.ok());
  EXPECT_EQ(*explain, unsigned{HS_FLAG_UTF8 | HS_FLAG_SOM_LEFTMOST});
  const Rule all = MakeRule("r", "x", MaskOf(Field::kTitle), {"caseless", "dotall", "multiline", "ucp"});
  auto all_flags = HyperscanFlags(all, RuleDatabase::Mode::kFlag);
  ASSERT_TRUE(all_flags.ok());
  EXPECT_EQ(*all_flags, unsigned{HS_FLAG_UTF8 | HS_FLAG_SINGLEMATCH | HS_FLAG_CASELESS | HS_FLAG_DOTALL |
                                 HS_FLAG_MULTILINE | HS_FLAG_UCP});
}

TEST(RuleDatabaseTest, OneDatabasePerFieldInUse) {
  RuleSet set;
  set.rules.push_back(MakeRule("code.only", "slow", MaskOf(Field::kCode)));
  set.rules.push_back(MakeRule("title.body", "fast", MaskOf(Field::kTitle) | MaskOf(Field::kBody)));
  auto db = RuleDatabase::Compile(set);
  ASSERT_TRUE(db.ok()) << db.status().message();
  EXPECT_NE((*db)->database(Field::kTitle), nullptr);
  EXPECT_NE((*db)->database(Field::kBody), nullptr);
  EXPECT_NE((*db)->database(Field::kCode), nullptr);
  EXPECT_EQ((*db)->database(Field::kComment), nullptr);
  EXPECT_EQ((*db)->database(Field::kLabel), nullptr);
  EXPECT_NE((*db)->scratch_prototype(), nullptr);
  EXPECT_GT((*db)->database_bytes(), 0u);
  EXPECT_EQ((*db)->rules().rules.size(), 2u);
  EXPECT_EQ((*db)->mode(), RuleDatabase::Mode::kFlag);
}

TEST(RuleDatabaseTest, FieldRouting) {
  RuleSet set;
  set.rules.push_back(MakeRule("code.slow", "slow", MaskOf(Field::kCode)));
  set.rules.push_back(MakeRule("title.leak", "leak", MaskOf(Field::kTitle)));
  auto db = RuleDatabase::Compile(set);
  ASSERT_TRUE(db.ok()) << db.status().message();
  Scanner scanner(*db);
  MatchSet matches;
  ASSERT_TRUE(scanner.Scan(Field::kTitle, "training is slow", matches).ok());
  EXPECT_TRUE(matches.empty());
  ASSERT_TRUE(scanner.Scan(Field::kBody, "slow leak", matches).ok());
  EXPECT_TRUE(matches.empty());
  ASSERT_TRUE(scanner.Scan(Field::kCode, "time: slow", matches).ok());
  EXPECT_EQ(matches.ids(), (std::vector<uint32_t>{0}));
  ASSERT_TRUE(scanner.Scan(Field::kTitle, "memory leak", matches).ok());
  EXPECT_EQ(matches.ids(), (std::vector<uint32_t>{0, 1}));
  ASSERT_TRUE(scanner.Scan(Field::kCode, "leak", matches).ok());
  EXPECT_EQ(matches.ids(), (std::vector<uint32_t>{0, 1}));
}

TEST(RuleDatabaseTest, EmptyRuleSetCompilesToNothing) {
  RuleSet set;
  auto db = RuleDatabase::Compile(set);
  ASSERT_TRUE(db.ok()) << db.status().message();
  for (int f = 0; f < kFieldCount; ++f) EXPECT_EQ((*db)->database(static_cast<Field>(f)), nullptr);
  Scanner scanner(*db);
  MatchSet matches;
  ASSERT_TRUE(scanner.Scan(Field::kTitle, "anything", matches).ok());
  EXPECT_TRUE(matches.empty());
}

// `ghsift rules explain` compiles the rules with HS_FLAG_SOM_LEFTMOST; the default rule set
// must compile that way too. (Flag mode is compiled and exercised in decision_test.)
TEST(RuleDatabaseTest, DefaultRuleSetCompilesInExplainMode) {
  auto set = LoadRuleSet(std::string(GHSIFT_SOURCE_DIR) + "/rules");
  ASSERT_TRUE(set.ok()) << set.status().message();
  auto explain = RuleDatabase::Compile(*set, RuleDatabase::Mode::kExplain);
  ASSERT_TRUE(explain.ok()) << explain.status().message();
  EXPECT_EQ((*explain)->mode(), RuleDatabase::Mode::kExplain);
  EXPECT_EQ((*explain)->rules().rules.size(), set->rules.size());
}

}  // namespace
}  // namespace ghsift
