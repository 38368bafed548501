#pragma once
// Writes one event line (without the newline) in the layout of GH Archive's first hours
// (2011-02-12 on, from the Events API of api.github.dev): envelope `repo, type, [org], public,
// created_at, payload, actor, id`, and payloads that name their repository and actor again as
// strings (`"repo":"owner/name","actor":login,"actor_gravatar":...`).
//
// What these hours do not hold, the lines do not hold either: an IssuesEvent payload is only
// `{number, repo, actor, issue: <id>, actor_gravatar, action}` (no title, body, state, labels
// or times); a PullRequestEvent's `pull_request` is `{title, number, commits, deletions, id,
// issue_id, additions}` (a title, but no body, state or merge); a planned comment becomes an
// IssueCommentEvent `{issue_id, comment_id}` (no text and no issue object, so no report).
#include <cstdint>
#include <string>

#include "gen/event_writer.hpp"
#include "gen/issue_plan.hpp"
#include "gen/rng.hpp"
#include "gen/world.hpp"

namespace ghsift::gen {

//! The type a 2011 file shows for a drawn background type: releases (July 2013) and review
//! events did not exist yet; a drawn ReleaseEvent becomes a PushEvent, a review event a
//! CommitCommentEvent.
EventType Events2011Type(EventType type);

class Events2011Writer {
 public:
  //! `hour` is the corpus hour index: it decides the repo names in use (rename).
  Events2011Writer(const World& world, const Plan& plan, int hour);

  //! Appends the IssuesEvent / IssueCommentEvent / PullRequestEvent of a planned action.
  EventType WriteLifecycle(const Action& action, uint64_t event_id, std::string& out);

  //! Appends a background event of Events2011Type(`type`) and returns that type. Contents come
  //! from `rng`; `forced_repo`, when set, replaces the drawn repository.
  EventType WriteBackground(EventType type, int64_t time, uint64_t event_id, Rng& rng, std::string& out,
                            const Repo* forced_repo = nullptr);

 private:
  //! `{"repo":{...},"type":...,["org":{...},]"public":true,"created_at":...,"payload":`
  void BeginEnvelope(std::string& out, EventType type, const Repo& repo, int64_t time);
  //! `,"actor":{...},"id":"<id>"}` after the payload.
  void EndEnvelope(std::string& out, const User& actor, uint64_t event_id);
  //! `"repo":"owner/name","actor":login` inside a payload.
  void AppendRepoAndActor(std::string& out, const Repo& repo, const User& actor);
  //! `"actor_gravatar":"<32 hex>"` inside a payload.
  void AppendActorGravatar(std::string& out, const User& actor);

  const World& world_;
  const Plan& plan_;
  int hour_;
};

}  // namespace ghsift::gen
