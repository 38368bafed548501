#pragma once
// truth.json: the exact numbers a correct engine must find in the generated corpus.
// Computed from the plan and what the hour writers report having written (actions of missing
// and single-event hours are left out), never by re-reading the files.
// Issue lifecycle by repo (closed_by_repo, resolution_by_repo, comments_by_repo,
// median_days_to_close_by_repo) follows `ghsift query`'s rules: the latest written snapshot's
// state and closed_at, the highest comment count written, and "fixed_by_pr" when a written
// merged PullRequestEvent of the same repo closes the issue (ClosesReferencedIssue).
// prs_by_repo_month also counts the background pull requests that written review events with
// a text name (CorpusCounts::reviewed_prs): to the engine they are pull request reports.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "gen/background_pr.hpp"
#include "gen/event_writer.hpp"
#include "gen/issue_plan.hpp"
#include "gen/world.hpp"

namespace ghsift::gen {

//! What the written lifecycle events show of a report. kFull: the whole issue or pull request
//! (every schema but the two below). kEvents2011: IssuesEvent and PullRequestEvent show the
//! number only (a PR also its title), IssueCommentEvent no report at all. kSlim2025:
//! PullRequestEvent shows the number only; issues and comments show everything.
enum class TextView : uint8_t { kFull, kEvents2011, kSlim2025 };

struct CorpusCounts {
  std::vector<std::string> files;  //!< files written, in hour order
  uint64_t events = 0;
  uint64_t bad_lines = 0;
  std::array<uint64_t, kEventTypeCount> by_type{};
  uint64_t modern_events = 0, legacy_events = 0;
  uint64_t joined_records = 0, duplicate_events = 0, nul_lines = 0;
  std::vector<std::string> missing_hours, single_event_hours;  //!< file stems, in hour order
  //! Per hour index: how many of the hour's planned lifecycle actions were written (a prefix
  //! of its range). Empty = all of them.
  std::vector<uint64_t> lifecycle_written;
  int first_hour = -1, last_hour = -1;
  TextView view = TextView::kFull;  //!< first/last hour index whose file holds an event
  //! The background pull requests that written review events named (gen/background_pr.hpp).
  ReviewedPrs reviewed_prs;
};

//! Returns truth.json's text: keys sorted, two-space indentation, trailing newline.
std::string BuildTruthJson(const World& world, const Plan& plan, const CorpusCounts& counts);

}  // namespace ghsift::gen
