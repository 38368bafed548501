// Issue lifecycle end to end: a generated corpus whose PRs close issues ("Fixes #12", merged),
// ingested with every repo tracked, must answer the lifecycle metrics exactly as truth.json
// says: closed issues, how they were resolved, comments and the median days to close, by repo.
// Twice: the default modern layout, and a mixed-layout corpus with the archive's quirks (a
// missing hour, a single-event hour, duplicated events), where some planned events are never
// written.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "pipelines/input_files.hpp"
#include "query/query.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::TempDir;

constexpr int kHours = 6;
constexpr int kEventsPerHour = 2500;

enum class Corpus { kModern, kMixedQuirks };

// One corpus (generated and ingested once) per parameter.
struct Ingested {
  TempDir dir;
  simdjson::padded_string truth;
};

class LifecycleTruthTest : public ::testing::TestWithParam<Corpus> {
 protected:
  static void TearDownTestSuite() {
    for (auto& [corpus, ingested] : corpora_) delete ingested;
    corpora_.clear();
  }

  void SetUp() override {
    Ingested*& ingested = corpora_[GetParam()];
    if (ingested != nullptr) return;
    ingested = new Ingested();
    gen::GenOptions o;
    o.out_dir = ingested->dir / "corpus";
    o.hours = kHours;
    o.events_per_hour = kEventsPerHour;
    o.seed = 20240501;
    o.compress = "gz";
    o.level = 1;
    o.tracked_share = 0.6;
    if (GetParam() == Corpus::kMixedQuirks) {
      o.seed = 77;
      o.schema = "mixed";
      o.quirk_duplicates = 40;
      o.quirk_missing_hours = {1};
      o.quirk_single_event_hours = {4};
    }
    const Status s = gen::Generate(o, nullptr);
    ASSERT_TRUE(s.ok()) << s.message();
    ingested->truth = simdjson::padded_string::load(ingested->dir / "corpus/truth.json").value();
    auto files = ResolveInputs({ingested->dir / "corpus"});
    ASSERT_TRUE(files.ok());
    for (const FileOutcome& f : testing::IngestFiles(ingested->dir / "store", *files, GHSIFT_SOURCE_DIR "/rules")) {
      ASSERT_EQ(f.result, FileResult::kIngested) << f.path << ": " << f.message;
    }
  }

  std::string StoreDir() const { return corpora_.at(GetParam())->dir / "store"; }
  simdjson::dom::element Truth() { return parser_.parse(corpora_.at(GetParam())->truth).value(); }

  QueryTable Query(Metric metric, std::vector<std::string> dimensions) const {
    auto store = Store::Open(StoreDir(), StoreMode::kRead);
    EXPECT_TRUE(store.ok());
    QueryOptions o;
    o.metric = metric;
    o.dimensions = std::move(dimensions);
    o.kind = "issue";
    auto table = RunQuery(**store, o);
    EXPECT_TRUE(table.ok()) << table.status().message();
    return std::move(*table);
  }

  //! {repo: count} of a query by repo.
  std::map<std::string, int64_t> ByRepo(Metric metric) const {
    std::map<std::string, int64_t> out;
    const QueryTable t = Query(metric, {"repo"});
    for (size_t i = 0; i < t.rows.size(); ++i) out[t.rows[i][0]] = t.counts[i];
    return out;
  }

  static std::map<std::string, int64_t> ReadCounts(simdjson::dom::element object) {
    std::map<std::string, int64_t> out;
    for (auto [key, value] : object.get_object()) out[std::string(key)] = value.get_int64();
    return out;
  }

  static std::map<Corpus, Ingested*> corpora_;
  simdjson::dom::parser parser_;
};

std::map<Corpus, Ingested*> LifecycleTruthTest::corpora_;

TEST_P(LifecycleTruthTest, ClosedByRepo) {
  const auto truth = ReadCounts(Truth()["closed_by_repo"]);
  EXPECT_GT(truth.size(), 5u);
  EXPECT_EQ(ByRepo(Metric::kClosed), truth);
}

TEST_P(LifecycleTruthTest, ResolutionByRepo) {
  testing::Nested truth;
  int64_t fixed = 0, without = 0, open = 0;
  for (const auto& [repo, kinds] : testing::ReadNested(Truth()["resolution_by_repo"])) {
    for (const auto& [kind, n] : kinds) {
      if (n > 0) truth[repo][kind] = n;  // the engine has no rows for empty cells
    }
    fixed += kinds.at("fixed_by_pr");
    without += kinds.at("closed_without_pr");
    open += kinds.at("open");
  }
  // The corpus must exercise every outcome, fixes by PR in more than one repo.
  EXPECT_GE(fixed, 10);
  EXPECT_GT(without, 20);
  EXPECT_GT(open, 20);
  int repos_with_fixes = 0;
  for (const auto& [repo, kinds] : truth) repos_with_fixes += kinds.count("fixed_by_pr") ? 1 : 0;
  EXPECT_GT(repos_with_fixes, 2);

  QueryOptions o;
  o.metric = Metric::kIssues;
  o.dimensions = {"repo", "resolution"};
  o.kind = "issue";
  EXPECT_EQ(testing::QueryNested(StoreDir(), o), truth);
}

TEST_P(LifecycleTruthTest, CommentsByRepo) {
  const auto truth = ReadCounts(Truth()["comments_by_repo"]);
  EXPECT_GT(truth.size(), 5u);
  EXPECT_EQ(ByRepo(Metric::kComments), truth);
}

TEST_P(LifecycleTruthTest, MedianDaysToCloseByRepo) {
  std::map<std::string, double> truth;
  for (auto [key, value] : Truth()["median_days_to_close_by_repo"].get_object()) {
    truth[std::string(key)] = value.get_double();
  }
  EXPECT_GT(truth.size(), 5u);
  const QueryTable t = Query(Metric::kMedianDaysToClose, {"repo"});
  ASSERT_EQ(t.values.size(), t.rows.size());
  std::map<std::string, double> got;
  for (size_t i = 0; i < t.rows.size(); ++i) got[t.rows[i][0]] = t.values[i];
  ASSERT_EQ(got.size(), truth.size());
  for (const auto& [repo, days] : truth) {
    ASSERT_TRUE(got.count(repo)) << repo;
    EXPECT_NEAR(got[repo], days, 1e-6) << repo;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpora, LifecycleTruthTest, ::testing::Values(Corpus::kModern, Corpus::kMixedQuirks),
                         [](const ::testing::TestParamInfo<Corpus>& info) {
                           return info.param == Corpus::kModern ? "Modern" : "MixedQuirks";
                         });

}  // namespace
}  // namespace ghsift
