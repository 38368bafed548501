// Where the archive holds no text, a report is counted as "no text" (never as unflagged), and a
// closing that falls where pull requests carry no text has resolution "(unknown)".
#include <gtest/gtest.h>

#include <fstream>

#include "common/time_util.hpp"
#include "query/coverage.hpp"
#include "rollup/rollup.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::TempDir;

// A 2013 Timeline IssuesEvent as the archive holds it: only the issue's id and number.
constexpr const char* kTimelineIssue =
    R"({"created_at":"2013-02-15T00:00:39-08:00","payload":{"action":"opened","issue":9000001,"number":7},)"
    R"("public":true,"type":"IssuesEvent","url":"https://github.com/o/r/issues/7","actor":"u",)"
    R"("repository":{"id":5,"name":"r","owner":"o"}})";
// A 2013 Timeline IssueCommentEvent: only ids; its page address names issue 8.
constexpr const char* kTimelineComment =
    R"({"created_at":"2013-02-15T00:05:00-08:00","payload":{"issue_id":9000002,"comment_id":42},)"
    R"("public":true,"type":"IssueCommentEvent","url":"https://github.com/o/r/issues/8#issuecomment-42",)"
    R"("actor":"u","repository":{"id":5,"name":"r","owner":"o"}})";
// A 2011 PullRequestEvent (early Events API): a title, and no state; its `repo` names no
// repository, its payload does.
constexpr const char* kEarlyPullRequest =
    R"({"repo":{"url":"https://api.github.dev/repos//","name":"/"},"type":"PullRequestEvent","public":true,)"
    R"("created_at":"2011-02-15T00:05:37Z","payload":{"number":19,"pull_request":{"title":"ghsiftprobetitle cleanup",)"
    R"("number":19,"id":73388},"repo":"gm/slat","action":"closed"},"actor":{"id":1,"login":"gm"},"id":1132241716})";
// A post-October-2025 PullRequestEvent: no title, no body.
constexpr const char* kSlimPullRequest =
    R"({"id":"5000000001","type":"PullRequestEvent","actor":{"id":1,"login":"u"},"repo":{"id":6,"name":"o/s"},)"
    R"("payload":{"action":"opened","number":3,"pull_request":{"url":"https://api.github.com/repos/o/s/pulls/3",)"
    R"("id":77,"number":3,"head":{"ref":"a"},"base":{"ref":"main"}}},"public":true,"created_at":"2025-11-02T10:00:00Z"})";

//! A modern IssuesEvent with a title, closed at `closed_at` (or open when empty).
std::string ModernIssue(int number, const std::string& event_time, const std::string& closed_at) {
  const std::string state = closed_at.empty() ? "open" : "closed";
  return R"({"id":")" + std::to_string(100 + number) + R"(","type":"IssuesEvent","actor":{"id":1,"login":"u"},)"
         R"("repo":{"id":6,"name":"o/s"},"payload":{"action":")" + (closed_at.empty() ? "opened" : "closed") +
         R"(","issue":{"number":)" + std::to_string(number) + R"(,"title":"a plain title","body":"words","state":")" +
         state + R"(","labels":[],"created_at":"2024-01-01T00:00:00Z","closed_at":)" +
         (closed_at.empty() ? "null" : "\"" + closed_at + "\"") + R"(}},"public":true,"created_at":")" + event_time +
         "\"}";
}

class BlindSpotsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string file = dir_ / "2025-11-02-10.json";
    std::ofstream out(file);
    out << kEarlyPullRequest << "\n"
        << kTimelineIssue << "\n"
        << kTimelineComment << "\n"
        << kSlimPullRequest << "\n"
        << ModernIssue(20, "2024-03-01T00:00:00Z", "2024-03-01T00:00:00Z") << "\n"
        << ModernIssue(21, "2025-11-02T10:00:00Z", "2025-11-02T10:00:00Z") << "\n"
        << ModernIssue(22, "2025-11-02T10:00:00Z", "") << "\n";
    out.close();
    for (const auto& o : testing::IngestFiles(dir_ / "store", {file}, testing::ProbeRules())) {
      ASSERT_EQ(o.result, FileResult::kIngested) << o.message;
      ASSERT_EQ(o.entry.bad_lines, 0u);
    }
  }

  std::map<std::string, int64_t> Count(const std::string& dimension, bool scan) {
    auto store = Store::Open(dir_ / "store", StoreMode::kRead);
    EXPECT_TRUE(store.ok());
    QueryOptions q;
    q.kind = "all";
    q.dimensions = {dimension};
    q.use_rollup = !scan;
    auto table = RunQuery(**store, q);
    EXPECT_TRUE(table.ok());
    std::map<std::string, int64_t> out;
    for (size_t i = 0; i < table->rows.size(); ++i) out[table->rows[i][0]] = table->counts[i];
    return out;
  }

  TempDir dir_;
};

TEST_F(BlindSpotsTest, ReportsWithoutTextAreCountedAsNoText) {
  // Timeline issue 7, issue 8 (known from the comment's page address) and the slim pull request
  // carry no text; the three modern issues do and match no probe rule; the 2011 pull request does.
  const std::map<std::string, int64_t> want = {{kNoTextCategory, 3}, {"probe_title", 1}};
  EXPECT_EQ(Count("category", /*scan=*/true), want);
  EXPECT_EQ(Count("category", /*scan=*/false), want);  // the rollup agrees
}

// A flagged report whose state no event gave is listed as "(unknown)", selected by --state
// unknown, and filed under the repository its payload names.
TEST_F(BlindSpotsTest, AReportWithoutStateIsListedAsUnknown) {
  auto store = Store::Open(dir_ / "store", StoreMode::kRead);
  ASSERT_TRUE(store.ok());
  IssueListOptions o;
  o.kind = "all";
  o.state = "unknown";
  auto list = ListIssues(**store, o);
  ASSERT_TRUE(list.ok()) << list.status().message();
  ASSERT_EQ(list->issues.size(), 1u);
  EXPECT_EQ(list->issues[0].repo, "gm/slat");
  EXPECT_EQ(list->issues[0].number, 19);
  EXPECT_EQ(list->issues[0].state, "(unknown)");
  o.state = "open";
  list = ListIssues(**store, o);
  ASSERT_TRUE(list.ok());
  EXPECT_TRUE(list->issues.empty());
}

// A 2013 comment on a closed pull request (ids only, its address names /pull/9) adds an event
// to the report and blanks nothing: the title and state stay those of the pull request.
TEST(BlindSpotsCommentTest, AnIdsOnlyCommentKeepsTheLastSnapshot) {
  TempDir dir;
  const std::string file = dir / "2013-02-15-0.json";
  std::ofstream out(file);
  out << R"({"created_at":"2013-02-15T00:10:00-08:00","payload":{"action":"closed","number":9,)"
         R"("pull_request":{"title":"ghsiftprobetitle fix","number":9,"state":"closed",)"
         R"("created_at":"2013-02-14T08:00:00Z","closed_at":"2013-02-15T08:10:00Z"}},"public":true,)"
         R"("type":"PullRequestEvent","url":"https://github.com/o/r/pull/9","actor":"u",)"
         R"("repository":{"id":5,"name":"r","owner":"o"}})"
      << "\n"
      << R"({"created_at":"2013-02-15T00:20:00-08:00","payload":{"issue_id":9000009,"comment_id":43},)"
         R"("public":true,"type":"IssueCommentEvent","url":"https://github.com/o/r/pull/9#issuecomment-43",)"
         R"("actor":"v","repository":{"id":5,"name":"r","owner":"o"}})"
      << "\n";
  out.close();
  for (const auto& o : testing::IngestFiles(dir / "store", {file}, testing::ProbeRules())) {
    ASSERT_EQ(o.result, FileResult::kIngested) << o.message;
  }
  auto store = Store::Open(dir / "store", StoreMode::kRead);
  ASSERT_TRUE(store.ok());
  IssueListOptions o;
  o.kind = "all";
  auto list = ListIssues(**store, o);
  ASSERT_TRUE(list.ok()) << list.status().message();
  ASSERT_EQ(list->issues.size(), 1u);
  EXPECT_EQ(list->issues[0].kind, "pr");
  EXPECT_EQ(list->issues[0].state, "closed");
  EXPECT_EQ(list->issues[0].title, "ghsiftprobetitle fix");
  EXPECT_EQ(list->reports_in_store, 1);
}

TEST_F(BlindSpotsTest, ClosingsWherePullRequestsCarryNoTextAreUnknown) {
  // Unknown: issue 21, closed in a month whose pull requests carry no text, and the Timeline
  // issues 7 and 8, the 2011 and the slim pull requests, whose state no event gives (they were
  // counted open).
  const std::map<std::string, int64_t> want = {{"closed_without_pr", 1}, {"(unknown)", 5}, {"open", 1}};
  EXPECT_EQ(Count("resolution", /*scan=*/true), want);
}

TEST_F(BlindSpotsTest, CoverageShowsPerMonthTheShareOfReportEventsWithText) {
  auto store = Store::Open(dir_ / "store", StoreMode::kRead);
  ASSERT_TRUE(store.ok());
  auto c = ComputeCoverage(**store, *ParseHour("2013-01-01"), *ParseHour("2025-12-31"));
  ASSERT_TRUE(c.ok());
  std::map<std::string, std::vector<uint64_t>> got;
  for (const auto& [month, s] : c->text_shares) {
    got[FormatMonth(month)] = {s.issue_events, s.issue_events_text, s.pr_events, s.pr_events_text};
  }
  const std::map<std::string, std::vector<uint64_t>> want = {
      {"2013-02", {2, 0, 0, 0}},  // the Timeline issue and comment events: ids only
      {"2024-03", {1, 1, 0, 0}},
      {"2025-11", {2, 2, 1, 0}},  // issues keep their text, the slim pull request has none
  };
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace ghsift
