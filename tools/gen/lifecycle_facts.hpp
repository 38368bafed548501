#pragma once
// What a planned issue/PR action shows, whichever layout writes it. The modern EventWriter and
// the LegacyEventWriter both call these, so a report reads the same in a 2013 and a 2024 line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "gen/event_writer.hpp"
#include "gen/issue_plan.hpp"
#include "gen/world.hpp"

namespace ghsift::gen {

//! IssueCommentEvent for a comment, else PullRequestEvent or IssuesEvent by the report's kind.
EventType LifecycleType(const Report& report, const Action& action);

//! The payload's "action" value ("created" for a comment).
const char* ActionName(ActionType type);

//! How many of the report's labels it carries at `action` (labels are added in order).
size_t ShownLabels(const Report& report, const Action& action);

//! The assignee of the report whose issue id is `key`, or null: one report in six has one.
const User* AssigneeOf(const World& world, uint64_t key);

//! Replaces `*text` with the body of a planned comment. It comes from the comment's own random
//! stream, not the hour's, so it does not depend on which layout or thread writes it.
void MakeActionComment(const World& world, uint64_t seed, const Report& report, const Action& action,
                       std::string* text);

//! The links after an issue's "url", alike in both APIs: `,"labels_url":"<issue_url>/labels{/name}",
//! "comments_url":...,"events_url":...,"html_url":"https://github.com/<full>/issues/<number>` (or
//! `/pull/` for a PR; the string is left open).
void AppendIssueLinks(std::string& out, std::string_view issue_url, std::string_view full_name, bool is_pr,
                      uint32_t number);

//! The times of a pull request and its merge commit, which the 2013 and the modern API write
//! alike: `,"created_at":...,"updated_at":...,"closed_at":...,"merged_at":...,"merge_commit_sha":"<sha>`
//! (the string is left open). A zero closed/merged time is null.
void AppendPrTimesAndMergeSha(std::string& out, int64_t created_at, int64_t updated_at, int64_t closed_at,
                              int64_t merged_at, uint64_t pr_id, uint32_t commits);

}  // namespace ghsift::gen
