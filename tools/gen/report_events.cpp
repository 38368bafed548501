// Lifecycle events (IssuesEvent, IssueCommentEvent, PullRequestEvent) and the issue and
// pull_request objects they embed. Part of EventWriter.
#include "gen/event_writer.hpp"
#include "gen/json_text.hpp"
#include "gen/lifecycle_facts.hpp"

namespace ghsift::gen {

namespace {

const char* StateReasonJson(StateReason reason) {
  switch (reason) {
    case StateReason::kCompleted: return "\"completed\"";
    case StateReason::kNotPlanned: return "\"not_planned\"";
    case StateReason::kReopened: return "\"reopened\"";
    default: return "null";
  }
}

void AppendLabels(std::string& out, const World& world, const std::vector<uint32_t>& labels, size_t count,
                  const Repo& repo, std::string_view full_name) {
  out.push_back('[');
  for (size_t i = 0; i < count; ++i) {
    if (i > 0) out.push_back(',');
    AppendLabel(out, world.labels[labels[i]], labels[i], repo.id, full_name);
  }
  out.push_back(']');
}

// The value of "assignee" and the "assignees" list after it: an issue or PR has one at most.
void AppendAssignees(std::string& out, const User* assignee) {
  if (assignee == nullptr) {
    out.append("null,\"assignees\":[]");
    return;
  }
  AppendAccount(out, ViewOf(*assignee));
  out.append(",\"assignees\":[");
  AppendAccount(out, ViewOf(*assignee));
  out.push_back(']');
}

}  // namespace

EventType EventWriter::WriteLifecycle(const Action& a, uint64_t event_id, std::string& out) {
  const Report& r = plan_.reports[a.report];
  const Repo& repo = world_.repos[r.repo];
  const User& actor = world_.users[a.actor];
  const EventType type = LifecycleType(r, a);
  BeginEnvelope(out, event_id, type, actor, repo);
  out.append("{\"action\":\"");
  out.append(ActionName(a.type));
  out.push_back('"');
  if (type == EventType::kPullRequest && slim_) {
    out.append(",\"number\":");
    AppendUint(out, r.number);
    out.append(",\"pull_request\":");
    AppendSlimPullRequest(out, repo, r.number, r.pr_id, a.commits);
    const size_t shown = ShownLabels(r, a);
    if (a.type == ActionType::kLabeled && shown > 0) {
      out.append(",\"labels\":");
      AppendLabels(out, world_, r.labels, shown, repo, repo.NameAt(hour_).full);
    }
  } else if (type == EventType::kPullRequest) {
    out.append(",\"number\":");
    AppendUint(out, r.number);
    if (a.type == ActionType::kSynchronize) {
      out.append(",\"before\":\"");
      AppendSha(out, r.pr_id * 131 + a.commits - 1);
      out.append("\",\"after\":\"");
      AppendSha(out, r.pr_id * 131 + a.commits);
      out.push_back('"');
    }
    out.append(",\"pull_request\":");
    AppendPullRequest(out, ViewOfPlannedPr(r, a));
  } else {
    out.append(",\"issue\":");
    AppendIssue(out, r, a);
    if (type == EventType::kIssueComment) {
      out.append(",\"comment\":");
      AppendComment(out, r, a);
    }
  }
  const size_t shown = ShownLabels(r, a);
  if (a.type == ActionType::kLabeled && shown > 0) {
    out.append(",\"label\":");
    const uint32_t label = r.labels[shown - 1];
    AppendLabel(out, world_.labels[label], label, repo.id, repo.NameAt(hour_).full);
  }
  out.push_back('}');
  EndEnvelope(out, a.time, repo);
  return type;
}

void EventWriter::AppendSlimPullRequest(std::string& out, const Repo& repo, uint32_t number, uint64_t pr_id,
                                        uint32_t commits) {
  const RepoName& name = repo.NameAt(hour_);
  out.append("{\"url\":\"");
  AppendApiRepoUrl(out, name.full);
  out.append("/pulls/");
  AppendUint(out, number);
  out.append("\",\"id\":");
  AppendUint(out, pr_id);
  out.append(",\"number\":");
  AppendUint(out, number);
  // The head branch lives in the same repository here; only refs, shas and repo ids remain.
  for (const bool head : {true, false}) {
    out.append(head ? ",\"head\":{\"ref\":\"patch-" : ",\"base\":{\"ref\":\"");
    if (head) {
      AppendUint(out, number);
    } else {
      out.append(repo.default_branch);
    }
    out.append("\",\"sha\":\"");
    AppendSha(out, head ? pr_id * 131 + commits : pr_id * 131);
    out.append("\",\"repo\":{\"id\":");
    AppendUint(out, repo.id);
    out.append(",\"name\":");
    AppendQuoted(out, name.name);
    out.append(",\"url\":\"");
    AppendApiRepoUrl(out, name.full);
    out.append("\"}}");
  }
  out.push_back('}');
}

void EventWriter::AppendIssue(std::string& out, const Report& r, const Action& a) {
  const Repo& repo = world_.repos[r.repo];
  const std::string_view full = repo.NameAt(hour_).full;
  const bool is_pr = r.kind == ReportKind::kPr;
  scratch_.clear();
  AppendApiRepoUrl(scratch_, full);
  const size_t repo_url_len = scratch_.size();
  scratch_.append("/issues/");
  AppendUint(scratch_, r.number);
  const std::string_view issue_url = scratch_;
  const std::string_view repo_url = issue_url.substr(0, repo_url_len);

  out.append("{\"url\":");
  AppendQuoted(out, issue_url);
  out.append(",\"repository_url\":");
  AppendQuoted(out, repo_url);
  AppendIssueLinks(out, issue_url, full, is_pr, r.number);
  out.append("\",\"id\":");
  AppendUint(out, r.issue_id);
  out.append(",\"node_id\":\"");
  AppendNodeId(out, is_pr ? "PR_kwDO" : "I_kwDO", r.issue_id);
  out.append("\",\"number\":");
  AppendUint(out, r.number);
  out.append(",\"title\":");
  AppendJsonString(out, r.title);
  out.append(",\"user\":");
  AppendAccount(out, ViewOf(world_.users[r.author]));
  out.append(",\"labels\":");
  AppendLabels(out, world_, r.labels, ShownLabels(r, a), repo, full);
  out.append(a.open ? ",\"state\":\"open\"" : ",\"state\":\"closed\"");
  out.append(",\"locked\":false,\"assignee\":");
  AppendAssignees(out, AssigneeOf(world_, r.issue_id));
  out.append(",\"milestone\":null,\"comments\":");
  AppendUint(out, a.comments);
  out.append(",\"created_at\":");
  AppendQuotedTime(out, r.created_at);
  out.append(",\"updated_at\":");
  AppendQuotedTime(out, a.time);
  out.append(",\"closed_at\":");
  AppendTimeOrNull(out, a.closed_at);
  out.append(",\"author_association\":\"");
  out.append(AssociationOf(world_.users[r.author].id, repo.id, true));
  out.append("\",\"active_lock_reason\":null");
  if (is_pr) {
    out.append(",\"draft\":");
    AppendBool(out, r.draft);
    out.append(",\"pull_request\":{\"url\":\"");
    out.append(repo_url);
    out.append("/pulls/");
    AppendUint(out, r.number);
    struct Link {
      const char* key;
      const char* suffix;
    };
    for (const Link& link : {Link{"html_url", ""}, Link{"diff_url", ".diff"}, Link{"patch_url", ".patch"}}) {
      out.append("\",\"");
      out.append(link.key);
      out.append("\":\"https://github.com/");
      out.append(full);
      out.append("/pull/");
      AppendUint(out, r.number);
      out.append(link.suffix);
    }
    out.append("\",\"merged_at\":");
    AppendTimeOrNull(out, a.merged_at);
    out.push_back('}');
  }
  out.append(",\"body\":");
  AppendJsonStringOrNull(out, r.body, r.body_null);
  out.push_back(',');
  AppendReactions(out, issue_url);
  out.append(",\"timeline_url\":\"");
  out.append(issue_url);
  out.append("/timeline\",\"performed_via_github_app\":null,\"state_reason\":");
  out.append(is_pr ? "null" : StateReasonJson(a.state_reason));
  out.push_back('}');
}

void EventWriter::AppendComment(std::string& out, const Report& r, const Action& a) {
  const Repo& repo = world_.repos[r.repo];
  const std::string_view full = repo.NameAt(hour_).full;
  const User& user = world_.users[a.actor];
  MakeActionComment(world_, seed_, r, a, &text_);

  scratch_.clear();
  AppendApiRepoUrl(scratch_, full);
  scratch_.append("/issues/comments/");
  AppendUint(scratch_, a.comment_id);
  out.append("{\"url\":");
  AppendQuoted(out, scratch_);
  out.append(",\"html_url\":\"https://github.com/");
  out.append(full);
  out.append(r.kind == ReportKind::kPr ? "/pull/" : "/issues/");
  AppendUint(out, r.number);
  out.append("#issuecomment-");
  AppendUint(out, a.comment_id);
  out.append("\",\"issue_url\":\"");
  AppendApiRepoUrl(out, full);
  out.append("/issues/");
  AppendUint(out, r.number);
  out.append("\",\"id\":");
  AppendUint(out, a.comment_id);
  out.append(",\"node_id\":\"");
  AppendNodeId(out, "IC_kwDO", a.comment_id);
  out.append("\",\"user\":");
  AppendAccount(out, ViewOf(user));
  out.append(",\"created_at\":");
  AppendQuotedTime(out, a.time);
  out.append(",\"updated_at\":");
  AppendQuotedTime(out, a.time);
  out.append(",\"author_association\":\"");
  out.append(AssociationOf(user.id, repo.id, a.actor == r.author));
  out.append("\",\"body\":");
  AppendJsonString(out, text_);
  out.push_back(',');
  AppendReactions(out, scratch_);
  out.append(",\"performed_via_github_app\":null}");
}

PrView EventWriter::ViewOfPlannedPr(const Report& r, const Action& a) const {
  PrView v;
  v.repo = &world_.repos[r.repo];
  v.number = r.number;
  v.pr_id = r.pr_id;
  v.title = r.title;
  v.body = r.body;
  v.body_null = r.body_null;
  v.user = &world_.users[r.author];
  v.head_user = &world_.users[r.head_user];
  v.labels = &r.labels;
  v.label_count = ShownLabels(r, a);
  v.open = a.open;
  v.merged = a.merged;
  v.draft = r.draft;
  v.created_at = r.created_at;
  v.updated_at = a.time;
  v.closed_at = a.closed_at;
  v.merged_at = a.merged_at;
  v.merged_by = a.merged ? &world_.users[a.merged_by] : nullptr;
  v.assignee = AssigneeOf(world_, r.issue_id);
  v.comments = a.comments;
  v.review_comments = r.review_comments;
  v.commits = a.commits;
  v.additions = r.additions;
  v.deletions = r.deletions;
  v.changed_files = r.changed_files;
  return v;
}

void EventWriter::AppendPullRequest(std::string& out, const PrView& pr) {
  const Repo& repo = *pr.repo;
  const RepoName& name = repo.NameAt(hour_);
  const std::string_view full = name.full;
  scratch_.clear();
  AppendApiRepoUrl(scratch_, full);
  const size_t repo_len = scratch_.size();
  scratch_.append("/pulls/");
  AppendUint(scratch_, pr.number);
  const std::string_view url = scratch_;
  const std::string_view repo_url = url.substr(0, repo_len);
  auto html = [&](std::string_view suffix) {
    out.append("https://github.com/");
    out.append(full);
    out.append("/pull/");
    AppendUint(out, pr.number);
    out.append(suffix);
  };
  auto issue_url = [&](std::string_view suffix) {
    out.append(repo_url);
    out.append("/issues/");
    AppendUint(out, pr.number);
    out.append(suffix);
  };

  out.append("{\"url\":");
  AppendQuoted(out, url);
  out.append(",\"id\":");
  AppendUint(out, pr.pr_id);
  out.append(",\"node_id\":\"");
  AppendNodeId(out, "PR_kwDO", pr.pr_id);
  out.append("\",\"html_url\":\"");
  html("");
  out.append("\",\"diff_url\":\"");
  html(".diff");
  out.append("\",\"patch_url\":\"");
  html(".patch");
  out.append("\",\"issue_url\":\"");
  issue_url("");
  out.append("\",\"number\":");
  AppendUint(out, pr.number);
  out.append(pr.open ? ",\"state\":\"open\"" : ",\"state\":\"closed\"");
  out.append(",\"locked\":false,\"title\":");
  AppendJsonString(out, pr.title);
  out.append(",\"user\":");
  AppendAccount(out, ViewOf(*pr.user));
  out.append(",\"body\":");
  AppendJsonStringOrNull(out, pr.body, pr.body_null);
  AppendPrTimesAndMergeSha(out, pr.created_at, pr.updated_at, pr.closed_at, pr.merged_at, pr.pr_id, pr.commits);
  out.append("\",\"assignee\":");
  AppendAssignees(out, pr.assignee);
  out.append(",\"requested_reviewers\":[],\"requested_teams\":[],\"labels\":");
  if (pr.labels != nullptr) {
    AppendLabels(out, world_, *pr.labels, pr.label_count, repo, full);
  } else {
    out.append("[]");
  }
  out.append(",\"milestone\":null,\"draft\":");
  AppendBool(out, pr.draft);
  out.append(",\"commits_url\":\"");
  out.append(url);
  out.append("/commits\",\"review_comments_url\":\"");
  out.append(url);
  out.append("/comments\",\"review_comment_url\":\"");
  out.append(repo_url);
  out.append("/pulls/comments{/number}\",\"comments_url\":\"");
  issue_url("/comments");
  out.append("\",\"statuses_url\":\"");
  out.append(repo_url);
  out.append("/statuses/");
  const size_t head_sha_at = out.size();
  AppendSha(out, pr.pr_id * 131 + pr.commits);
  const std::string head_sha = out.substr(head_sha_at, 40);

  // head: the contributor's fork (or a branch of the repo itself).
  const bool same_repo = pr.head_user == pr.user && pr.user->id % 4 == 0;
  fork_full_ = same_repo ? std::string(full) : pr.head_user->login + "/" + name.name;
  const std::string head_ref = "fix-" + std::to_string(pr.number);
  out.append("\",\"head\":{\"label\":\"");
  out.append(same_repo ? std::string_view(name.owner) : std::string_view(pr.head_user->login));
  out.push_back(':');
  out.append(head_ref);
  out.append("\",\"ref\":\"");
  out.append(head_ref);
  out.append("\",\"sha\":\"");
  out.append(head_sha);
  out.append("\",\"user\":");
  const AccountView owner = OwnerOf(world_, repo, hour_);
  AppendAccount(out, same_repo ? owner : ViewOf(*pr.head_user));
  out.append(",\"repo\":");
  RepoView base_view = ViewOfRepo(world_, repo, hour_, pr.updated_at);
  if (same_repo) {
    AppendFullRepo(out, base_view);
  } else {
    RepoView fork = base_view;
    fork.id = 200000000 + (pr.head_user->id * 7919 + repo.id) % 500000000;
    fork.full_name = fork_full_;
    fork.owner = ViewOf(*pr.head_user);
    fork.fork = true;
    fork.created_at = pr.created_at - 86400;
    fork.stars = 0;
    fork.forks = 0;
    fork.open_issues = 0;
    AppendFullRepo(out, fork);
  }
  out.append("},\"base\":{\"label\":\"");
  out.append(name.owner);
  out.push_back(':');
  out.append(repo.default_branch);
  out.append("\",\"ref\":\"");
  out.append(repo.default_branch);
  out.append("\",\"sha\":\"");
  AppendSha(out, repo.id * 1009 + static_cast<uint64_t>(hour_));
  out.append("\",\"user\":");
  AppendAccount(out, owner);
  out.append(",\"repo\":");
  AppendFullRepo(out, base_view);
  out.append("},\"_links\":{\"self\":{\"href\":\"");
  out.append(url);
  out.append("\"},\"html\":{\"href\":\"");
  html("");
  out.append("\"},\"issue\":{\"href\":\"");
  issue_url("");
  out.append("\"},\"comments\":{\"href\":\"");
  issue_url("/comments");
  out.append("\"},\"review_comments\":{\"href\":\"");
  out.append(url);
  out.append("/comments\"},\"review_comment\":{\"href\":\"");
  out.append(repo_url);
  out.append("/pulls/comments{/number}\"},\"commits\":{\"href\":\"");
  out.append(url);
  out.append("/commits\"},\"statuses\":{\"href\":\"");
  out.append(repo_url);
  out.append("/statuses/");
  out.append(head_sha);
  out.append("\"}},\"author_association\":\"");
  out.append(AssociationOf(pr.user->id, repo.id, true));
  out.append("\",\"auto_merge\":null,\"active_lock_reason\":null,\"merged\":");
  AppendBool(out, pr.merged);
  out.append(pr.merged ? ",\"mergeable\":null,\"rebaseable\":null,\"mergeable_state\":\"unknown\""
                       : ",\"mergeable\":true,\"rebaseable\":true,\"mergeable_state\":\"clean\"");
  out.append(",\"merged_by\":");
  if (pr.merged_by != nullptr) {
    AppendAccount(out, ViewOf(*pr.merged_by));
  } else {
    out.append("null");
  }
  out.append(",\"comments\":");
  AppendUint(out, pr.comments);
  out.append(",\"review_comments\":");
  AppendUint(out, pr.review_comments);
  out.append(",\"maintainer_can_modify\":");
  AppendBool(out, !same_repo && !pr.merged);
  out.append(",\"commits\":");
  AppendUint(out, pr.commits);
  out.append(",\"additions\":");
  AppendUint(out, pr.additions);
  out.append(",\"deletions\":");
  AppendUint(out, pr.deletions);
  out.append(",\"changed_files\":");
  AppendUint(out, pr.changed_files);
  out.push_back('}');
}

}  // namespace ghsift::gen
