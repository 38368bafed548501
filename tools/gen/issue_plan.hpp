#pragma once
// Lifecycle planning: which issues and pull requests exist, and every IssuesEvent,
// IssueCommentEvent and PullRequestEvent of the corpus with the report's state right after
// it. Planned once, sequentially, from the seed; hours only read the plan.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gen/gen_options.hpp"
#include "gen/report_text.hpp"
#include "gen/world.hpp"

namespace ghsift::gen {

enum class ReportKind : uint8_t { kIssue, kPr };

enum class ActionType : uint8_t { kOpened, kClosed, kReopened, kLabeled, kComment, kSynchronize };

enum class StateReason : uint8_t { kNull, kCompleted, kNotPlanned, kReopened };

//! How a PR's text names an issue: `#N`, `owner/repo#N` or `https://github.com/owner/repo/issues/N`.
enum class RefForm : uint8_t { kNumber, kQualified, kUrl };

struct Report {
  ReportKind kind = ReportKind::kIssue;
  Theme theme = Theme::kNone;
  uint32_t repo = 0;    //!< index into World::repos
  uint32_t number = 0;  //!< unique per repo
  uint32_t author = 0;  //!< index into World::users
  uint64_t issue_id = 0;
  uint64_t pr_id = 0;
  int64_t created_at = 0;
  bool pre_corpus = false;  //!< created before the first hour, first seen through a later event
  std::string title;
  std::string body;
  bool body_null = false;
  std::vector<uint32_t> labels;  //!< every label it will ever carry; snapshots show a prefix
  uint8_t initial_labels = 0;
  uint32_t pre_comments = 0;  //!< comments made before the corpus starts
  // A PR's reference to an issue, in its body (or its title when `ref_in_title`): a closing
  // keyword ("Fixes #N", "Closes owner/repo#N") or a mere mention ("see #N").
  uint32_t ref_number = 0;     //!< the issue number named; 0 = no reference
  bool ref_closing = false;    //!< written with a closing keyword
  bool ref_in_title = false;
  RefForm ref_form = RefForm::kNumber;
  std::string ref_repo_name;   //!< owner/name written in a qualified or URL reference ("" for #N)
  std::string ref_text;        //!< the phrase as written
  // Pull request facts.
  uint32_t head_user = 0;
  uint32_t additions = 0, deletions = 0, changed_files = 0, base_commits = 1, review_comments = 0;
  bool draft = false;
  // Probe markers actually planted (only where a written event shows them).
  bool probe_title = false, probe_body = false, probe_code_body = false, probe_comment = false,
       probe_code_comment = false, probe_label = false;
};

//! One planned lifecycle event and the report's state right after it.
struct Action {
  int64_t time = 0;
  uint32_t report = 0;
  ActionType type = ActionType::kOpened;
  bool open = true;
  bool merged = false;
  StateReason state_reason = StateReason::kNull;
  uint8_t labeled_so_far = 0;  //!< labels shown = initial_labels + labeled_so_far
  uint16_t commits = 1;
  uint32_t comments = 0;  //!< comment count of the snapshot (includes this comment)
  uint32_t actor = 0;
  uint32_t merged_by = 0;
  int64_t closed_at = 0;  //!< 0 = null
  int64_t merged_at = 0;  //!< 0 = null
  uint64_t comment_id = 0;
  bool probe_comment_prose = false;
  bool probe_comment_code = false;
};

struct Plan {
  std::vector<Report> reports;
  std::vector<Action> actions;     //!< sorted by time, strictly increasing per report
  std::vector<size_t> hour_begin;  //!< actions of hour h are [hour_begin[h], hour_begin[h + 1])
};

//! Whether `pr`'s text closes issue `pr.ref_number` of its own repository when its merge is
//! written under the repository name `repo_name` (GitHub's rule, and the engine's: a closing
//! keyword, and a qualified reference names that same repository, any case).
bool ClosesReferencedIssue(const Report& pr, std::string_view repo_name);

//! Lifecycle events take this share (per mille of all events): PullRequestEvent 80,
//! IssueCommentEvent 70, IssuesEvent 30 out of a 980 total mix.
constexpr int kLifecyclePerMille = 180;
constexpr int kMixTotal = 980;

//! Lifecycle events planned for one hour: the archive's mix, or `lifecycle_share` when >= 0.
int LifecycleSlotsPerHour(int events_per_hour, double lifecycle_share = -1.0);

Plan PlanReports(const World& world, const GenOptions& options);

}  // namespace ghsift::gen
