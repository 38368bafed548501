#include "aggregate/event_type_table.hpp"

#include <array>
#include <vector>

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

// Candidates by name length, so that a lookup (once per event) compares one or two names.
struct TypesByLength {
  static constexpr size_t kMaxLength = 40;
  std::array<std::vector<uint16_t>, kMaxLength + 1> ids;
  TypesByLength() {
    for (size_t i = 0; i < kTypes.size(); ++i) ids[kTypes[i].size()].push_back(static_cast<uint16_t>(i));
  }
};

uint16_t EventTypeId(std::string_view type) {
  static const TypesByLength by_length;
  if (type.size() > TypesByLength::kMaxLength) return kUnknownEventType;
  for (uint16_t id : by_length.ids[type.size()]) {
    if (kTypes[id] == type) return id;
  }
  return kUnknownEventType;
}

std::string_view EventTypeName(uint16_t id) { return id < kTypes.size() ? kTypes[id] : std::string_view(); }

}  // namespace ghsift
