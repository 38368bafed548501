#include "rollup/rollup.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/time_util.hpp"
#include "pipelines/input_files.hpp"
#include "query/query_test_support.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::TaggedRule;
using testing::TempDir;

//! Every question the rollup can answer, with filters: it must give what reading every report gives.
std::vector<QueryOptions> RollupQuestions() {
  std::vector<QueryOptions> out;
  const std::vector<std::vector<std::string>> dimension_sets = {
      {}, {"repo"}, {"month"}, {"category"}, {"state"}, {"kind"}, {"repo", "month", "category"},
      {"category", "state", "kind"}, {"month", "repo", "state", "category", "kind"}};
  for (const auto& dims : dimension_sets) {
    for (const Metric metric : {Metric::kIssues, Metric::kClosed}) {
      for (const char* kind : {"issue", "pr", "all"}) {
        QueryOptions o;
        o.dimensions = dims;
        o.metric = metric;
        o.kind = kind;
        out.push_back(o);
        o.category = "probe_title";
        out.push_back(o);
        o.category.reset();
        o.repo = "tensorflow/tensorflow";
        out.push_back(o);
        o.repo.reset();
        o.from_month = o.to_month = *ParseMonth("2024-01");
        out.push_back(o);
      }
    }
  }
  return out;
}

std::string Describe(const QueryOptions& o) {
  std::string s = MetricName(o.metric) + " kind=" + o.kind + " by";
  for (const auto& d : o.dimensions) s += " " + d;
  if (o.category) s += " category=" + *o.category;
  if (o.repo) s += " repo=" + *o.repo;
  if (o.from_month) s += " one month";
  return s;
}

//! Asserts that every rollup question gets the scan's answer (and the answer is not empty).
void ExpectRollupEqualsScan(const std::string& store_dir) {
  auto store = Store::Open(store_dir, StoreMode::kRead);
  ASSERT_TRUE(store.ok()) << store.status().message();
  int64_t total = 0;
  for (QueryOptions o : RollupQuestions()) {
    auto rollup = RunQuery(**store, o);
    o.use_rollup = false;
    auto scan = RunQuery(**store, o);
    // A question the store cannot answer (a category its rule model lacks) is the same error both ways.
    ASSERT_EQ(rollup.ok(), scan.ok()) << Describe(o);
    if (!scan.ok()) {
      EXPECT_EQ(rollup.status().message(), scan.status().message()) << Describe(o);
      continue;
    }
    EXPECT_EQ(rollup->rows, scan->rows) << Describe(o);
    EXPECT_EQ(rollup->counts, scan->counts) << Describe(o);
    for (int64_t c : scan->counts) total += c;
  }
  EXPECT_GT(total, 0);
}

size_t StaleReports(const std::string& store_dir) {
  auto store = Store::Open(store_dir, StoreMode::kRead);
  size_t n = 0;
  EXPECT_TRUE((*store)
                  ->ScanStaleIssues([&](int64_t, int64_t, const std::optional<IssueRecord>&, std::string_view) {
                    ++n;
                    return Status::Ok();
                  })
                  .ok());
  return n;
}

Status Refresh(const std::string& store_dir, size_t threads = 0) {
  auto store = Store::Open(store_dir, StoreMode::kReadWrite);
  if (!store.ok()) return store.status();
  return RefreshRollup(**store, threads).status();
}

//! The non-zero rollup cells of a store.
std::map<std::string, int64_t> RollupCells(const std::string& dir) {
  auto store = Store::Open(dir, StoreMode::kRead);
  std::map<std::string, int64_t> cells;
  EXPECT_TRUE((*store)
                  ->ScanRollup("", [&](std::string_view k, int64_t n) {
                    if (n != 0) cells[std::string(k)] = n;
                  })
                  .ok());
  return cells;
}

bool HasRollup(const std::string& store_dir) {
  auto store = Store::Open(store_dir, StoreMode::kRead);
  auto version = (*store)->GetMeta(Store::kRollupMetaKey);
  return version.ok() && version->has_value();
}

class RollupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    gen::GenOptions o;
    o.out_dir = dir_ / "corpus";
    o.hours = 4;
    o.events_per_hour = 3000;
    o.seed = 41;
    o.level = 1;
    o.tracked_share = 0.5;
    o.start_hour = "2024-01-31T22";  // two months, so month filters cut
    ASSERT_TRUE(gen::Generate(o, nullptr).ok());
    files_ = ResolveInputs({dir_ / "corpus"}).value();
    ASSERT_EQ(files_.size(), 4u);
  }

  TempDir dir_;
  std::vector<std::string> files_;
};

TEST_F(RollupTest, AnswersEqualTheScanBeforeAndAfterEachRefresh) {
  const std::string store = dir_ / "store";
  testing::IngestFiles(store, {files_[0], files_[1]}, testing::ProbeRules());
  // Never refreshed: no rollup yet, so queries read every report.
  EXPECT_FALSE(HasRollup(store));
  ExpectRollupEqualsScan(store);

  ASSERT_TRUE(Refresh(store).ok());
  EXPECT_TRUE(HasRollup(store));
  EXPECT_EQ(StaleReports(store), 0u);
  ExpectRollupEqualsScan(store);

  // Two more files touch reports already counted (comments, closes): they are stale until the
  // next refresh, and readers move them on the fly meanwhile.
  testing::IngestFiles(store, {files_[2], files_[3]}, testing::ProbeRules());
  EXPECT_GT(StaleReports(store), 0u);
  ExpectRollupEqualsScan(store);

  ASSERT_TRUE(Refresh(store).ok());
  EXPECT_EQ(StaleReports(store), 0u);
  ExpectRollupEqualsScan(store);
}

TEST_F(RollupTest, RefreshedPieceByPieceEqualsBuiltAtOnce) {
  const std::string a = dir_ / "a", b = dir_ / "b";
  for (const std::string& f : files_) {
    testing::IngestFiles(a, {f}, testing::ProbeRules());
    ASSERT_TRUE(Refresh(a).ok());
  }
  testing::IngestFiles(b, files_, testing::ProbeRules());
  ASSERT_TRUE(Refresh(b).ok());
  const auto cells = RollupCells(a);
  EXPECT_EQ(cells, RollupCells(b));
  // The report cells ("" category) count each report once: as many as the store has reports.
  int64_t in_cells = 0, reports = 0;
  for (const auto& [key, n] : cells) {
    RollupCell cell;
    if (key.starts_with("T")) continue;  // the store's totals (ReadReportTotals), checked below
    ASSERT_TRUE(DecodeRollupKey(key, &cell));
    EXPECT_GT(n, 0) << "no cell goes negative";
    if (cell.category.empty()) in_cells += n;
  }
  auto store = Store::Open(b, StoreMode::kRead);
  ASSERT_TRUE((*store)
                  ->ScanIssues(std::nullopt,
                               [&](int64_t, int64_t, const IssueRecord& r) {
                                 if (!r.reference_only()) ++reports;
                                 return Status::Ok();
                               })
                  .ok());
  EXPECT_GT(reports, 100);
  EXPECT_EQ(in_cells, reports);
  auto totals = ReadReportTotals(**store, LoadStoreModel(**store).value());
  ASSERT_TRUE(totals.ok() && totals->has_value());
  EXPECT_EQ(static_cast<int64_t>((*totals)->reports[0] + (*totals)->reports[1]), reports);
}

// A refresh shares the reports between threads by ranges of repository ids: one thread or
// three give the same cells, when building the rollup and when moving stale reports.
TEST_F(RollupTest, RefreshThreadsDoNotChangeTheCells) {
  const std::string one = dir_ / "one", three = dir_ / "three";
  for (const std::string& dir : {one, three}) {
    testing::IngestFiles(dir, {files_[0], files_[1]}, testing::ProbeRules());
    ASSERT_TRUE(Refresh(dir, dir == one ? 1 : 3).ok());
  }
  EXPECT_EQ(RollupCells(one), RollupCells(three));
  for (const std::string& dir : {one, three}) {
    testing::IngestFiles(dir, {files_[2], files_[3]}, testing::ProbeRules());
    EXPECT_GT(StaleReports(dir), 100u);
    ASSERT_TRUE(Refresh(dir, dir == one ? 1 : 3).ok());
    EXPECT_EQ(StaleReports(dir), 0u);
  }
  EXPECT_EQ(RollupCells(one), RollupCells(three));
  ExpectRollupEqualsScan(three);
}

TEST_F(RollupTest, ClearedRollupIsRebuiltWhole) {
  const std::string store = dir_ / "store";
  testing::IngestFiles(store, files_, testing::ProbeRules());
  ASSERT_TRUE(Refresh(store).ok());
  {
    auto writer = Store::Open(store, StoreMode::kReadWrite);
    ASSERT_TRUE((*writer)->ClearRollup().ok());
  }
  // A store without a rollup (made before it existed, or a rebuild cut short) is answered by scan...
  EXPECT_FALSE(HasRollup(store));
  ExpectRollupEqualsScan(store);
  // ...and the next refresh rebuilds it from every report.
  ASSERT_TRUE(Refresh(store).ok());
  EXPECT_TRUE(HasRollup(store));
  ExpectRollupEqualsScan(store);
}

TEST_F(RollupTest, ReplacingRecordsInvalidatesTheRollup) {
  const std::string store = dir_ / "store";
  testing::IngestFiles(store, files_, testing::ProbeRules());
  ASSERT_TRUE(Refresh(store).ok());
  {
    // What rescan does: a new rule model in meta, records rewritten in one batch.
    auto writer = Store::Open(store, StoreMode::kReadWrite);
    ASSERT_TRUE((*writer)->ReplaceIssues({}, {{"rules", ""}}).ok());
  }
  EXPECT_FALSE(HasRollup(store));
  ASSERT_TRUE(Refresh(store).ok());
  ExpectRollupEqualsScan(store);
}

// A part read in two halves at once (a large store's) gives the cells and moves of one pass, in
// its order: the reports' cells and the categories' cells, with stale reports moving.
TEST_F(RollupTest, APartReadInTwoHalvesGivesTheCellsOfOnePassInItsOrder) {
  const std::string store_dir = dir_ / "store";
  testing::IngestFiles(store_dir, {files_[0], files_[1]}, testing::ProbeRules());
  ASSERT_TRUE(Refresh(store_dir).ok());
  testing::IngestFiles(store_dir, {files_[2], files_[3]}, testing::ProbeRules());
  {
    auto writer = Store::Open(store_dir, StoreMode::kReadWrite);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Finish().ok());  // in table files, whose sizes RocksDB estimates
  }
  EXPECT_GT(StaleReports(store_dir), 0u);
  auto store = Store::Open(store_dir, StoreMode::kRead);
  ASSERT_TRUE(store.ok());
  const DecisionModel model = LoadStoreModel(**store).value();
  auto read = [&](RollupPart part, uint64_t split_above_bytes) {
    std::vector<std::pair<std::string, int64_t>> out;
    auto complete = ReadRollup(
        **store, model, part, std::nullopt,
        [&](std::string_view key, int64_t n) { out.emplace_back(std::string(key), n); }, split_above_bytes);
    EXPECT_TRUE(complete.ok() && *complete);
    return out;
  };
  for (const RollupPart part : {RollupPart::kReports, RollupPart::kCategories}) {
    EXPECT_FALSE(RollupSplit(**store, part, UINT64_MAX).has_value());
    const std::optional<std::string> split = RollupSplit(**store, part, 0);
    ASSERT_TRUE(split.has_value());
    const auto whole = read(part, UINT64_MAX);
    EXPECT_GT(whole.size(), 100u);
    // Both halves hold cells (the stored ones come first; the stale reports' moves follow).
    EXPECT_LT(whole.front().first, *split);
    EXPECT_TRUE(std::any_of(whole.begin(), whole.end(), [&](const auto& cell) { return cell.first >= *split; }));
    EXPECT_EQ(read(part, 0), whole);
  }
}

TEST(RollupKeyTest, KeysDecodeToTheirCell) {
  RuleSet rules;
  rules.rules = {TaggedRule("perf.slow", "performance/low-speed")};
  const DecisionModel model = DecisionModel::FromRuleSet(rules);
  IssueRecord r;
  r.kind = 1;
  r.created_at = *ParseIsoTime("2019-03-04T05:06:07Z");
  r.state = "closed";
  r.events = 2;
  r.rules = {"perf.slow"};
  const std::vector<std::string> keys = RollupKeysOf(model, 4242, r);
  ASSERT_EQ(keys.size(), 2u);
  RollupCell cell;
  ASSERT_TRUE(DecodeRollupKey(keys[0], &cell));
  EXPECT_EQ(cell.repo_id, 4242);
  EXPECT_EQ(FormatMonth(cell.month), "2019-03");
  EXPECT_EQ(cell.kind, 1);
  EXPECT_EQ(cell.state, "closed");
  EXPECT_EQ(cell.category, "");
  ASSERT_TRUE(DecodeRollupKey(keys[1], &cell));
  EXPECT_EQ(cell.category, "performance");
  // No state seen yet, and a report known only from a closing reference.
  r.state.clear();
  const std::string unknown_state = RollupKeysOf(model, 1, r)[0];  // the cell's views point into it
  ASSERT_TRUE(DecodeRollupKey(unknown_state, &cell));
  EXPECT_EQ(cell.state, "(unknown)");
  r.events = 0;
  EXPECT_TRUE(RollupKeysOf(model, 1, r).empty());
  EXPECT_FALSE(DecodeRollupKey("short", &cell));
}

}  // namespace
}  // namespace ghsift
