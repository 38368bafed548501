#pragma once
// Helpers shared by the tests that query a store built by hand (tests/query, and the CLI tests of
// `query`): an issue report as the extractor gives it, a rule of a tag, and one small store of
// four reports in three tracked repositories.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "aggregate/repo_filter.hpp"
#include "common/time_util.hpp"
#include "json/event_extractor.hpp"
#include "query/query.hpp"

namespace ghsift::testing {

//! An IssuesEvent carrying issue `number`, created at `time`. The views point at the arguments:
//! pass literals (or strings that outlive the event).
inline Event IssueReportEvent(int64_t repo_id, std::string_view repo_name, const char* time, int64_t number,
                              std::string_view state, std::string_view title = "a report") {
  Event e;
  e.type = "IssuesEvent";
  e.kind = EventKindOf(e.type);
  e.repo_id = repo_id;
  e.repo_name = repo_name;
  e.created_at = *ParseIsoTime(time);
  e.has_report = true;
  e.report.kind = ReportKind::kIssue;
  e.report.number = number;
  e.report.created_at = e.created_at;
  e.report.text[Field::kTitle] = title;
  e.report.state = state;
  return e;
}

//! A rule counting toward `tag`'s category. Its pattern never runs: the tests commit rule ids.
inline Rule TaggedRule(std::string id, std::string tag, double weight = 1.0) {
  Rule r;
  r.id = std::move(id);
  r.tag = std::move(tag);
  r.category = r.tag.substr(0, r.tag.find('/'));
  r.pattern = "x";
  r.weight = weight;
  return r;
}

//! A store tracking a/one, b/two and c/three (which has no report):
//!   a/one#1 2024-01-10 open   perf.mem   -> performance
//!   a/one#2 2024-01-20 closed (no rule)  -> not flagged
//!   b/two#3 2024-03-05 open   acc.nan    -> accuracy
//!   b/two#4 2024-03-06 closed perf.slow  -> performance
//! The rule set's problem categories: accuracy, performance, silent (no report has it); stage is a
//! facet.
class FourReportStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::path(::testing::TempDir()) / "ghsift-four-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    auto store = Store::Open(StorePath(), StoreMode::kReadWrite);
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(store).value();
    RuleSet rules;
    rules.rules = {TaggedRule("perf.slow", "performance/low-speed"), TaggedRule("perf.mem", "performance/memory"),
                   TaggedRule("acc.nan", "accuracy/nan-inf"), TaggedRule("silent.wrong", "silent/wrong-result"),
                   TaggedRule("stage.train", "stage/training")};
    rules.facets = {"stage"};
    ASSERT_TRUE(store_->PutMeta("rules", DecisionModel::FromRuleSet(rules).Serialize()).ok());
    ASSERT_TRUE(store_->PutMeta("scope", RepoFilter::FromNames({"a/one", "b/two", "c/three"}).Describe()).ok());
    FileAggregate a;
    auto report = [&](const Event& e, std::vector<std::string> ids) {
      a.CountEvent(e);
      a.AddReport(e, std::move(ids));
    };
    report(IssueReportEvent(7, "a/one", "2024-01-10T08:00:00Z", 1, "open"), {"perf.mem"});
    report(IssueReportEvent(7, "a/one", "2024-01-20T08:00:00Z", 2, "closed"), {});
    report(IssueReportEvent(8, "b/two", "2024-03-05T08:00:00Z", 3, "open"), {"acc.nan"});
    report(IssueReportEvent(8, "b/two", "2024-03-06T08:00:00Z", 4, "closed"), {"perf.slow"});
    ASSERT_TRUE(store_->CommitFile("a.json.gz", FileEntry{}, a).ok());
  }
  void TearDown() override {
    store_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::string StorePath() const { return (std::filesystem::path(dir_) / "store").string(); }

  std::string dir_;
  std::unique_ptr<Store> store_;
};

//! Commits to `store` (with a rule model of one rule, perf.slow, flagging performance) four
//! flagged issues of a/one reopened 10, 9, 2 and 0 times (numbers 1 to 4): values of `reopened`
//! that sort otherwise as text ("10" < "2" < "9").
inline void CommitReopenedReports(Store& store) {
  RuleSet rules;
  rules.rules = {TaggedRule("perf.slow", "performance/low-speed")};
  ASSERT_TRUE(store.PutMeta("rules", DecisionModel::FromRuleSet(rules).Serialize()).ok());
  FileAggregate a;
  const int reopenings[] = {10, 9, 2, 0};
  for (int64_t number = 1; number <= 4; ++number) {
    Event opened = IssueReportEvent(7, "a/one", "2024-01-10T08:00:00Z", number, "open");
    opened.report.action = "opened";
    a.CountEvent(opened);
    a.AddReport(opened, {"perf.slow"});
    for (int i = 0; i < reopenings[number - 1]; ++i) {
      Event reopened = IssueReportEvent(7, "a/one", "2024-01-11T08:00:00Z", number, "open");
      reopened.created_at += i;
      reopened.report.action = "reopened";
      a.CountEvent(reopened);
      a.AddReport(reopened, {"perf.slow"});
    }
  }
  ASSERT_TRUE(store.CommitFile("a.json.gz", FileEntry{}, a).ok());
}

}  // namespace ghsift::testing
