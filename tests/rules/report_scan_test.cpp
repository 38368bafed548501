#include "rules/report_scan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "rules/rule_test_support.hpp"

namespace ghsift {
namespace {

Rule MakeRule(std::string id, std::string pattern, FieldMask fields) {
  return testing::MakeRule(std::move(id), std::move(pattern), fields, {"caseless"});
}

std::shared_ptr<const RuleDatabase> TestRules() {
  RuleSet set;
  set.rules.push_back(MakeRule("title.slow", "slow", MaskOf(Field::kTitle)));
  set.rules.push_back(MakeRule("body.leak", "memory leak", MaskOf(Field::kBody)));
  set.rules.push_back(MakeRule("code.oom", "out of memory", MaskOf(Field::kCode)));
  set.rules.push_back(MakeRule("comment.same", "same here", MaskOf(Field::kComment)));
  set.rules.push_back(MakeRule("label.perf", "^perf$", MaskOf(Field::kLabel)));
  // A code rule that would match across the body's code and a comment's code if they were one text.
  set.rules.push_back(MakeRule("code.split", "alpha\\nbeta", MaskOf(Field::kCode)));
  auto db = RuleDatabase::Compile(set);
  EXPECT_TRUE(db.ok()) << db.status().message();
  return *db;
}

ReportText Report(std::string_view title, std::string_view body, const std::vector<std::string_view>& comments = {},
                  const std::vector<std::string_view>& labels = {}) {
  ReportText report;
  report.Add(Field::kTitle, title);
  report.Add(Field::kBody, body);
  for (std::string_view c : comments) report.Add(Field::kComment, c);
  report[Field::kLabel].assign(labels.begin(), labels.end());
  return report;
}

std::vector<std::string> Matched(ReportScan& scan, const RuleDatabase& db, const ReportText& report) {
  MatchSet matches;
  scan.Scan(ReportTextViews(report).view(), matches);
  std::vector<std::string> ids;
  for (uint32_t id : matches.ids()) ids.push_back(db.rules().rules[id].id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

TEST(ReportScanTest, EveryFieldIsScannedOnItsOwn) {
  auto db = TestRules();
  Scanner scanner(db);
  ReportScan scan(scanner);
  const ReportText report = Report("Slow training", "A memory leak.\n```\nout of memory\nalpha\n```\n",
                                   {"Same here.\n```\nbeta\n```\n"}, {"perf", "bug"});
  EXPECT_EQ(Matched(scan, *db, report),
            (std::vector<std::string>{"body.leak", "code.oom", "comment.same", "label.perf", "title.slow"}));
  // The body's prose is not code and the comment's prose is not body.
  EXPECT_EQ(Matched(scan, *db, Report("Slow training", "out of memory\n", {"a memory leak"}, {"perf", "bug"})),
            (std::vector<std::string>{"label.perf", "title.slow"}));
}

// The memo returns what a scan returns: for the same issue text with other comments, for an
// edited body, for other labels, and for texts that share a memo slot.
TEST(ReportScanTest, MemoGivesTheMatchesOfAScan) {
  auto db = TestRules();
  Scanner plain_scanner(db), memo_scanner(db);
  ReportScan plain(plain_scanner);
  ReportScan memo(memo_scanner, /*memo_slots=*/2);
  const std::vector<std::string> titles = {"Slow fit", "Crash", "slow again"};
  const std::vector<std::string> bodies = {"", "memory leak", "```\nout of memory\n```\n", "no leak here"};
  const std::vector<std::vector<std::string_view>> label_sets = {{}, {"perf"}, {"perf", "bug"}, {"bug"}};
  const std::vector<std::vector<std::string_view>> comment_sets = {{}, {"same here"}, {"```\nout of memory\n```"}};
  size_t reports = 0;
  for (int round = 0; round < 2; ++round) {
    for (const auto& title : titles) {
      for (const auto& body : bodies) {
        for (const auto& labels : label_sets) {
          for (const auto& comments : comment_sets) {
            const ReportText report = Report(title, body, comments, labels);
            EXPECT_EQ(Matched(memo, *db, report), Matched(plain, *db, report))
                << title << " | " << body << " | " << labels.size() << " labels | " << comments.size();
            ++reports;
          }
        }
      }
    }
  }
  // Consecutive reports share their issue text across the comment variants: those are hits.
  EXPECT_EQ(memo.memo_hits(), reports / 3 * 2);
  EXPECT_EQ(plain.memo_hits(), 0u);
  // A text over the memo's size limit is scanned every time, with the same result.
  const std::string long_body = std::string(ReportScan::kMemoMaxTextBytes, 'x') + " memory leak";
  const ReportText report = Report("slow", long_body);
  const uint64_t hits_before = memo.memo_hits();
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(Matched(memo, *db, report), (std::vector<std::string>{"body.leak", "title.slow"}));
  }
  EXPECT_EQ(memo.memo_hits(), hits_before);
}

}  // namespace
}  // namespace ghsift
