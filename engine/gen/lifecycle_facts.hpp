#pragma once
// What a planned issue/PR action shows, whichever layout writes it. The modern EventWriter and
// the LegacyEventWriter both call these, so a report reads the same in a 2013 and a 2024 line.
#include <cstddef>
#include <cstdint>
#include <string>

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

}  // namespace ghsift::gen
