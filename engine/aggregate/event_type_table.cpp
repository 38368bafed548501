#include "aggregate/event_type_table.hpp"

#include <array>

namespace ghsift {
namespace {

// Types of the Events API (2015+) followed by those only the old Timeline API had.
constexpr std::array<std::string_view, 25> kTypes = {
    "PushEvent", "CreateEvent", "WatchEvent", "PullRequestEvent", "IssueCommentEvent", "IssuesEvent",
    "DeleteEvent", "PullRequestReviewEvent", "PullRequestReviewCommentEvent", "ForkEvent", "ReleaseEvent",
    "GollumEvent", "MemberEvent", "PublicEvent", "CommitCommentEvent", "PullRequestReviewThreadEvent",
    "SponsorshipEvent", "DiscussionEvent", "DownloadEvent", "FollowEvent", "ForkApplyEvent", "GistEvent",
    "TeamAddEvent", "MarketplacePurchaseEvent", "WikiEvent"};

}  // namespace

uint16_t EventTypeId(std::string_view type) {
  for (size_t i = 0; i < kTypes.size(); ++i) {
    if (kTypes[i] == type) return static_cast<uint16_t>(i);
  }
  return kUnknownEventType;
}

std::string_view EventTypeName(uint16_t id) { return id < kTypes.size() ? kTypes[id] : std::string_view(); }

}  // namespace ghsift
