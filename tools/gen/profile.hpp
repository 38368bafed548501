#pragma once
// Generator profiles: the shape of a real archive hour of one era (`ghsift gen --profile`).
// A profile sets the type mix, how many distinct repositories and actors an hour holds per
// event, and the PushEvent commit counts that drive bytes per line. It changes only the
// background events' draws and the lifecycle share; the planned reports, and so truth.json's
// rules, are the same as without a profile.
#include <array>
#include <span>
#include <string>
#include <string_view>

#include "gen/event_writer.hpp"

namespace ghsift::gen {

struct Profile {
  const char* name;
  const char* start_hour;   //!< default first hour
  int events_per_hour;      //!< the real hour's size (the CLI's default with this profile)
  double lifecycle_share;   //!< IssuesEvent + IssueCommentEvent + PullRequestEvent share of all events
  double pr_share;          //!< share of new reports that are pull requests (sets the lifecycle split)
  //! Share of new reports opened before the corpus (their first event is a comment or a close,
  //! which raises comments against IssuesEvent opened in short corpora, as real hours show).
  double pre_corpus_share;
  //! Background type weights by EventType (lifecycle types are planned, so 0 here).
  std::array<int, kEventTypeCount> background_weights;
  // Distinct background repositories and actors grow with the hour's size as in real hours,
  // K(n) = ratio * 2048 * (n / 2048)^growth after n events: event n brings one never seen this
  // hour with probability K'(n), else it repeats the party of an earlier event (so busy
  // parties get busier). The draws are independent, so every hour lands near the curve.
  double repos_per_event_at_2048, repo_growth;
  double actors_per_event_at_2048, actor_growth;
  //! PushEvent commit counts 1..8, relative weights.
  std::array<int, 8> push_commit_weights;
  bool actor_display_login;  //!< the envelope's actor shows display_login (added to the API in 2016-2017)
};

//! Every profile (the only list of them).
std::span<const Profile> Profiles();

//! The profile named `name` ("2016", "2024"), or null.
const Profile* FindProfile(std::string_view name);

//! "2016, 2024": for error messages and help.
std::string ProfileNames();

}  // namespace ghsift::gen
