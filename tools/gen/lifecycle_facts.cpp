#include "gen/lifecycle_facts.hpp"

#include <algorithm>

#include "gen/json_text.hpp"
#include "gen/report_text.hpp"
#include "gen/rng.hpp"

namespace ghsift::gen {

EventType LifecycleType(const Report& report, const Action& action) {
  if (action.type == ActionType::kComment) return EventType::kIssueComment;
  return report.kind == ReportKind::kPr ? EventType::kPullRequest : EventType::kIssues;
}

const char* ActionName(ActionType type) {
  switch (type) {
    case ActionType::kOpened: return "opened";
    case ActionType::kClosed: return "closed";
    case ActionType::kReopened: return "reopened";
    case ActionType::kLabeled: return "labeled";
    case ActionType::kSynchronize: return "synchronize";
    case ActionType::kComment: return "created";
  }
  return "opened";
}

size_t ShownLabels(const Report& report, const Action& action) {
  return std::min(report.labels.size(), static_cast<size_t>(report.initial_labels) + action.labeled_so_far);
}

const User* AssigneeOf(const World& world, uint64_t key) {
  if (key % 6 != 0) return nullptr;
  return &world.users[8 + (key / 6) % (world.users.size() - 8)];
}

void MakeActionComment(const World& world, uint64_t seed, const Report& report, const Action& action,
                       std::string* text) {
  Rng rng(MixSeed(seed, 0x636f6d6d656e74, action.comment_id));  // "comment"
  CommentTextSpec spec;
  spec.repo_full_name = world.repos[report.repo].names[0].full;
  spec.theme = report.theme;
  spec.probe_prose = action.probe_comment_prose;
  spec.probe_code = action.probe_comment_code;
  MakeComment(rng, spec, text);
}

void AppendIssueLinks(std::string& out, std::string_view issue_url, std::string_view full_name, bool is_pr,
                      uint32_t number) {
  out.append(",\"labels_url\":\"");
  out.append(issue_url);
  out.append("/labels{/name}\",\"comments_url\":\"");
  out.append(issue_url);
  out.append("/comments\",\"events_url\":\"");
  out.append(issue_url);
  out.append("/events\",\"html_url\":\"https://github.com/");
  out.append(full_name);
  out.append(is_pr ? "/pull/" : "/issues/");
  AppendUint(out, number);
}

void AppendPrTimesAndMergeSha(std::string& out, int64_t created_at, int64_t updated_at, int64_t closed_at,
                              int64_t merged_at, uint64_t pr_id, uint32_t commits) {
  out.append(",\"created_at\":");
  AppendQuotedTime(out, created_at);
  out.append(",\"updated_at\":");
  AppendQuotedTime(out, updated_at);
  out.append(",\"closed_at\":");
  AppendTimeOrNull(out, closed_at);
  out.append(",\"merged_at\":");
  AppendTimeOrNull(out, merged_at);
  out.append(",\"merge_commit_sha\":\"");
  AppendSha(out, pr_id * 131 + 977 + commits);
}

}  // namespace ghsift::gen
