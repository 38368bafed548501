// The report's head, its tables by month and `query --by month`'s note list the same blind
// months (BlindMonths::Within: the months the store read, within --from/--to), and the head's
// "Covers N ingested hours" keeps to --from/--to. A real store with a gap month (2013-02), a report
// created in a month the store read nothing of (2012-11), and hours outside the range.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/unknown_value.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::ReadText;
using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;

//! A 2013 Timeline IssuesEvent of repo o/t: ids only, no text.
std::string TimelineIssue(int number, const std::string& time) {
  std::ostringstream out;
  out << R"({"created_at":")" << time << R"(","payload":{"action":"opened","issue":)" << 9100000 + number
      << R"(,"number":)" << number << R"(},"public":true,"type":"IssuesEvent","url":"https://github.com/o/t/issues/)"
      << number << R"(","actor":"u","repository":{"id":5,"name":"t","owner":"o"}})" << "\n";
  return out.str();
}

//! An IssuesEvent of repo o/s with a title, opened `created`, seen at `time`.
std::string Issue(int64_t id, int number, const std::string& title, const std::string& created,
                  const std::string& time) {
  std::ostringstream out;
  out << R"({"id":")" << id << R"(","type":"IssuesEvent","actor":{"id":1,"login":"u"},)"
      << R"("repo":{"id":6,"name":"o/s"},"payload":{"action":"opened","issue":{"number":)" << number
      << R"(,"title":")" << title << R"(","body":"words","state":"open","labels":[],"created_at":")" << created
      << R"(","closed_at":null}},"public":true,"created_at":")" << time << "\"}\n";
  return out.str();
}

//! A slim PullRequestEvent (no title or body), as the archive has them from 2025-10.
std::string SlimPullRequest(int64_t id, int number, const std::string& time) {
  std::ostringstream out;
  out << R"({"id":")" << id << R"(","type":"PullRequestEvent","actor":{"id":1,"login":"u"},)"
      << R"("repo":{"id":7,"name":"o/p"},"payload":{"action":"opened","number":)" << number
      << R"(,"pull_request":{"url":"https://api.github.com/repos/o/p/pulls/)" << number << R"(","id":)"
      << 7000 + number << R"(,"number":)" << number
      << R"(,"head":{"ref":"a"},"base":{"ref":"main"}}},"public":true,"created_at":")" << time << "\"}\n";
  return out.str();
}

//! The line of `text` that starts with `prefix` ("" when none).
std::string LineStartingWith(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "";
}

class ReportBlindMonthsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    std::ofstream(*dir_ / "rules.yaml") << "rules:\n  - {id: perf.slow, tag: performance/speed, pattern: '\\bslow\\b'}\n";
    // 2013-01 (the file named by the Pacific hour, UTC 18:00): 20 events without text and one with:
    // blind by its share. Its flagged report was created in 2012-11, a month the store read nothing of.
    std::string january;
    for (int i = 0; i < 20; ++i) january += TimelineIssue(100 + i, "2013-01-15T10:00:00-08:00");
    january += Issue(1001, 1, "training is slow", "2012-11-20T00:00:00Z", "2013-01-15T18:00:00Z");
    std::ofstream(*dir_ / "2013-01-15-10.json") << january;
    // 2013-02: no hour ingested (the gap). 2013-03: too few events, blind by its era.
    std::string march = TimelineIssue(200, "2013-03-20T12:00:00-07:00");
    march += Issue(1002, 2, "slow import", "2013-03-20T19:00:00Z", "2013-03-20T19:00:00Z");
    std::ofstream(*dir_ / "2013-03-20-12.json") << march;
    // Outside the report's months: 2016 with text, 2025-11 with a slim pull request.
    std::ofstream(*dir_ / "2016-05-01-0.json")
        << Issue(1003, 3, "slow start", "2016-05-01T00:00:00Z", "2016-05-01T00:00:00Z");
    std::ofstream(*dir_ / "2025-11-03-0.json")
        << SlimPullRequest(1004, 40, "2025-11-03T00:00:00Z")
        << Issue(1005, 4, "slow export", "2025-11-03T00:00:00Z", "2025-11-03T00:00:00Z");
    for (const char* name : {"2013-01-15-10.json", "2013-03-20-12.json", "2016-05-01-0.json", "2025-11-03-0.json"}) {
      for (const auto& o : testing::IngestFiles(store(), {*dir_ / name}, *dir_ / "rules.yaml")) {
        ASSERT_EQ(o.result, FileResult::kIngested) << o.message;
        ASSERT_EQ(o.entry.bad_lines, 0u);
      }
    }
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string store() { return *dir_ / "store"; }
  static TempDir* dir_;
};

TempDir* ReportBlindMonthsTest::dir_ = nullptr;

TEST_F(ReportBlindMonthsTest, HeadTablesAndQueryListTheSameMonthsWithinTheRange) {
  const std::string out = *dir_ / "report";
  const auto r = RunCommand(Ghsift() + " report --store " + store() + " --out " + out + " --from 2012-01 --to 2013-12");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string md = ReadText(out + "/report.md");
  // Before: "Covers 4 ingested hours from 2013-01-15-18 to 2025-11-03-0 (UTC); 112179 hours missing
  // in between ...", the whole store whatever --from/--to.
  EXPECT_EQ(LineStartingWith(md, "Covers "),
            "Covers 2 ingested hours of the 8,406 from 2013-01-15-18 to 2013-12-31-23 (UTC, within --from 2012-01 --to "
            "2013-12); "
            "8,404 hours missing in between (first 2013-01-15-19; `ghsift stats --coverage --from 2013-01-15T18 --to "
            "2013-12-31T23` lists them); rule set " +
                LineStartingWith(md, "Covers ").substr(LineStartingWith(md, "Covers ").find("rule set ") + 9));
  const std::string legend =
      "\u2020 2013-01, 2013-03: the archive holds no issue text for these months: counts of flagged reports are not "
      "comparable.";
  // The head (before: the same two months)...
  EXPECT_EQ(LineStartingWith(md, "Months where the archive is blind"),
            "Months where the archive is blind (judged from the store's report events of each month: blind when under "
            "5% of at least 20 events carry text; with fewer, issue events count as blind before 2015 and "
            "pull-request events from 2025-10 on): " + legend);
  // ... the monthly table's legend (before: "\u2020 2012-11 to 2013-03", every month from its first
  // row to its last judged by era, the gap 2013-02 and the unread 2012-11 and 2012-12 with them)...
  const size_t monthly = md.find("### Monthly performance reports");
  ASSERT_NE(monthly, std::string::npos);
  EXPECT_EQ(LineStartingWith(md.substr(monthly), "\u2020 "), legend);
  // ... whose rows carry a mark only in a month of the list: 2012-11 was not read.
  EXPECT_NE(md.find("| o/s | 2012-11 | 1 |"), std::string::npos) << md.substr(monthly, 800);
  EXPECT_NE(md.find("| o/s | 2013-03 \u2020 | 1 |"), std::string::npos) << md.substr(monthly, 800);
  // ... and `query --by month`'s note for the same months (before: "2012-11, 2013-03", the
  // months of its rows).
  const auto q = RunCommand("(" + Ghsift() + " query --store " + store() +
                            " --by month --category performance --from 2012-01 --to 2013-12 --format csv 2>&1 >/dev/null)");
  EXPECT_EQ(q.exit_code, 0);
  EXPECT_EQ(q.output,
            "ghsift: note: 2013-01, 2013-03: the archive holds no issue text for these months: counts of flagged "
            "reports are not comparable (`ghsift stats --coverage` shows the shares)\n");
}

TEST_F(ReportBlindMonthsTest, WithoutARangeTheWholeStoreAndBothMarks) {
  const std::string out = *dir_ / "whole";
  const auto r = RunCommand(Ghsift() + " report --store " + store() + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string md = ReadText(out + "/report.md");
  EXPECT_EQ(LineStartingWith(md, "Covers ")
                .rfind("Covers 4 ingested hours of the 112,183 from 2013-01-15-18 to 2025-11-03-0 (UTC); ", 0),
            0u)
      << md.substr(0, 600);
  const std::string lists =
      "\u2020 2013-01, 2013-03: the archive holds no issue text for these months: counts of flagged reports are not "
      "comparable. \u2021 2025-11: closing pull requests cannot be seen: resolution (unknown).";
  const std::string head = LineStartingWith(md, "Months where the archive is blind");
  EXPECT_EQ(head.substr(head.size() - lists.size()), lists);
  const size_t monthly = md.find("### Monthly performance reports");
  ASSERT_NE(monthly, std::string::npos);
  EXPECT_EQ(LineStartingWith(md.substr(monthly), "\u2021 "),
            "\u2021 2025-11: closing pull requests cannot be seen: resolution (unknown).");
  const auto q = RunCommand("(" + Ghsift() + " query --store " + store() +
                            " --by month,resolution --format csv 2>&1 >/dev/null)");
  EXPECT_EQ(q.output,
            "ghsift: note: 2013-01, 2013-03: the archive holds no issue text for these months: counts of flagged "
            "reports are not comparable (`ghsift stats --coverage` shows the shares)\n"
            "ghsift: note: 2025-11: closing pull requests cannot be seen: resolution (unknown) (`ghsift stats "
            "--coverage` shows the shares)\n");
}

// The resolution tables' caption says when a resolution is (unknown), as the tables spell it: on
// the 12 real hours 2,342 of the 2012-2014 issues are (unknown) because no event gave their state,
// a cause the caption left out (it named only a closing in a month of slim pull requests).
TEST_F(ReportBlindMonthsTest, ResolutionCaptionNamesTheValueAndBothCauses) {
  const std::string out = *dir_ / "captions";
  const auto r = RunCommand(Ghsift() + " report --store " + store() + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string md = ReadText(out + "/report.md");
  EXPECT_EQ(LineStartingWith(md, "How performance reports ended"),
            std::string("How performance reports ended: fixed_by_pr (closed by a merged PR of the repo), "
                        "closed_without_pr, open, or ") +
                kUnknownValue +
                " (no event gave its state: issue events that carry ids only, as most of 2011-2014 do; or it "
                "closed in a month whose pull requests carry no text, so a closing pull request cannot be seen). "
                "(`tables/resolution_performance.csv`)");
}

}  // namespace
}  // namespace ghsift
