#include "query/query.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "common/time_util.hpp"
#include "json/event_extractor.hpp"
#include "query/query_test_support.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;

using Row = std::vector<std::string>;

int64_t Time(const char* iso) { return *ParseIsoTime(iso); }

Event MakeEvent(std::string_view type, int64_t repo_id, std::string_view repo_name, const char* time) {
  Event e;
  e.type = type;
  e.kind = EventKindOf(type);
  e.repo_id = repo_id;
  e.repo_name = repo_name;
  e.created_at = Time(time);
  return e;
}

Event MakeReport(std::string_view type, int64_t repo_id, std::string_view repo_name, const char* time, int64_t number,
                 ReportKind kind, const char* created, std::string_view title, std::string_view state,
                 std::vector<std::string_view> labels) {
  Event e = MakeEvent(type, repo_id, repo_name, time);
  e.has_report = true;
  e.report.kind = kind;
  e.report.number = number;
  e.report.created_at = Time(created);
  e.report.text[Field::kTitle] = title;
  e.report.state = state;
  e.report.labels = std::move(labels);
  return e;
}

//! A small store:
//!   repo 1 "Org/Fast", renamed "org/faster" in March; repo 2 "b/two".
//!   r1#1 issue 2015-01 closed {bug, performance}  rules perf.slow          -> performance
//!   r1#2 issue 2015-02 closed {}                  rules perf.weak          -> (none)
//!   r1#3 pr    2015-02 closed {perf}              rules perf.slow, acc.nan -> accuracy, performance
//!   r2#1 issue 2015-02 open   {bug}               rules acc.nan, perf.weak -> accuracy
//!   r2#5 issue 2015-03 closed {}                  rules perf.slow          -> performance
class QueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::path(::testing::TempDir()) / "ghsift-query-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    auto store = Store::Open((fs::path(dir_) / "store").string(), StoreMode::kReadWrite);
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(store).value();

    RuleSet rules;
    rules.rules = {testing::TaggedRule("perf.slow", "performance/low-speed", 1.0), testing::TaggedRule("perf.weak", "performance", 0.5),
                   testing::TaggedRule("acc.nan", "accuracy/nan-inf", 1.0)};
    ASSERT_TRUE(store_->PutMeta("rules", DecisionModel::FromRuleSet(rules).Serialize()).ok());

    FileAggregate a;
    auto count = [](FileAggregate& agg, const Event& e) { agg.CountEvent(e); };
    auto report = [](FileAggregate& agg, const Event& e, std::vector<std::string> ids) {
      agg.CountEvent(e);
      agg.AddReport(e, std::move(ids));
    };
    count(a, MakeEvent("PushEvent", 1, "Org/Fast", "2015-01-05T10:00:00Z"));
    report(a,
           MakeReport("IssuesEvent", 1, "Org/Fast", "2015-01-05T11:00:00Z", 1, ReportKind::kIssue,
                      "2015-01-05T11:00:00Z", "Training is slow", "open", {"bug", "performance"}),
           {"perf.slow"});
    report(a,
           MakeReport("IssuesEvent", 1, "Org/Fast", "2015-02-10T00:00:00Z", 2, ReportKind::kIssue,
                      "2015-02-10T00:00:00Z", "A bit slow", "closed", {}),
           {"perf.weak"});
    report(a,
           MakeReport("PullRequestEvent", 1, "Org/Fast", "2015-02-11T00:00:00Z", 3, ReportKind::kPullRequest,
                      "2015-02-11T00:00:00Z", "Fix NaN and speed", "closed", {"perf"}),
           {"perf.slow", "acc.nan"});
    count(a, MakeEvent("WatchEvent", 2, "b/two", "2015-02-11T00:00:00Z"));
    ASSERT_TRUE(store_->CommitFile("a.json.gz", FileEntry{}, a).ok());

    FileAggregate b;
    report(b,
           MakeReport("IssuesEvent", 2, "b/two", "2015-02-20T00:00:00Z", 1, ReportKind::kIssue,
                      "2015-02-20T00:00:00Z", "NaN loss", "open", {"bug"}),
           {"acc.nan", "perf.weak"});
    count(b, MakeEvent("PushEvent", 1, "org/faster", "2015-03-01T00:00:00Z"));
    report(b,
           MakeReport("IssuesEvent", 2, "b/two", "2015-03-01T00:00:00Z", 5, ReportKind::kIssue,
                      "2015-03-01T00:00:00Z", "Very slow", "closed", {}),
           {"perf.slow"});
    report(b,
           MakeReport("IssueCommentEvent", 1, "org/faster", "2015-03-02T00:00:00Z", 1, ReportKind::kIssue,
                      "2015-01-05T11:00:00Z", "Training is slow", "closed", {"bug", "performance"}),
           {});
    ASSERT_TRUE(store_->CommitFile("b.json.gz", FileEntry{}, b).ok());
  }
  void TearDown() override {
    store_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  //! Runs a query and returns its cells as (row, count) pairs.
  std::vector<std::pair<Row, int64_t>> Query(const QueryOptions& options) {
    auto table = RunQuery(*store_, options);
    EXPECT_TRUE(table.ok()) << table.status().message();
    std::vector<std::pair<Row, int64_t>> cells;
    if (!table.ok()) return cells;
    EXPECT_EQ(table->rows.size(), table->counts.size());
    for (size_t i = 0; i < table->rows.size(); ++i) cells.emplace_back(table->rows[i], table->counts[i]);
    return cells;
  }

  std::string dir_;
  std::unique_ptr<Store> store_;
};

using CellList = std::vector<std::pair<Row, int64_t>>;

TEST_F(QueryTest, IssuesByRepoAndCategory) {
  QueryOptions o;
  o.dimensions = {"repo", "category"};
  EXPECT_EQ(Query(o), (CellList{{{"b/two", "accuracy"}, 1}, {{"b/two", "performance"}, 1}, {{"org/faster", "performance"}, 1}}));
  auto table = RunQuery(*store_, o);
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(table->columns, (Row{"repo", "category", "issues"}));
}

TEST_F(QueryTest, IssuesByMonth) {
  QueryOptions o;
  o.dimensions = {"month"};
  EXPECT_EQ(Query(o), (CellList{{{"2015-01"}, 1}, {{"2015-02"}, 2}, {{"2015-03"}, 1}}));
}

TEST_F(QueryTest, IssuesByLabel) {
  QueryOptions o;
  o.dimensions = {"label"};
  EXPECT_EQ(Query(o), (CellList{{{"(none)"}, 2}, {{"bug"}, 2}, {{"performance"}, 1}}));
}

TEST_F(QueryTest, IssuesByState) {
  QueryOptions o;
  o.dimensions = {"state"};
  EXPECT_EQ(Query(o), (CellList{{{"closed"}, 3}, {{"open"}, 1}}));
}

TEST_F(QueryTest, IssuesTotal) {
  QueryOptions o;
  EXPECT_EQ(Query(o), (CellList{{{}, 4}}));
}

TEST_F(QueryTest, CategoryFilter) {
  QueryOptions o{};
  o.category.emplace("performance");
  o.dimensions = {"month", "category"};
  EXPECT_EQ(Query(o), (CellList{{{"2015-01", "performance"}, 1}, {{"2015-03", "performance"}, 1}}));
  o.category = "accuracy";
  o.dimensions = {"repo"};
  EXPECT_EQ(Query(o), (CellList{{{"b/two"}, 1}}));
  o.category = "silent";  // not in the store's rule set: an error, never an empty answer
  auto unknown = RunQuery(*store_, o);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(), "unknown category 'silent'; the store's rule set has accuracy, performance");
}

TEST_F(QueryTest, KindPullRequestVersusIssue) {
  QueryOptions o;
  o.kind = "pr";
  o.dimensions = {"category"};
  EXPECT_EQ(Query(o), (CellList{{{"accuracy"}, 1}, {{"performance"}, 1}}));
  o.kind = "all";
  o.dimensions = {"kind"};
  EXPECT_EQ(Query(o), (CellList{{{"issue"}, 4}, {{"pr"}, 1}}));
  o.kind = "all";
  o.dimensions = {"category"};
  EXPECT_EQ(Query(o), (CellList{{{"accuracy"}, 2}, {{"performance"}, 3}}));
}

TEST_F(QueryTest, RepoFilterByAnyNameInAnyCase) {
  QueryOptions o;
  o.repo = "ORG/FAST";  // the old name
  o.dimensions = {"repo", "state"};
  EXPECT_EQ(Query(o), (CellList{{{"org/faster", "closed"}, 2}}));
  o.repo = "org/faster";
  EXPECT_EQ(Query(o), (CellList{{{"org/faster", "closed"}, 2}}));
  o.repo = "nobody/none";  // an error that says what the store holds
  auto unknown = RunQuery(*store_, o);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "repository 'nobody/none' is not in the store under this or any former name; it holds 2 repositories: "
            "b/two, org/faster");
}

TEST_F(QueryTest, FromAndToMonths) {
  QueryOptions o;
  o.dimensions = {"month"};
  o.from_month = *ParseMonth("2015-02");
  o.to_month = *ParseMonth("2015-02");
  EXPECT_EQ(Query(o), (CellList{{{"2015-02"}, 2}}));
  o.to_month.reset();
  EXPECT_EQ(Query(o), (CellList{{{"2015-02"}, 2}, {{"2015-03"}, 1}}));
  o.from_month.reset();
  o.to_month = *ParseMonth("2015-01");
  EXPECT_EQ(Query(o), (CellList{{{"2015-01"}, 1}}));
}

TEST_F(QueryTest, EventsByType) {
  QueryOptions o;
  o.metric = Metric::kEvents;
  o.dimensions = {"type"};
  EXPECT_EQ(Query(o), (CellList{{{"IssueCommentEvent"}, 1},
                             {{"IssuesEvent"}, 4},
                             {{"PullRequestEvent"}, 1},
                             {{"PushEvent"}, 2},
                             {{"WatchEvent"}, 1}}));
  auto table = RunQuery(*store_, o);
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(table->columns, (Row{"type", "events"}));
  o.dimensions = {};
  EXPECT_EQ(Query(o), (CellList{{{}, 9}}));
}

TEST_F(QueryTest, EventsByRepoAndType) {
  QueryOptions o;
  o.metric = Metric::kEvents;
  o.dimensions = {"repo", "type"};
  EXPECT_EQ(Query(o), (CellList{{{"b/two", "IssuesEvent"}, 2},
                             {{"b/two", "WatchEvent"}, 1},
                             {{"org/faster", "IssueCommentEvent"}, 1},
                             {{"org/faster", "IssuesEvent"}, 2},
                             {{"org/faster", "PullRequestEvent"}, 1},
                             {{"org/faster", "PushEvent"}, 2}}));
}

TEST_F(QueryTest, EventsOfOneRepoByMonthAndDay) {
  QueryOptions o;
  o.metric = Metric::kEvents;
  o.repo = "B/Two";
  o.dimensions = {"month"};
  EXPECT_EQ(Query(o), (CellList{{{"2015-02"}, 2}, {{"2015-03"}, 1}}));
  o.dimensions = {"day"};
  EXPECT_EQ(Query(o), (CellList{{{"2015-02-11"}, 1}, {{"2015-02-20"}, 1}, {{"2015-03-01"}, 1}}));
}

TEST_F(QueryTest, EventsInAMonthRange) {
  QueryOptions o;
  o.metric = Metric::kEvents;
  o.dimensions = {"type"};
  o.from_month = *ParseMonth("2015-03");
  EXPECT_EQ(Query(o), (CellList{{{"IssueCommentEvent"}, 1}, {{"IssuesEvent"}, 1}, {{"PushEvent"}, 1}}));
  o.from_month.reset();
  o.to_month = *ParseMonth("2015-01");
  EXPECT_EQ(Query(o), (CellList{{{"IssuesEvent"}, 1}, {{"PushEvent"}, 1}}));
}

TEST_F(QueryTest, InvalidOptions) {
  QueryOptions o;
  o.dimensions = {"type"};  // an events dimension
  auto bad_dim = RunQuery(*store_, o);
  ASSERT_FALSE(bad_dim.ok());
  EXPECT_EQ(bad_dim.status().code(), StatusCode::kInvalidArgument);
  o.dimensions = {};
  o.kind = "issues";
  auto bad_kind = RunQuery(*store_, o);
  ASSERT_FALSE(bad_kind.ok());
  EXPECT_EQ(bad_kind.status().code(), StatusCode::kInvalidArgument);
  QueryOptions events;
  events.metric = Metric::kEvents;
  events.category = "performance";
  auto bad_category = RunQuery(*store_, events);
  ASSERT_FALSE(bad_category.ok());
  EXPECT_EQ(bad_category.status().code(), StatusCode::kInvalidArgument);
  events.category.reset();
  events.dimensions = {"label"};
  EXPECT_FALSE(RunQuery(*store_, events).ok());
}

TEST_F(QueryTest, ListIssuesFlaggedWithAnyCategory) {
  auto listed = ListIssues(*store_, IssueListOptions{});
  ASSERT_TRUE(listed.ok()) << listed.status().message();
  ASSERT_EQ(listed->issues.size(), 3u);
  EXPECT_EQ(listed->matched, 3u);
  EXPECT_EQ(listed->reports_in_store, 4u);  // the unflagged r1#2 counts, the PR does not
  // Newest first.
  EXPECT_EQ(listed->issues[0].repo, "b/two");
  EXPECT_EQ(listed->issues[0].number, 5);
  EXPECT_EQ(listed->issues[0].created, "2015-03-01");
  EXPECT_EQ(listed->issues[1].repo, "b/two");
  EXPECT_EQ(listed->issues[1].number, 1);
  EXPECT_EQ(listed->issues[1].categories, (Row{"accuracy"}));
  EXPECT_EQ(listed->issues[1].subcategories, (Row{"accuracy/nan-inf"}));
  EXPECT_EQ(listed->issues[1].rules, (Row{"acc.nan", "perf.weak"}));
  EXPECT_EQ(listed->issues[1].labels, (Row{"bug"}));
  EXPECT_EQ(listed->issues[1].score, 1.0);
  const ListedIssue& last = listed->issues[2];
  EXPECT_EQ(last.repo, "org/faster");
  EXPECT_EQ(last.number, 1);
  EXPECT_EQ(last.kind, "issue");
  EXPECT_EQ(last.url, "https://github.com/org/faster/issues/1");
  EXPECT_EQ(last.title, "Training is slow");
  EXPECT_EQ(last.state, "closed");
  EXPECT_EQ(last.created, "2015-01-05");
  EXPECT_EQ(last.updated, "2015-03-02");
  EXPECT_EQ(last.categories, (Row{"performance"}));
  EXPECT_EQ(last.rules, (Row{"perf.slow"}));
  EXPECT_EQ(last.verdict, "unclassified");
}

// A limit keeps the best reports of the order asked for, ties (equal scores) in repository and
// number order, exactly as the first reports of the whole list; `matched` still counts them all.
TEST_F(QueryTest, ListIssuesLimitKeepsTheFirstOfTheWholeList) {
  for (const IssueSort sort : {IssueSort::kCreated, IssueSort::kUpdated, IssueSort::kScore}) {
    IssueListOptions all;
    all.kind = "all";
    all.sort = sort;
    all.limit = 0;
    auto whole = ListIssues(*store_, all);
    ASSERT_TRUE(whole.ok());
    ASSERT_EQ(whole->issues.size(), 4u);
    for (size_t limit = 1; limit <= 5; ++limit) {
      IssueListOptions page = all;
      page.limit = limit;
      auto cut = ListIssues(*store_, page);
      ASSERT_TRUE(cut.ok());
      EXPECT_EQ(cut->matched, 4u);
      ASSERT_EQ(cut->issues.size(), std::min<size_t>(limit, 4));
      for (size_t i = 0; i < cut->issues.size(); ++i) {
        EXPECT_EQ(cut->issues[i].repo + "#" + std::to_string(cut->issues[i].number),
                  whole->issues[i].repo + "#" + std::to_string(whole->issues[i].number))
            << "sort " << static_cast<int>(sort) << ", limit " << limit << ", row " << i;
        EXPECT_EQ(cut->issues[i].title, whole->issues[i].title);
      }
    }
  }
  // By score: two reports score 2 (r1#3: perf.slow + acc.nan) and 1; equal scores in repository order.
  IssueListOptions by_score;
  by_score.kind = "all";
  by_score.sort = IssueSort::kScore;
  by_score.limit = 2;
  auto top = ListIssues(*store_, by_score);
  ASSERT_TRUE(top.ok());
  EXPECT_EQ(top->issues[0].repo + "#" + std::to_string(top->issues[0].number), "org/faster#3");
  EXPECT_EQ(top->issues[0].score, 2.0);
  EXPECT_EQ(top->issues[1].score, 1.0);
}

TEST_F(QueryTest, ListIssuesFilters) {
  IssueListOptions prs;
  prs.kind = "pr";
  auto pr = ListIssues(*store_, prs);
  ASSERT_TRUE(pr.ok());
  ASSERT_EQ(pr->issues.size(), 1u);
  EXPECT_EQ(pr->issues[0].url, "https://github.com/org/faster/pull/3");
  EXPECT_EQ(pr->issues[0].kind, "pr");
  EXPECT_EQ(pr->issues[0].categories, (Row{"accuracy", "performance"}));

  IssueListOptions accuracy;
  accuracy.kind = "all";
  accuracy.category = "accuracy";
  auto acc = ListIssues(*store_, accuracy);
  ASSERT_TRUE(acc.ok());
  ASSERT_EQ(acc->issues.size(), 2u);
  EXPECT_EQ(acc->issues[0].number, 1);
  EXPECT_EQ(acc->issues[0].repo, "b/two");
  EXPECT_EQ(acc->issues[1].number, 3);

  IssueListOptions one_repo;
  one_repo.repo = "b/two";
  auto repo = ListIssues(*store_, one_repo);
  ASSERT_TRUE(repo.ok());
  ASSERT_EQ(repo->issues.size(), 2u);
  EXPECT_EQ(repo->issues[0].number, 5);
  EXPECT_EQ(repo->issues[1].number, 1);

  IssueListOptions limited;
  limited.limit = 1;
  auto lim = ListIssues(*store_, limited);
  ASSERT_TRUE(lim.ok());
  ASSERT_EQ(lim->issues.size(), 1u);
  EXPECT_EQ(lim->matched, 3u);
  EXPECT_EQ(lim->issues[0].number, 5);
}

TEST_F(QueryTest, StoreModelRoundTrips) {
  auto model = LoadStoreModel(*store_);
  ASSERT_TRUE(model.ok());
  EXPECT_EQ(model->CategoryOf("acc.nan"), "accuracy");
  EXPECT_EQ(model->TagOf("perf.slow"), "performance/low-speed");
  EXPECT_EQ(model->Flagged({"perf.weak"}), Row{});
}

}  // namespace
}  // namespace ghsift
