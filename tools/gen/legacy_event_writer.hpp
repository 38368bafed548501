#pragma once
// Writes one event line (without the newline) in the 2011-02-12..2014-12-31 Timeline API
// layout: `created_at` (local time with a UTC offset) first, then `payload, public, type,
// url, actor, actor_attributes, repository`. There is no `id`, `actor` is a login string and
// `repository.name` is the repo name alone (the full name is `owner + "/" + name`).
#include <cstdint>
#include <string>
#include <string_view>

#include "gen/background_pr.hpp"
#include "gen/event_writer.hpp"
#include "gen/issue_plan.hpp"
#include "gen/rng.hpp"
#include "gen/world.hpp"

namespace ghsift::gen {

//! UTC offsets (minutes) legacy `created_at` values carry: never `Z`.
inline constexpr int kLegacyOffsetsMinutes[] = {-420, -240, 120, 330};

//! The type a legacy file shows for a drawn background type: PullRequestReviewEvent did not
//! exist before 2015, so it becomes a PullRequestReviewCommentEvent.
EventType LegacyType(EventType type);

class LegacyEventWriter {
 public:
  //! `hour` is the corpus hour index: it decides the repo names in use (rename).
  LegacyEventWriter(const World& world, const Plan& plan, uint64_t seed, int hour);

  //! Writes the record's and the repository's local times as the original 2012 files did,
  //! "2012/04/11 15:01:33 -0700", instead of "2012-04-11T15:01:33-07:00", and shows no
  //! ReleaseEvent (a drawn one becomes a PushEvent): releases did not exist before July 2013.
  void UseSlashDates(bool on) { slash_dates_ = on; }

  //! Notes every background review comment written from now on in `sink` (null = none).
  void NoteReviewsIn(ReviewedPrs* sink) { reviewed_ = sink; }

  //! Appends the IssuesEvent / IssueCommentEvent / PullRequestEvent of a planned action;
  //! the report shows the same title, body, labels, state and comment text as the modern line.
  EventType WriteLifecycle(const Action& action, int offset_minutes, std::string& out);

  //! Appends a background event of LegacyType(`type`) and returns that type. Contents come
  //! from `rng`; `forced_repo`, when set, replaces the drawn repository.
  EventType WriteBackground(EventType type, int64_t time, int offset_minutes, Rng& rng, std::string& out,
                            const Repo* forced_repo = nullptr);

 private:
  //! `"created_at":...,"payload":` — the payload follows.
  void BeginEnvelope(std::string& out, int64_t time, int offset_minutes);
  //! `,"public":true,"type":...,"url":url_,"actor":...,"actor_attributes":...,"repository":...}`
  void EndEnvelope(std::string& out, EventType type, const User& actor, const Repo& repo, int64_t time,
                   int offset_minutes);

  void AppendUser(std::string& out, const User& user);
  void AppendLabels(std::string& out, const Report& report, size_t count, std::string_view full);
  void AppendLabel(std::string& out, uint32_t label, std::string_view full);
  void AppendIssue(std::string& out, const Report& report, const Action& action);
  void AppendComment(std::string& out, const Report& report, const Action& action);
  void AppendPullRequest(std::string& out, const Report& report, const Action& action);
  struct RepoOwner {
    std::string_view login;
    uint64_t id = 0;
    bool is_org = false;
  };
  //! A repository as the v3 API embedded it then (pull_request.head/base.repo, forkee).
  void AppendApiRepo(std::string& out, const Repo& repo, const RepoOwner& owner, std::string_view name, uint64_t id,
                     bool fork, int64_t now);

  const World& world_;
  const Plan& plan_;
  uint64_t seed_;
  int hour_;
  bool slash_dates_ = false;
  ReviewedPrs* reviewed_ = nullptr;
  std::string url_;      //!< the envelope's github.com page, set by the payload writer
  std::string text_;     //!< reused text scratch
  std::string scratch_;  //!< reused URL scratch
};

}  // namespace ghsift::gen
