// Filters that never answer silently, facets that never count as flags, and repositories found by
// any name they had (issue 14).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "query/query_test_support.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;
using Row = std::vector<std::string>;
using CellList = std::vector<std::pair<Row, int64_t>>;

int64_t Time(const char* iso) { return *ParseIsoTime(iso); }

//! One file in which repo 7 is renamed apache/incubator-mxnet -> apache/mxnet, plus b/two:
//!   mxnet#1 2024-01-10 open   perf.mem + stage.train -> performance; facet stage/training
//!   mxnet#2 2024-01-20 closed stage.train only       -> no problem: never listed
//!   b/two#3 2024-02-05 open   perf.slow, acc.nan     -> accuracy, performance
//!   b/two#4 2024-02-06 closed perf.slow              -> performance
class FiltersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::path(::testing::TempDir()) / "ghsift-filters-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    auto store = Store::Open((fs::path(dir_) / "store").string(), StoreMode::kReadWrite);
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(store).value();
    RuleSet rules;
    rules.rules = {testing::TaggedRule("perf.slow", "performance/low-speed"), testing::TaggedRule("perf.mem", "performance/memory"),
                   testing::TaggedRule("acc.nan", "accuracy/nan-inf"), testing::TaggedRule("stage.train", "stage/training")};
    rules.facets = {"stage"};
    ASSERT_TRUE(store_->PutMeta("rules", DecisionModel::FromRuleSet(rules).Serialize()).ok());
    FileAggregate a;
    auto report = [&](const Event& e, std::vector<std::string> ids) {
      a.CountEvent(e);
      a.AddReport(e, std::move(ids));
    };
    report(testing::IssueReportEvent(7, "apache/incubator-mxnet", "2024-01-10T08:00:00Z", 1, "open", "Memory\tgrows\nwhile training"),
           {"perf.mem", "stage.train"});
    report(testing::IssueReportEvent(7, "apache/mxnet", "2024-01-20T08:00:00Z", 2, "closed", "How to train"), {"stage.train"});
    report(testing::IssueReportEvent(8, "b/two", "2024-02-05T08:00:00Z", 3, "open", "NaN and slow"), {"perf.slow", "acc.nan"});
    report(testing::IssueReportEvent(8, "b/two", "2024-02-06T08:00:00Z", 4, "closed", "Slow"), {"perf.slow"});
    ASSERT_TRUE(store_->CommitFile("a.json.gz", FileEntry{}, a).ok());
  }
  void TearDown() override {
    store_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  //! The cells of a question, asked of the rollup and of the scan: both must agree.
  CellList Query(QueryOptions o) {
    CellList answers[2];
    for (const bool rollup : {true, false}) {
      o.use_rollup = rollup;
      auto table = RunQuery(*store_, o);
      EXPECT_TRUE(table.ok()) << table.status().message();
      if (!table.ok()) return {};
      for (size_t i = 0; i < table->rows.size(); ++i) answers[rollup].emplace_back(table->rows[i], table->counts[i]);
    }
    EXPECT_EQ(answers[0], answers[1]);
    return answers[1];
  }
  std::string Error(const QueryOptions& o) {
    auto table = RunQuery(*store_, o);
    EXPECT_FALSE(table.ok());
    return table.ok() ? "" : table.status().message();
  }
  std::vector<int64_t> Numbers(const IssueListOptions& o) {
    auto list = ListIssues(*store_, o);
    EXPECT_TRUE(list.ok()) << list.status().message();
    std::vector<int64_t> out;
    if (list.ok()) {
      for (const ListedIssue& i : list->issues) out.push_back(i.number);
    }
    return out;
  }

  std::string dir_;
  std::unique_ptr<Store> store_;
};

TEST_F(FiltersTest, FacetsAreNoFlags) {
  QueryOptions o;
  o.dimensions = {"category"};
  ASSERT_TRUE(RefreshRollup(*store_, 1).ok());
  EXPECT_EQ(Query(o), (CellList{{{"accuracy"}, 1}, {{"performance"}, 3}}));
  o.category = "stage";  // a facet is still a filter
  EXPECT_EQ(Query(o), (CellList{{{"stage"}, 2}}));
  QueryOptions facets;
  facets.dimensions = {"facet"};
  EXPECT_EQ(Query(facets), (CellList{{{"(none)"}, 2}, {{"stage/training"}, 2}}));
  QueryOptions subcategories;
  subcategories.dimensions = {"subcategory"};
  EXPECT_EQ(Query(subcategories), (CellList{{{"accuracy/nan-inf"}, 1},
                                            {{"performance/low-speed"}, 2},
                                            {{"performance/memory"}, 1}}));

  auto list = ListIssues(*store_, IssueListOptions{});
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->issues.size(), 3u);  // mxnet#2 has a facet only
  EXPECT_EQ(list->issues[2].number, 1);
  EXPECT_EQ(list->issues[2].categories, (Row{"performance"}));
  EXPECT_EQ(list->issues[2].facets, (Row{"stage/training"}));
  IssueListOptions stage;
  stage.category = "stage";
  EXPECT_EQ(Numbers(stage), (std::vector<int64_t>{1}));
}

TEST_F(FiltersTest, AnyFormerNameFindsTheRepository) {
  for (const char* name : {"apache/mxnet", "apache/incubator-mxnet", "Apache/Incubator-MXNet"}) {
    IssueListOptions o;
    o.repo = name;
    EXPECT_EQ(Numbers(o), (std::vector<int64_t>{1})) << name;
    QueryOptions q;
    q.repo = name;
    q.dimensions = {"repo"};
    EXPECT_EQ(Query(q), (CellList{{{"apache/mxnet"}, 2}})) << name;
  }
}

TEST_F(FiltersTest, UnknownValuesAreErrorsThatListTheValidOnes) {
  QueryOptions o;
  o.category = "perf";
  EXPECT_EQ(Error(o),
            "unknown category 'perf' (did you mean performance?); the store's rule set has accuracy, performance, "
            "stage (facet)");
  o.category = "performance/memory";
  EXPECT_EQ(Error(o), "'performance/memory' is a subcategory: use --subcategory performance/memory");
  o.category.reset();
  o.repo = "mxnet";
  EXPECT_EQ(Error(o),
            "repository 'mxnet' is not in the store under this or any former name (did you mean apache/mxnet?); it "
            "holds 2 repositories: apache/mxnet, b/two");
  o.repo.reset();
  o.subcategory = "performance/memroy";
  EXPECT_EQ(Error(o),
            "unknown subcategory 'performance/memroy' (did you mean performance/memory?); valid: accuracy/nan-inf, "
            "performance/low-speed, performance/memory, stage/training");
  o.subcategory.reset();
  o.dimensions = {"opener"};
  EXPECT_EQ(Error(o),
            "unknown dimension 'opener' (did you mean reopened?); issues dimensions are association, author, author_type, category, "
            "facet, kind, label, month, reopened, repo, resolution, state, subcategory, time_to_close, verdict");
  o.dimensions = {"type"};
  EXPECT_EQ(Error(o),
            "dimension 'type' does not apply to metric issues (it is an event dimension: --metric events); use one of "
            "association, author, author_type, category, facet, kind, label, month, reopened, repo, resolution, state, subcategory, "
            "time_to_close, verdict");
  o.dimensions = {"repo", "month", "repo"};
  EXPECT_EQ(Error(o), "dimension 'repo' is given twice in --by");
  o.dimensions = {"catgory"};
  EXPECT_NE(Error(o).find("(did you mean category?)"), std::string::npos);
  IssueListOptions state;
  state.state = "opened";
  auto bad_state = ListIssues(*store_, state);
  ASSERT_FALSE(bad_state.ok());
  EXPECT_EQ(bad_state.status().message(),
            "--state must be open, closed or unknown, not 'opened' (did you mean open?)");
}

TEST_F(FiltersTest, SubcategoryFilters) {
  QueryOptions o;
  o.subcategory = "performance/memory";
  o.dimensions = {"repo"};
  EXPECT_EQ(Query(o), (CellList{{{"apache/mxnet"}, 1}}));
  o.subcategory = "low-speed";  // a bare subcategory names its one tag
  EXPECT_EQ(Query(o), (CellList{{{"b/two"}, 2}}));
  IssueListOptions l;
  l.subcategory = "performance/low-speed";
  EXPECT_EQ(Numbers(l), (std::vector<int64_t>{4, 3}));
  l.category = "accuracy";
  auto mismatch = ListIssues(*store_, l);
  ASSERT_FALSE(mismatch.ok());
  EXPECT_EQ(mismatch.status().message(), "--subcategory performance/low-speed is not in --category accuracy");
}

TEST_F(FiltersTest, TriageStateRangeAndSort) {
  IssueListOptions o;
  o.state = "open";
  EXPECT_EQ(Numbers(o), (std::vector<int64_t>{3, 1}));
  o.state.reset();
  o.created_from = Time("2024-02-01T00:00:00Z");
  EXPECT_EQ(Numbers(o), (std::vector<int64_t>{4, 3}));
  o.created_to = Time("2024-02-06T00:00:00Z");
  EXPECT_EQ(Numbers(o), (std::vector<int64_t>{3}));
  o.created_from.reset();
  o.created_to.reset();
  o.sort = IssueSort::kScore;  // b/two#3 scores 2 (accuracy + performance), the others 1
  EXPECT_EQ(Numbers(o), (std::vector<int64_t>{3, 1, 4}));
  o.limit = 2;
  auto cut = ListIssues(*store_, o);
  ASSERT_TRUE(cut.ok());
  EXPECT_EQ(cut->issues.size(), 2u);
  EXPECT_EQ(cut->matched, 3u);
}

}  // namespace
}  // namespace ghsift
