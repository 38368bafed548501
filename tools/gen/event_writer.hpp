#pragma once
// Writes one event line (without the newline) in GH Archive key order: the envelope
// `id, type, actor, repo, payload, public, created_at[, org]` and each type's payload.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gen/api_objects.hpp"
#include "gen/background_pr.hpp"
#include "gen/issue_plan.hpp"
#include "gen/rng.hpp"
#include "gen/world.hpp"

namespace ghsift::gen {

enum class EventType : uint8_t {
  kPush, kCreate, kWatch, kPullRequest, kIssueComment, kIssues, kDelete, kPullRequestReview,
  kPullRequestReviewComment, kFork, kRelease, kGollum, kMember, kPublic, kCommitComment,
  kCount
};
constexpr size_t kEventTypeCount = static_cast<size_t>(EventType::kCount);

const char* EventTypeName(EventType type);

//! Picks the type of a background (non-lifecycle) event with the archive's usual mix.
EventType DrawBackgroundType(Rng& rng);

//! Picks the type of a background event with `weights` indexed by EventType.
EventType DrawBackgroundType(Rng& rng, const int* weights);

//! Who a background event is about: its repository and actor.
struct BackgroundParties {
  const Repo& repo;
  const User& actor;
};

//! Draws the repository and actor of a background event of `type`. Both layouts draw them the
//! same way, in the same order, so the rest of the event's draws follow in step. `forced_repo`,
//! when set, replaces the drawn repository (the draw still happens).
BackgroundParties DrawBackgroundParties(const World& world, EventType type, Rng& rng, const Repo* forced_repo);

//! A pull request as embedded in PullRequestEvent and the review events.
struct PrView {
  const Repo* repo = nullptr;
  uint32_t number = 0;
  uint64_t pr_id = 0;
  std::string_view title;
  std::string_view body;
  bool body_null = true;
  const User* user = nullptr;
  const User* head_user = nullptr;
  const std::vector<uint32_t>* labels = nullptr;
  size_t label_count = 0;
  bool open = true, merged = false, draft = false;
  int64_t created_at = 0, updated_at = 0, closed_at = 0, merged_at = 0;
  const User* merged_by = nullptr;
  const User* assignee = nullptr;
  uint32_t comments = 0, review_comments = 0, commits = 1, additions = 0, deletions = 0, changed_files = 1;
};

struct Profile;
class HourCast;

class EventWriter {
 public:
  //! `hour` is the corpus hour index: it decides the repo names in use (rename).
  EventWriter(const World& world, const Plan& plan, uint64_t seed, int hour);

  //! Background events follow `profile` (push sizes) and draw their parties from `cast`
  //! instead of the World. Both outlive the writer; null (the default) = no profile.
  void UseProfile(const Profile* profile, HourCast* cast) {
    profile_ = profile;
    cast_ = cast;
  }

  //! Writes the slim payloads of GH Archive since October 2025: PushEvent `{repository_id,
  //! push_id, ref, head, before}` (no size, no commits) and PullRequestEvent `{action, number,
  //! pull_request: {url, id, number, head, base}}` (no title, body, state, times or merge).
  //! PullRequestReviewEvent embeds the same slim pull request. IssuesEvent and
  //! IssueCommentEvent keep their full issue and comment.
  void UseSlimPayloads(bool on) { slim_ = on; }

  //! Notes every background review event written from now on in `sink` (null = none).
  void NoteReviewsIn(ReviewedPrs* sink) { reviewed_ = sink; }

  //! Appends the IssuesEvent / IssueCommentEvent / PullRequestEvent of a planned action.
  EventType WriteLifecycle(const Action& action, uint64_t event_id, std::string& out);

  //! Appends a background event of `type`; its contents come from `rng`. `forced_repo`, when
  //! set, replaces the drawn repository (review types must not be forced onto tracked repos).
  void WriteBackground(EventType type, int64_t time, uint64_t event_id, Rng& rng, std::string& out,
                       const Repo* forced_repo = nullptr);

 private:
  void BeginEnvelope(std::string& out, uint64_t id, EventType type, const User& actor, const Repo& repo);
  void EndEnvelope(std::string& out, int64_t time, const Repo& repo);

  void AppendIssue(std::string& out, const Report& report, const Action& action);
  void AppendComment(std::string& out, const Report& report, const Action& action);
  void AppendPullRequest(std::string& out, const PrView& pr);
  //! `{url, id, number, head, base}`: a pull request in the slim payloads of October 2025 on.
  void AppendSlimPullRequest(std::string& out, const Repo& repo, uint32_t number, uint64_t pr_id, uint32_t commits);
  PrView ViewOfPlannedPr(const Report& report, const Action& action) const;
  //! The background pull request of `repo` (BackgroundPrOf) as a review event at `now` shows it.
  PrView BackgroundPr(const Repo& repo, Rng& rng, int64_t now);

  void PushPayload(std::string& out, const Repo& repo, const User& actor, Rng& rng);
  void ReleasePayload(std::string& out, const Repo& repo, const User& actor, int64_t time, Rng& rng);
  //! Returns whether the review carries a text (a body); an approval may have none.
  bool ReviewPayload(std::string& out, const PrView& pr, const User& actor, int64_t time, Rng& rng);
  void ReviewCommentPayload(std::string& out, const PrView& pr, const User& actor, int64_t time, Rng& rng);
  void CommitCommentPayload(std::string& out, const Repo& repo, const User& actor, int64_t time, Rng& rng);

  const World& world_;
  const Plan& plan_;
  uint64_t seed_;
  int hour_;
  const Profile* profile_ = nullptr;
  HourCast* cast_ = nullptr;
  bool slim_ = false;
  ReviewedPrs* reviewed_ = nullptr;
  std::string text_;     //!< reused text scratch (comments, messages)
  std::string scratch_;  //!< reused URL scratch
  std::string fork_full_;
};

}  // namespace ghsift::gen
