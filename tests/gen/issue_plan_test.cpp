// The lifecycle plan links PRs to issues the way GitHub projects do: a PR says "Fixes #N" and
// its merge closes the issue; some such PRs are closed unmerged, some only mention an issue,
// and some issues are closed by hand.
#include "gen/issue_plan.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <utility>

#include "gen/civil_time.hpp"
#include "gen/schemas.hpp"
#include "gen/world.hpp"

namespace ghsift::gen {
namespace {

TEST(IssuePlanTest, MergedClosingPrsCloseTheirIssues) {
  GenOptions o;
  o.hours = 24;
  o.events_per_hour = 2000;
  o.seed = 11;
  o.tracked_share = 0.6;
  const int64_t start = ParseStartHour(std::string(FindSchema("modern")->start_hour)).value();
  const World world = World::Build(o.seed, start, o.hours);
  const Plan plan = PlanReports(world, o);

  std::map<std::pair<uint32_t, uint32_t>, uint32_t> issue_by_number;  // (repo, number) -> report
  for (uint32_t i = 0; i < plan.reports.size(); ++i) {
    const Report& r = plan.reports[i];
    if (r.kind == ReportKind::kIssue) issue_by_number[{r.repo, r.number}] = i;
  }
  std::map<uint32_t, std::vector<const Action*>> actions_of;
  for (const Action& a : plan.actions) actions_of[a.report].push_back(&a);

  std::set<RefForm> forms;
  int merged_fixes = 0, unmerged_fixes = 0, mentions = 0, foreign = 0;
  std::map<uint32_t, std::vector<const Action*>> merges_of_issue;  // issue report -> merges closing it
  for (uint32_t i = 0; i < plan.reports.size(); ++i) {
    const Report& r = plan.reports[i];
    if (r.kind != ReportKind::kPr || r.ref_number == 0) continue;
    EXPECT_NE(r.ref_in_title ? r.title.find(r.ref_text) : r.body.find(r.ref_text), std::string::npos) << r.ref_text;
    if (!r.ref_closing) {
      ++mentions;
      continue;
    }
    if (r.ref_form != RefForm::kNumber && !ClosesReferencedIssue(r, world.repos[r.repo].NameAt(0).full) &&
        !ClosesReferencedIssue(r, world.repos[r.repo].LatestName().full)) {
      ++foreign;
      continue;
    }
    forms.insert(r.ref_form);
    const auto issue = issue_by_number.find({r.repo, r.ref_number});
    ASSERT_NE(issue, issue_by_number.end()) << r.ref_text;
    const Action* merge = nullptr;
    for (const Action* a : actions_of[i]) {
      if (a->type == ActionType::kClosed && a->merged) merge = a;
    }
    if (merge != nullptr) {
      ++merged_fixes;
      merges_of_issue[issue->second].push_back(merge);
    } else if (!actions_of[i].empty() && !actions_of[i].back()->open) {
      ++unmerged_fixes;
    }
  }
  int closed_by_hand = 0;
  for (uint32_t i = 0; i < plan.reports.size(); ++i) {
    if (plan.reports[i].kind != ReportKind::kIssue) continue;
    const auto merges = merges_of_issue.find(i);
    for (const Action* a : actions_of[i]) {
      if (a->type != ActionType::kClosed) continue;
      if (merges == merges_of_issue.end()) {
        ++closed_by_hand;
        continue;
      }
      // A linked issue is closed by the merge only: right after it, by the merger.
      ASSERT_EQ(merges->second.size(), 1u);
      const Action* merge = merges->second[0];
      EXPECT_GT(a->time, merge->time);
      EXPECT_EQ(a->actor, merge->merged_by);
      EXPECT_EQ(a->state_reason, StateReason::kCompleted);
    }
  }
  EXPECT_GT(merged_fixes, 30);
  EXPECT_GT(unmerged_fixes, 5);
  EXPECT_GT(mentions, 30);
  EXPECT_GT(foreign, 0);
  EXPECT_GT(closed_by_hand, 30);
  EXPECT_EQ(forms, (std::set<RefForm>{RefForm::kNumber, RefForm::kQualified, RefForm::kUrl}));
}

}  // namespace
}  // namespace ghsift::gen
