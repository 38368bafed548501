// `rescan` after a rule change gives the same store as a fresh ingest with the new rules.
#include "pipelines/rescan.hpp"

#include <gtest/gtest.h>

#include "pipelines/ingest_pipeline.hpp"
#include "pipelines/input_files.hpp"
#include "pipelines/store_scope.hpp"
#include "query/query.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::TempDir;

std::shared_ptr<const RuleDatabase> Compile(const std::string& path) {
  auto rules = LoadRuleSet(path);
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  auto db = RuleDatabase::Compile(*rules);
  EXPECT_TRUE(db.ok()) << db.status().message();
  return *db;
}

void Ingest(const std::string& store_dir, const std::vector<std::string>& files, const std::string& rules_path,
            bool keep_text) {
  auto store = Store::Open(store_dir, StoreMode::kReadWrite);
  ASSERT_TRUE(store.ok());
  auto db = Compile(rules_path);
  ASSERT_TRUE(CheckStoreScope(**store, db->rules(), RepoFilter::All(), keep_text).ok());
  IngestOptions options;
  options.keep_text = keep_text;
  IngestPipeline pipeline(**store, db, RepoFilter::All(), options);
  for (const auto& o : pipeline.Run(files)) ASSERT_EQ(o.result, FileResult::kIngested) << o.message;
}

//! Every flagged report with its categories and rules, and per-category counts.
std::string Flagged(const std::string& store_dir) {
  auto store = Store::Open(store_dir, StoreMode::kRead);
  EXPECT_TRUE(store.ok());
  std::string out;
  for (const std::string kind : {"issue", "pr"}) {
    IssueListOptions list;
    list.kind = kind;
    list.limit = 0;
    auto issues = ListIssues(**store, list);
    EXPECT_TRUE(issues.ok());
    for (const auto& i : issues->issues) {
      out += i.url + " " + i.title + " |";
      for (const auto& c : i.categories) out += " " + c;
      out += " |";
      for (const auto& r : i.rules) out += " " + r;
      out += "\n";
    }
    QueryOptions q;
    q.kind = kind;
    q.dimensions = {"repo", "category", "month"};
    auto table = RunQuery(**store, q);
    EXPECT_TRUE(table.ok());
    for (size_t i = 0; i < table->rows.size(); ++i) {
      out += table->rows[i][0] + "," + table->rows[i][1] + "," + table->rows[i][2] + "=" +
             std::to_string(table->counts[i]) + "\n";
    }
  }
  return out;
}

TEST(RescanTest, RescanWithNewRulesEqualsFreshIngest) {
  TempDir dir;
  testing::Generate(dir / "corpus", 2, 3000, 5, "gz");
  const auto files = ResolveInputs({dir / "corpus"}).value();
  const std::string probe = std::string(GHSIFT_SOURCE_DIR) + "/tests/data/probe_rules.yaml";
  const std::string defaults = std::string(GHSIFT_SOURCE_DIR) + "/rules";
  Ingest(dir / "rescanned", files, probe, true);
  Ingest(dir / "fresh", files, defaults, true);
  const std::string before = Flagged(dir / "rescanned");
  {
    auto store = Store::Open(dir / "rescanned", StoreMode::kReadWrite);
    ASSERT_TRUE(store.ok());
    auto summary = Rescan(**store, Compile(defaults));
    ASSERT_TRUE(summary.ok()) << summary.status().message();
    EXPECT_GT(summary->reports, 100u);
    EXPECT_GE(summary->texts, summary->reports);
    EXPECT_GT(summary->changed, 0u);
  }
  const std::string after = Flagged(dir / "rescanned");
  EXPECT_NE(after, before);
  EXPECT_EQ(after, Flagged(dir / "fresh"));
  EXPECT_NE(after.find("performance"), std::string::npos);
}

TEST(RescanTest, StoreWithoutTextIsRefused) {
  TempDir dir;
  testing::Generate(dir / "corpus", 1, 500, 6, "gz");
  Ingest(dir / "store", ResolveInputs({dir / "corpus"}).value(), std::string(GHSIFT_SOURCE_DIR) + "/rules", false);
  auto store = Store::Open(dir / "store", StoreMode::kReadWrite);
  ASSERT_TRUE(store.ok());
  auto summary = Rescan(**store, Compile(std::string(GHSIFT_SOURCE_DIR) + "/tests/data/probe_rules.yaml"));
  ASSERT_FALSE(summary.ok());
  EXPECT_NE(summary.status().message().find("did not keep report text"), std::string::npos);
}

}  // namespace
}  // namespace ghsift
