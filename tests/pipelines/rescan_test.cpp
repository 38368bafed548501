// `rescan` after a rule change gives the same store as a fresh ingest with the new rules.
#include "pipelines/rescan.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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

// Without --keep-text the store kept the latest text of each flagged report: those are
// re-decided with the new rules; a report never flagged has no text and keeps its matches.
TEST(RescanTest, StoreWithoutEventTextsIsReDecidedFromLatestTexts) {
  TempDir dir;
  {
    std::ofstream out(dir / "2024-01-05-0.json");
    const auto issue = [](int number, const char* title) {
      return std::string(R"({"id":")") + std::to_string(number) +
             R"(","type":"IssuesEvent","actor":{"id":1,"login":"a"},"repo":{"id":7,"name":"o/r","url":"u"},)"
             R"("payload":{"action":"opened","issue":{"number":)" + std::to_string(number) + R"(,"title":")" + title +
             R"(","body":"","labels":[],"state":"open","comments":0,"created_at":"2024-01-05T00:00:00Z"}},)"
             R"("public":true,"created_at":"2024-01-05T00:00:00Z"})" + "\n";
    };
    out << issue(1, "Training is slow") << issue(2, "Docs have a typo") << issue(3, "Slow and leaking memory");
  }
  {
    std::ofstream(dir / "old.yaml") << "rules:\n  - {id: p.slow, tag: performance/low-speed, pattern: slow, "
                                       "flags: [caseless]}\n  - {id: p.leak, tag: performance/memory, pattern: leak}\n";
    // The edit: p.slow narrowed, p.leak weaker, and a new rule that would match report 2.
    std::ofstream(dir / "new.yaml") << "rules:\n  - {id: p.slow, tag: performance/low-speed, pattern: 'is slow', "
                                       "flags: [caseless]}\n"
                                       "  - {id: p.leak, tag: performance/memory, pattern: leak, weight: 0.5}\n"
                                       "  - {id: p.typo, tag: performance/x, pattern: typo}\n";
  }
  Ingest(dir / "store", {dir / "2024-01-05-0.json"}, dir / "old.yaml", false);
  EXPECT_EQ(Flagged(dir / "store"),
            "https://github.com/o/r/issues/1 Training is slow | performance | p.slow\n"
            "https://github.com/o/r/issues/3 Slow and leaking memory | performance | p.leak p.slow\n"
            "o/r,performance,2024-01=2\n");
  {
    auto store = Store::Open(dir / "store", StoreMode::kReadWrite);
    ASSERT_TRUE(store.ok());
    auto summary = Rescan(**store, Compile(dir / "new.yaml"));
    ASSERT_TRUE(summary.ok()) << summary.status().message();
    EXPECT_FALSE(summary->exact);
    EXPECT_EQ(summary->reports, 3u);
    EXPECT_EQ(summary->without_text, 1u);  // report 2 was never flagged: no text kept
    EXPECT_EQ(summary->texts, 2u);
    EXPECT_EQ(summary->changed, 1u);       // report 3 no longer matches p.slow
  }
  // Report 3 (p.leak alone, 0.5) is no longer flagged; report 1 still is; report 2 keeps its
  // (empty) matches: the new rule cannot reach it.
  EXPECT_EQ(Flagged(dir / "store"),
            "https://github.com/o/r/issues/1 Training is slow | performance | p.slow\n"
            "o/r,performance,2024-01=1\n");
}

//! The distinct reports of a store, as `stats` and `query --kind all` count them.
int64_t DistinctReports(const std::string& store_dir) {
  auto store = Store::Open(store_dir, StoreMode::kRead);
  EXPECT_TRUE(store.ok());
  QueryOptions all;
  all.kind = "all";
  auto table = RunQuery(**store, all);
  EXPECT_TRUE(table.ok()) << table.status().message();
  return table.ok() && !table->counts.empty() ? table->counts[0] : 0;
}

//! Rescans the store at `store_dir` with the rules at `rules_path`.
RescanSummary RescanStore(const std::string& store_dir, const std::string& rules_path) {
  auto store = Store::Open(store_dir, StoreMode::kReadWrite);
  EXPECT_TRUE(store.ok());
  auto summary = Rescan(**store, Compile(rules_path));
  EXPECT_TRUE(summary.ok()) << summary.status().message();
  return summary.ok() ? *summary : RescanSummary{};
}

// `rescan` counted every issue record, `stats` the distinct reports: a merged pull request's
// "fixes #12" of an issue never seen leaves a record that is no report (no event, no text), so
// rescan said one report more per such issue (the audit: 13,083 against 13,074). Now rescan counts
// the reports, as stats does, and the references apart.
TEST(RescanTest, CountsTheReportsStatsCountsAndTheClosingReferencesApart) {
  TempDir dir;
  {
    std::ofstream out(dir / "2024-01-05-0.json");
    out << R"({"id":"1","type":"IssuesEvent","actor":{"id":1,"login":"a"},"repo":{"id":7,"name":"o/r"},)"
           R"("payload":{"action":"opened","issue":{"number":1,"title":"Training is slow","body":"","labels":[],)"
           R"("state":"open","comments":0,"created_at":"2024-01-05T00:00:00Z"}},"public":true,)"
           R"("created_at":"2024-01-05T00:00:00Z"})" "\n"
        << R"({"id":"2","type":"PullRequestEvent","actor":{"id":1,"login":"a"},"repo":{"id":7,"name":"o/r"},)"
           R"("payload":{"action":"closed","number":2,"pull_request":{"number":2,"title":"Speed up the loader",)"
           R"("body":"fixes #12","state":"closed","merged":true,"created_at":"2024-01-05T00:00:00Z",)"
           R"("closed_at":"2024-01-05T00:00:01Z"}},"public":true,"created_at":"2024-01-05T00:00:01Z"})" "\n";
  }
  const std::string rules = testing::ProbeRules();
  for (const bool keep_text : {true, false}) {
    const std::string store = dir / (keep_text ? "exact" : "latest");
    Ingest(store, {dir / "2024-01-05-0.json"}, rules, keep_text);
    EXPECT_EQ(DistinctReports(store), 2);
    const RescanSummary summary = RescanStore(store, rules);
    EXPECT_EQ(summary.exact, keep_text);
    EXPECT_EQ(summary.reports, 2u) << keep_text;
    EXPECT_EQ(summary.references, 1u) << keep_text;  // issue 12, named by PR 2 only
  }
  const testing::CommandResult r = testing::RunCommand(testing::Ghsift() + " rescan --store " + (dir / "exact") +
                                                       " --rules " + rules);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output,
            "ghsift: rescanned 2 reports (2 texts); 0 changed their matched rules\n"
            "ghsift: 1 issue known only as closed by a merged pull request (never seen, no text): no report, left "
            "as it is\n");
  const testing::CommandResult stats = testing::RunCommand(testing::Ghsift() + " stats --format json --store " + (dir / "exact"));
  EXPECT_NE(stats.output.find("\"reports\": 2,"), std::string::npos) << stats.output;
}

// Without --keep-text a rule unchanged since the ingest keeps what it matched then, from every
// event's text: a report renamed after the title that matched ("Training is slow", then "Training
// loop") stays flagged after a rescan with the same rules (it lost p.slow before: the latest title
// does not hold "slow"). Only an edited rule is matched again, against the latest text.
TEST(RescanTest, WithoutEventTextsARuleUnchangedSinceTheIngestKeepsItsMatches) {
  TempDir dir;
  {
    std::ofstream out(dir / "2024-01-05-0.json");
    const auto issue = [](int id, const char* action, const char* title, const char* time) {
      return std::string(R"({"id":")") + std::to_string(id) + R"(","type":"IssuesEvent","actor":{"id":1,"login":"a"},)"
             R"("repo":{"id":7,"name":"o/r"},"payload":{"action":")" + action +
             R"(","issue":{"number":1,"title":")" + title +
             R"(","body":"","labels":[],"state":"open","comments":0,"created_at":"2024-01-05T00:00:00Z"}},)"
             R"("public":true,"created_at":")" + time + R"("})" + "\n";
    };
    out << issue(1, "opened", "Training is slow", "2024-01-05T00:00:00Z")
        << issue(2, "edited", "Training loop", "2024-01-05T00:10:00Z");
  }
  const std::string rules = "rules:\n  - {id: p.slow, tag: performance/low-speed, pattern: slow, flags: [caseless]}\n"
                            "  - {id: p.loop, tag: performance/x, pattern: loop, weight: 0.5}\n";
  std::ofstream(dir / "same.yaml") << rules;
  std::ofstream(dir / "heavier.yaml") << "rules:\n  - {id: p.slow, tag: performance/low-speed, pattern: slow, "
                                         "flags: [caseless]}\n  - {id: p.loop, tag: performance/x, pattern: loop}\n";
  std::ofstream(dir / "edited.yaml") << "rules:\n  - {id: p.slow, tag: performance/low-speed, pattern: 'slow|sluggish', "
                                        "flags: [caseless]}\n  - {id: p.loop, tag: performance/x, pattern: loop}\n";
  Ingest(dir / "store", {dir / "2024-01-05-0.json"}, dir / "same.yaml", false);
  const std::string flagged =
      "https://github.com/o/r/issues/1 Training loop | performance | p.loop p.slow\n"
      "o/r,performance,2024-01=1\n";
  ASSERT_EQ(Flagged(dir / "store"), flagged);

  RescanSummary same = RescanStore(dir / "store", dir / "same.yaml");
  EXPECT_FALSE(same.exact);
  EXPECT_EQ(same.rules, 2u);
  EXPECT_EQ(same.rematched_rules, 0u);
  EXPECT_EQ(same.changed, 0u);
  EXPECT_EQ(Flagged(dir / "store"), flagged);

  // A weight is no pattern: p.loop still matches what it matched.
  RescanSummary heavier = RescanStore(dir / "store", dir / "heavier.yaml");
  EXPECT_EQ(heavier.rematched_rules, 0u);
  EXPECT_EQ(heavier.changed, 0u);
  EXPECT_EQ(Flagged(dir / "store"), flagged);

  // The edited p.slow is matched again against the latest title alone, which does not hold it.
  RescanSummary edited = RescanStore(dir / "store", dir / "edited.yaml");
  EXPECT_EQ(edited.rules, 2u);
  EXPECT_EQ(edited.rematched_rules, 1u);
  EXPECT_EQ(edited.changed, 1u);
  EXPECT_EQ(Flagged(dir / "store"),
            "https://github.com/o/r/issues/1 Training loop | performance | p.loop\n"
            "o/r,performance,2024-01=1\n");

  const testing::CommandResult r = testing::RunCommand(testing::Ghsift() + " rescan --store " + (dir / "store") +
                                                       " --rules " + (dir / "edited.yaml"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output,
            "ghsift: no rule is new or edited since the ingest: every report keeps what it matched then (exact), "
            "decided with these weights and thresholds; 0 changed their matched rules\n");
}

// The real hours (read in place): rescan and stats give the same count of reports, 10,230, and the
// 9 issues only a merged pull request named are counted apart (rescan said 10,239 before).
TEST(RescanTest, OnTheRealHoursRescanAndStatsCountTheSameReports) {
  const std::string hours = std::string(GHSIFT_SOURCE_DIR) + "/../shared/data/gharchive-real/hours";
  if (!std::filesystem::exists(hours)) GTEST_SKIP() << "no real data at " << hours;
  TempDir dir;
  Ingest(dir / "store", ResolveInputs({hours}).value(), testing::ProbeRules(), true);
  EXPECT_EQ(DistinctReports(dir / "store"), 10230);
  const RescanSummary summary = RescanStore(dir / "store", testing::ProbeRules());
  EXPECT_EQ(summary.reports, 10230u);
  EXPECT_EQ(summary.references, 9u);
}

}  // namespace
}  // namespace ghsift
