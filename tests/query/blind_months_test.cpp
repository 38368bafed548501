// Months where the archive is blind are judged from the store's own per-month text shares: a
// month with at least 20 pull-request events of which under 5% carry a title or body is one
// where closings cannot be told apart (resolution (unknown)), whatever its date; with fewer, the
// era decides (from 2025-10 on). The same for issue text (blind before 2015 when too few).
// The report and `query --by month` mark such months.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "common/time_util.hpp"
#include "query/blind_months.hpp"
#include "report/html_report.hpp"
#include "report/report_builder.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::TempDir;

int32_t Month(const char* text) { return *ParseMonth(text); }

TextShare Share(uint64_t issue_events, uint64_t issue_text, uint64_t pr_events, uint64_t pr_text) {
  TextShare s;
  s.issue_events = issue_events;
  s.issue_events_text = issue_text;
  s.pr_events = pr_events;
  s.pr_events_text = pr_text;
  return s;
}

TEST(JudgeMonthTest, PullRequestTextIsJudgedFromTwentyEventsOn) {
  // 0 of 20 with text: blind, even before the era of slim payloads.
  MonthSight s = JudgeMonth(Month("2025-06"), Share(0, 0, 20, 0));
  EXPECT_TRUE(s.pull_request_text_blind);
  EXPECT_EQ(s.pull_request_basis, BlindBasis::kShare);
  // 1 of 20 is 5%: not under the threshold.
  EXPECT_FALSE(JudgeMonth(Month("2025-06"), Share(0, 0, 20, 1)).pull_request_text_blind);
  // 1 of 21 is 4.8%: blind.
  EXPECT_TRUE(JudgeMonth(Month("2025-06"), Share(0, 0, 21, 1)).pull_request_text_blind);
  // Pull requests with text after 2025-10: the store's share wins over the era.
  s = JudgeMonth(Month("2025-12"), Share(0, 0, 20, 20));
  EXPECT_FALSE(s.pull_request_text_blind);
  EXPECT_EQ(s.pull_request_basis, BlindBasis::kShare);
  // 19 events are too few: the era decides.
  s = JudgeMonth(Month("2025-06"), Share(0, 0, 19, 0));
  EXPECT_FALSE(s.pull_request_text_blind);
  EXPECT_EQ(s.pull_request_basis, BlindBasis::kEra);
  EXPECT_TRUE(JudgeMonth(Month("2025-10"), Share(0, 0, 19, 19)).pull_request_text_blind);
  EXPECT_FALSE(JudgeMonth(Month("2025-09"), TextShare{}).pull_request_text_blind);
}

TEST(JudgeMonthTest, IssueTextIsJudgedTheSameWay) {
  MonthSight s = JudgeMonth(Month("2016-01"), Share(30, 1, 0, 0));
  EXPECT_TRUE(s.issue_text_blind);
  EXPECT_EQ(s.issue_basis, BlindBasis::kShare);
  EXPECT_FALSE(JudgeMonth(Month("2013-02"), Share(30, 30, 0, 0)).issue_text_blind);
  s = JudgeMonth(Month("2014-12"), Share(3, 3, 0, 0));
  EXPECT_TRUE(s.issue_text_blind);  // too few: the Timeline era holds no issue text
  EXPECT_EQ(s.issue_basis, BlindBasis::kEra);
  EXPECT_FALSE(JudgeMonth(Month("2015-01"), TextShare{}).issue_text_blind);
  EXPECT_EQ(BlindMarks(JudgeMonth(Month("2014-12"), TextShare{})), "\u2020");
  EXPECT_EQ(BlindMarks(JudgeMonth(Month("2025-11"), TextShare{})), "\u2021");
  EXPECT_EQ(BlindMarks(JudgeMonth(Month("2020-01"), TextShare{})), "");
}

// Lines of one test hour; every event has an id of its own (ids repeat only as duplicates).
class Lines {
 public:
  //! A 2013 Timeline IssuesEvent: ids only.
  void TimelineIssue(int number, const std::string& time) {
    out_ << R"({"created_at":")" << time << R"(","payload":{"action":"opened","issue":)" << 9100000 + number
         << R"(,"number":)" << number << R"(},"public":true,"type":"IssuesEvent","url":"https://github.com/o/t/issues/)"
         << number << R"(","actor":"u","repository":{"id":5,"name":"t","owner":"o"}})" << "\n";
  }
  //! A modern PullRequestEvent of repo o/p, slim (no title or body) or with a title.
  void PullRequest(int number, const std::string& time, bool with_text) {
    out_ << R"({"id":")" << ++id_ << R"(","type":"PullRequestEvent","actor":{"id":1,"login":"u"},)"
         << R"("repo":{"id":7,"name":"o/p"},"payload":{"action":"opened","number":)" << number
         << R"(,"pull_request":{"url":"https://api.github.com/repos/o/p/pulls/)" << number << R"(","id":)"
         << 7000 + number << R"(,"number":)" << number
         << (with_text ? R"(,"title":"tidy the docs","body":"words","state":"open")" : "")
         << R"(,"head":{"ref":"a"},"base":{"ref":"main"}}},"public":true,"created_at":")" << time << "\"}\n";
  }
  //! A modern IssuesEvent of repo o/s titled `title`, created `created`, closed at `closed` (open when empty).
  void Issue(int number, const std::string& title, const std::string& created, const std::string& closed) {
    const std::string time = closed.empty() ? created : closed;
    out_ << R"({"id":")" << ++id_ << R"(","type":"IssuesEvent","actor":{"id":1,"login":"u"},)"
         << R"("repo":{"id":6,"name":"o/s"},"payload":{"action":")" << (closed.empty() ? "opened" : "closed")
         << R"(","issue":{"number":)" << number << R"(,"title":")" << title << R"(","body":"words","state":")"
         << (closed.empty() ? "open" : "closed") << R"(","labels":[],"created_at":")" << created
         << R"(","closed_at":)" << (closed.empty() ? "null" : "\"" + closed + "\"") << R"(}},"public":true,)"
         << R"("created_at":")" << time << "\"}\n";
  }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
  int64_t id_ = 1000;
};

class BlindMonthsStoreTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    const std::string rules = *dir_ / "rules.yaml";
    std::ofstream(rules) << "rules:\n  - id: perf.slow\n    tag: performance/speed\n    pattern: '\\bslow\\b'\n"
                            "    flags: [caseless]\n";
    Lines l;
    // 2013-02: 20 Timeline issue events without text and one flagged issue with text (1 of 21).
    for (int i = 0; i < 20; ++i) l.TimelineIssue(100 + i, "2013-02-15T00:00:39-08:00");
    l.Issue(1, "training is slow", "2013-02-10T00:00:00Z", "");
    // 2016-03: no pull-request event at all: the era says pull requests carry text.
    l.Issue(2, "slow start", "2016-03-01T00:00:00Z", "2016-03-05T00:00:00Z");
    // 2025-06: 20 slim pull requests, before the era of slim payloads.
    for (int i = 0; i < 20; ++i) l.PullRequest(10 + i, "2025-06-10T00:00:00Z", false);
    l.Issue(3, "slow export", "2025-06-01T00:00:00Z", "2025-06-20T00:00:00Z");
    // 2025-11: one slim pull request: too few, the era decides (blind).
    l.PullRequest(40, "2025-11-02T00:00:00Z", false);
    l.Issue(4, "slow import", "2025-11-01T00:00:00Z", "2025-11-03T00:00:00Z");
    // 2025-12: 20 pull requests with text, after the era's start: the share wins (not blind).
    for (int i = 0; i < 20; ++i) l.PullRequest(50 + i, "2025-12-01T00:00:00Z", true);
    l.Issue(5, "slow save", "2025-12-01T00:00:00Z", "2025-12-02T00:00:00Z");
    const std::string file = *dir_ / "2025-12-02-0.json";
    std::ofstream(file) << l.str();
    for (const auto& o : testing::IngestFiles(store(), {file}, rules)) {
      ASSERT_EQ(o.result, FileResult::kIngested) << o.message;
      ASSERT_EQ(o.entry.bad_lines, 0u);
    }
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string store() { return *dir_ / "store"; }

  static std::map<std::string, int64_t> Count(const std::string& dimension, bool scan) {
    auto s = Store::Open(store(), StoreMode::kRead);
    EXPECT_TRUE(s.ok());
    QueryOptions q;
    q.dimensions = {dimension};
    q.category = "performance";
    q.use_rollup = !scan;
    auto table = RunQuery(**s, q);
    EXPECT_TRUE(table.ok());
    std::map<std::string, int64_t> out;
    for (size_t i = 0; i < table->rows.size(); ++i) out[table->rows[i][0]] = table->counts[i];
    return out;
  }

  static TempDir* dir_;
};

TempDir* BlindMonthsStoreTest::dir_ = nullptr;

TEST_F(BlindMonthsStoreTest, MonthsAreJudgedFromTheStoresShares) {
  auto s = Store::Open(store(), StoreMode::kRead);
  ASSERT_TRUE(s.ok());
  auto blind = BlindMonths::Load(**s);
  ASSERT_TRUE(blind.ok());
  // month -> {issue text blind, pull-request text blind, issue judged by share, pr judged by share}
  std::map<std::string, std::vector<bool>> got;
  for (const auto& [m, sight] : blind->months()) {
    got[FormatMonth(m)] = {sight.issue_text_blind, sight.pull_request_text_blind,
                           sight.issue_basis == BlindBasis::kShare, sight.pull_request_basis == BlindBasis::kShare};
  }
  const std::map<std::string, std::vector<bool>> want = {
      {"2013-02", {true, false, true, false}},   // 1 of 21 issue events with text
      {"2016-03", {false, false, false, false}},
      {"2025-06", {false, true, false, true}},   // 0 of 20 pull requests with text
      {"2025-11", {false, true, false, false}},  // one pull request: the era
      {"2025-12", {false, false, false, true}},  // 20 of 20 with text
  };
  EXPECT_EQ(got, want);
}

TEST_F(BlindMonthsStoreTest, ClosingsInMonthsWithoutPullRequestTextAreUnknown) {
  const std::map<std::string, int64_t> want = {{"open", 1}, {"closed_without_pr", 2}, {"(unknown)", 2}};
  EXPECT_EQ(Count("resolution", /*scan=*/true), want);
  EXPECT_EQ(Count("resolution", /*scan=*/false), want);
  const std::map<std::string, int64_t> months = {
      {"2013-02", 1}, {"2016-03", 1}, {"2025-06", 1}, {"2025-11", 1}, {"2025-12", 1}};
  EXPECT_EQ(Count("month", /*scan=*/true), months);
  EXPECT_EQ(Count("month", /*scan=*/false), months);  // the rollup agrees
}

TEST_F(BlindMonthsStoreTest, ReportMarksBlindMonthsWithALegend) {
  auto s = Store::Open(store(), StoreMode::kRead);
  ASSERT_TRUE(s.ok());
  ReportOptions options;
  options.store_path = store();
  auto report = BuildReport(**s, options);
  ASSERT_TRUE(report.ok()) << report.status().message();
  const std::string html = RenderHtml(*report);
  const std::string md = RenderMarkdown(*report);
  // The head lists the store's blind months.
  EXPECT_NE(html.find("\u2020 2013-02: the archive holds no issue text for these months: counts of flagged "
                      "reports are not comparable."),
            std::string::npos);
  EXPECT_NE(html.find("\u2021 2025-06, 2025-11: closing pull requests cannot be seen: resolution (unknown)."),
            std::string::npos);
  // The monthly chart draws 2013-02 to 2025-12 and marks the head's months, no others: a month
  // in between that the store read no event of (2014-05, 2025-10) is no blind month of it.
  const size_t at = html.find("<section id=\"monthly_performance\">");
  ASSERT_NE(at, std::string::npos);
  const std::string section = html.substr(at, html.find("</section>", at) - at);
  EXPECT_NE(section.find("<p class=\"blind-legend\">\u2020 2013-02: the archive holds no issue text"),
            std::string::npos);
  EXPECT_NE(section.find("<p class=\"blind-legend\">\u2021 2025-06, 2025-11: closing pull requests "
                         "cannot be seen: resolution (unknown).</p>"),
            std::string::npos);
  size_t bands = 0;
  for (size_t p = section.find("<polygon class=\"blind\""); p != std::string::npos;
       p = section.find("<polygon class=\"blind\"", p + 1)) {
    ++bands;
  }
  EXPECT_EQ(bands, 3u);  // 2013-02, 2025-06, 2025-11
  EXPECT_NE(section.find("<title>2025-06 \u2021</title></polygon>"), std::string::npos);
  EXPECT_NE(section.find("<title>2013-02 \u2020</title></polygon><text class=\"blind-mark\""), std::string::npos);
  EXPECT_NE(section.find("<td>2013-02 \u2020</td>"), std::string::npos);
  EXPECT_NE(section.find("<td>2025-06 \u2021</td>"), std::string::npos);
  EXPECT_NE(section.find("<td>2025-12</td>"), std::string::npos);
  EXPECT_NE(section.find("<td>2016-03</td>"), std::string::npos);
  // The resolution table says which months make closings unknown.
  const size_t res = html.find("<section id=\"resolution_performance\">");
  ASSERT_NE(res, std::string::npos);
  EXPECT_NE(html.substr(res, html.find("</section>", res) - res)
                .find("\u2021 2025-06, 2025-11: closing pull requests cannot be seen: resolution (unknown)."),
            std::string::npos);
  // Markdown carries the same marks; the CSV tables stay the query's output.
  EXPECT_NE(md.find("| o/s | 2025-11 \u2021 | 1 |"), std::string::npos);
  EXPECT_NE(md.find("\u2020 2013-02: the archive holds no issue text"), std::string::npos);
  for (const ReportSection& sec : report->sections) {
    for (const ReportTable& t : sec.tables) {
      EXPECT_EQ(RenderCsv(t).find("\u2021"), std::string::npos) << t.id;
      EXPECT_EQ(RenderCsv(t).find("\u2020"), std::string::npos) << t.id;
    }
  }
}

TEST_F(BlindMonthsStoreTest, QueryByMonthNotesBlindMonthsOnStderr) {
  // stderr alone: stdout goes to /dev/null.
  const auto r = testing::RunCommand("(" + testing::Ghsift() + " query --store " + store() +
                                     " --by month --category performance --format csv 2>&1 >/dev/null)");
  EXPECT_EQ(r.exit_code, 0);
  // Issues by month, no resolution asked: only the issue-text note bears on the answer.
  EXPECT_EQ(r.output,
            "ghsift: note: 2013-02: the archive holds no issue text for these months: counts of flagged reports are "
            "not comparable (`ghsift stats --coverage` shows the shares)\n");
  const auto resolution = testing::RunCommand("(" + testing::Ghsift() + " query --store " + store() +
                                              " --by month,resolution --format csv 2>&1 >/dev/null)");
  EXPECT_EQ(resolution.output,
            "ghsift: note: 2013-02: the archive holds no issue text for these months: counts of flagged reports are "
            "not comparable (`ghsift stats --coverage` shows the shares)\n"
            "ghsift: note: 2025-06, 2025-11: closing pull requests cannot be seen: resolution (unknown) "
            "(`ghsift stats --coverage` shows the shares)\n");
  const auto prs = testing::RunCommand("(" + testing::Ghsift() + " query --store " + store() +
                                       " --by month --kind pr --format csv 2>&1 >/dev/null)");
  EXPECT_EQ(prs.output.find("no issue text"), std::string::npos) << prs.output;
}

// Real hours of ../shared/data/gharchive-real (read in place; skipped when absent): issue events
// of 2011-02, 2013-02 and 2014-02 hold ids only, those of 2012-02-15 and 2015 hold text; pull
// requests hold text in all of them.
TEST(BlindMonthsRealArchiveTest, RealTimelineMonthsHaveNoIssueText) {
  const std::string dir = std::string(GHSIFT_SOURCE_DIR) + "/../shared/data/gharchive-real/hours/";
  std::vector<std::string> files;
  for (const char* name : {"2011-02-15-0.json.gz", "2012-02-15-0.json.gz", "2013-02-15-0.json.gz",
                           "2014-02-15-0.json.gz", "2015-01-01-1.json.gz"}) {
    if (!std::ifstream(dir + name)) GTEST_SKIP() << dir + name << " is absent";
    files.push_back(dir + name);
  }
  TempDir tmp;
  for (const auto& o : testing::IngestFiles(tmp / "store", files, testing::ProbeRules())) {
    ASSERT_EQ(o.result, FileResult::kIngested) << o.message;
  }
  auto s = Store::Open(tmp / "store", StoreMode::kRead);
  ASSERT_TRUE(s.ok());
  auto blind = BlindMonths::Load(**s);
  ASSERT_TRUE(blind.ok());
  // month -> {issue text blind, pull-request text blind, issue judged by share}
  std::map<std::string, std::vector<bool>> got;
  for (const auto& [m, sight] : blind->months()) {
    got[FormatMonth(m)] = {sight.issue_text_blind, sight.pull_request_text_blind,
                           sight.issue_basis == BlindBasis::kShare};
  }
  const std::map<std::string, std::vector<bool>> want = {
      {"2011-02", {true, false, true}},  {"2012-02", {false, false, true}}, {"2013-02", {true, false, true}},
      {"2014-02", {true, false, true}},  {"2015-01", {false, false, true}},
  };
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace ghsift
