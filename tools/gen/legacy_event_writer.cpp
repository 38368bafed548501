// Events in the old Timeline API layout (GH Archive 2011-02-12..2014-12-31).
#include "gen/legacy_event_writer.hpp"

#include "gen/api_objects.hpp"
#include "gen/civil_time.hpp"
#include "gen/json_text.hpp"
#include "gen/lifecycle_facts.hpp"
#include "gen/report_text.hpp"

namespace ghsift::gen {

namespace {

const char* const kBranches[] = {"feature/cache", "fix-typo", "dev", "patch-1", "refactor", "release-1.2",
                                 "gh-pages", "wip", "experiment"};
const char* const kPaths[] = {"src/main.py", "README.md", "setup.py", "lib/model.rb", "tests/test_io.py",
                              "docs/index.md", "Makefile", "src/utils.c"};
const char* const kCompanies[] = {"Acme", "Initech", "University of Somewhere", "Freelance", "Globex"};
const char* const kLocations[] = {"San Francisco, CA", "Berlin, Germany", "Tokyo", "London", "Bangalore", "Sao Paulo"};

void QuotedLocalTime(std::string& out, int64_t t, int offset_minutes, bool slash) {
  out.push_back('"');
  if (slash) {
    AppendSlashTimestamp(out, t, offset_minutes);
  } else {
    AppendOffsetTimestamp(out, t, offset_minutes);
  }
  out.push_back('"');
}

void AppendAccount(std::string& out, std::string_view login, uint64_t id, bool is_org) {
  out.append("{\"login\":");
  AppendQuoted(out, login);
  out.append(",\"id\":");
  AppendUint(out, id);
  out.append(",\"avatar_url\":\"https://secure.gravatar.com/avatar/");
  AppendGravatarId(out, id);
  out.append("?d=https://a248.e.akamai.net/assets.github.com%2Fimages%2Fgravatars%2Fgravatar-user-420.png\","
             "\"gravatar_id\":\"");
  AppendGravatarId(out, id);
  out.append("\",\"url\":\"https://api.github.com/");
  out.append(is_org ? "orgs/" : "users/");
  out.append(login);
  out.append(is_org ? "\",\"type\":\"Organization\"}" : "\",\"type\":\"User\"}");
}

// An optional user field (assignee, merged_by): the account, or null.
void AppendUserOrNull(std::string& out, const User* user) {
  if (user == nullptr) {
    out.append("null");
  } else {
    AppendAccount(out, user->login, user->id, false);
  }
}

// A repository's creation time as a legacy event may show it: never after the event.
int64_t CreatedBefore(const Repo& repo, int64_t now) {
  if (repo.created_at < now - 86400) return repo.created_at;
  return now - 86400 - static_cast<int64_t>(repo.id % (3 * 365 * 86400ULL));
}

}  // namespace

EventType LegacyType(EventType type) {
  return type == EventType::kPullRequestReview ? EventType::kPullRequestReviewComment : type;
}

LegacyEventWriter::LegacyEventWriter(const World& world, const Plan& plan, uint64_t seed, int hour)
    : world_(world), plan_(plan), seed_(seed), hour_(hour) {}

void LegacyEventWriter::AppendUser(std::string& out, const User& user) {
  AppendAccount(out, user.login, user.id, false);
}

void LegacyEventWriter::BeginEnvelope(std::string& out, int64_t time, int offset_minutes) {
  out.append("{\"created_at\":");
  QuotedLocalTime(out, time, offset_minutes, slash_dates_);
  out.append(",\"payload\":");
}

void LegacyEventWriter::EndEnvelope(std::string& out, EventType type, const User& actor, const Repo& repo,
                                    int64_t time, int offset_minutes) {
  const RepoName& name = repo.NameAt(hour_);
  out.append(",\"public\":true,\"type\":\"");
  out.append(EventTypeName(type));
  out.append("\",\"url\":");
  AppendQuoted(out, url_);
  out.append(",\"actor\":");
  AppendQuoted(out, actor.login);
  out.append(",\"actor_attributes\":{\"login\":");
  AppendQuoted(out, actor.login);
  out.append(",\"type\":\"User\",\"gravatar_id\":\"");
  AppendGravatarId(out, actor.id);
  out.push_back('"');
  const uint64_t extras = actor.id % 7;
  if (extras < 5) {
    out.append(",\"name\":");
    text_.assign(actor.login);
    if (!text_.empty() && text_[0] >= 'a' && text_[0] <= 'z') text_[0] = static_cast<char>(text_[0] - 'a' + 'A');
    AppendJsonString(out, text_);
  }
  if (extras < 2) {
    out.append(",\"company\":");
    AppendQuoted(out, kCompanies[actor.id % std::size(kCompanies)]);
  }
  if (extras < 3) {
    out.append(",\"blog\":\"http://");
    out.append(actor.login);
    out.append(".github.io\"");
  }
  if (extras < 4) {
    out.append(",\"location\":");
    AppendQuoted(out, kLocations[actor.id % std::size(kLocations)]);
  }
  if (extras == 0) {
    out.append(",\"email\":\"");
    out.append(actor.login);
    out.append("@example.com\"");
  }
  out.append("},\"repository\":{");
  if (!slash_dates_) {  // the original 2012 files give no id (real 2012-04-11-15 and 2012-06-14-15)
    out.append("\"id\":");
    AppendUint(out, repo.id);
    out.append(",");
  }
  out.append("\"name\":");
  AppendQuoted(out, name.name);
  out.append(",\"url\":\"https://github.com/");
  out.append(name.full);
  out.append("\",\"description\":");
  AppendJsonString(out, repo.description);
  out.append(",\"watchers\":");
  AppendUint(out, repo.stars);
  out.append(",\"stargazers\":");
  AppendUint(out, repo.stars);
  out.append(",\"forks\":");
  AppendUint(out, repo.forks);
  out.append(",\"fork\":false,\"size\":");
  AppendUint(out, repo.size_kb);
  out.append(",\"owner\":");
  AppendQuoted(out, name.owner);
  out.append(",\"private\":false,\"open_issues\":");
  AppendUint(out, repo.open_issues);
  out.append(",\"has_issues\":true,\"has_downloads\":true,\"has_wiki\":true,\"language\":");
  AppendQuoted(out, repo.language);
  out.append(",\"created_at\":");
  QuotedLocalTime(out, CreatedBefore(repo, time), offset_minutes, slash_dates_);
  out.append(",\"pushed_at\":");
  QuotedLocalTime(out, time - 60 - static_cast<int64_t>(repo.id % 3000), offset_minutes, slash_dates_);
  out.append(",\"master_branch\":");
  AppendQuoted(out, repo.default_branch);
  if (repo.org >= 0) {
    out.append(",\"organization\":");
    AppendQuoted(out, world_.orgs[static_cast<size_t>(repo.org)].login);
  }
  out.append("}}");
}

void LegacyEventWriter::AppendLabel(std::string& out, uint32_t label, std::string_view full) {
  const Label& l = world_.labels[label];
  out.append("{\"url\":\"");
  AppendApiRepoUrl(out, full);
  out.append("/labels/");
  AppendUrlEncoded(out, l.name);
  out.append("\",\"name\":");
  AppendJsonString(out, l.name);
  out.append(",\"color\":");
  AppendQuoted(out, l.color);
  out.push_back('}');
}

void LegacyEventWriter::AppendLabels(std::string& out, const Report& r, size_t count, std::string_view full) {
  out.push_back('[');
  for (size_t i = 0; i < count; ++i) {
    if (i > 0) out.push_back(',');
    AppendLabel(out, r.labels[i], full);
  }
  out.push_back(']');
}

EventType LegacyEventWriter::WriteLifecycle(const Action& a, int offset_minutes, std::string& out) {
  const Report& r = plan_.reports[a.report];
  const Repo& repo = world_.repos[r.repo];
  const std::string_view full = repo.NameAt(hour_).full;
  const User& actor = world_.users[a.actor];
  const bool is_pr = r.kind == ReportKind::kPr;
  const EventType type = LifecycleType(r, a);
  url_.assign("https://github.com/");
  url_.append(full);
  url_.append(is_pr ? "/pull/" : "/issues/");
  AppendUint(url_, r.number);
  if (type == EventType::kIssueComment) {
    url_.append("#issuecomment-");
    AppendUint(url_, a.comment_id);
  }

  BeginEnvelope(out, a.time, offset_minutes);
  out.append("{\"action\":\"");
  out.append(ActionName(a.type));
  out.push_back('"');
  if (type == EventType::kPullRequest) {
    out.append(",\"number\":");
    AppendUint(out, r.number);
    out.append(",\"pull_request\":");
    AppendPullRequest(out, r, a);
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
    AppendLabel(out, r.labels[shown - 1], full);
  }
  out.push_back('}');
  EndEnvelope(out, type, actor, repo, a.time, offset_minutes);
  return type;
}

void LegacyEventWriter::AppendIssue(std::string& out, const Report& r, const Action& a) {
  const Repo& repo = world_.repos[r.repo];
  const std::string_view full = repo.NameAt(hour_).full;
  const bool is_pr = r.kind == ReportKind::kPr;
  scratch_.clear();
  AppendApiRepoUrl(scratch_, full);
  scratch_.append("/issues/");
  AppendUint(scratch_, r.number);
  out.append("{\"url\":");
  AppendQuoted(out, scratch_);
  AppendIssueLinks(out, scratch_, full, is_pr, r.number);
  out.append("\",\"id\":");
  AppendUint(out, r.issue_id);
  out.append(",\"number\":");
  AppendUint(out, r.number);
  out.append(",\"title\":");
  AppendJsonString(out, r.title);
  out.append(",\"user\":");
  AppendUser(out, world_.users[r.author]);
  out.append(",\"labels\":");
  AppendLabels(out, r, ShownLabels(r, a), full);
  out.append(a.open ? ",\"state\":\"open\"" : ",\"state\":\"closed\"");
  out.append(",\"assignee\":");
  AppendUserOrNull(out, AssigneeOf(world_, r.issue_id));
  out.append(",\"milestone\":null,\"comments\":");
  AppendUint(out, a.comments);
  out.append(",\"created_at\":");
  AppendQuotedTime(out, r.created_at);
  out.append(",\"updated_at\":");
  AppendQuotedTime(out, a.time);
  out.append(",\"closed_at\":");
  AppendTimeOrNull(out, a.closed_at);
  out.append(",\"pull_request\":{");
  if (is_pr) {
    struct Link {
      const char* key;
      const char* suffix;
    };
    bool first = true;
    for (const Link& link : {Link{"html_url", ""}, Link{"diff_url", ".diff"}, Link{"patch_url", ".patch"}}) {
      if (!first) out.push_back(',');
      first = false;
      out.push_back('"');
      out.append(link.key);
      out.append("\":\"https://github.com/");
      out.append(full);
      out.append("/pull/");
      AppendUint(out, r.number);
      out.append(link.suffix);
      out.push_back('"');
    }
  } else {
    out.append("\"html_url\":null,\"diff_url\":null,\"patch_url\":null");
  }
  out.append("},\"body\":");
  AppendJsonStringOrNull(out, r.body, r.body_null);
  out.push_back('}');
}

void LegacyEventWriter::AppendComment(std::string& out, const Report& r, const Action& a) {
  const Repo& repo = world_.repos[r.repo];
  const std::string_view full = repo.NameAt(hour_).full;
  MakeActionComment(world_, seed_, r, a, &text_);
  out.append("{\"url\":\"");
  AppendApiRepoUrl(out, full);
  out.append("/issues/comments/");
  AppendUint(out, a.comment_id);
  out.append("\",\"html_url\":");
  AppendQuoted(out, url_);
  out.append(",\"issue_url\":\"");
  AppendApiRepoUrl(out, full);
  out.append("/issues/");
  AppendUint(out, r.number);
  out.append("\",\"id\":");
  AppendUint(out, a.comment_id);
  out.append(",\"user\":");
  AppendUser(out, world_.users[a.actor]);
  out.append(",\"created_at\":");
  AppendQuotedTime(out, a.time);
  out.append(",\"updated_at\":");
  AppendQuotedTime(out, a.time);
  out.append(",\"body\":");
  AppendJsonString(out, text_);
  out.push_back('}');
}

void LegacyEventWriter::AppendApiRepo(std::string& out, const Repo& repo, const RepoOwner& owner,
                                      std::string_view name, uint64_t id, bool fork, int64_t now) {
  scratch_.assign(owner.login);
  scratch_.push_back('/');
  scratch_.append(name);
  out.append("{\"id\":");
  AppendUint(out, id);
  out.append(",\"name\":");
  AppendQuoted(out, name);
  out.append(",\"full_name\":");
  AppendQuoted(out, scratch_);
  out.append(",\"owner\":");
  AppendAccount(out, owner.login, owner.id, owner.is_org);
  out.append(",\"private\":false,\"html_url\":\"https://github.com/");
  out.append(scratch_);
  out.append("\",\"description\":");
  AppendJsonString(out, repo.description);
  out.append(",\"fork\":");
  AppendBool(out, fork);
  out.append(",\"url\":\"");
  AppendApiRepoUrl(out, scratch_);
  out.append("\",\"created_at\":");
  AppendQuotedTime(out, fork ? now - 86400 : CreatedBefore(repo, now));
  out.append(",\"updated_at\":");
  AppendQuotedTime(out, now - 3600);
  out.append(",\"pushed_at\":");
  AppendQuotedTime(out, now - 60 - static_cast<int64_t>(repo.id % 3000));
  out.append(",\"clone_url\":\"https://github.com/");
  out.append(scratch_);
  out.append(".git\",\"size\":");
  AppendUint(out, repo.size_kb);
  out.append(",\"watchers_count\":");
  AppendUint(out, fork ? 0 : repo.stars);
  out.append(",\"language\":");
  AppendQuoted(out, repo.language);
  out.append(",\"has_issues\":");
  AppendBool(out, !fork);
  out.append(",\"forks_count\":");
  AppendUint(out, fork ? 0 : repo.forks);
  out.append(",\"open_issues_count\":");
  AppendUint(out, fork ? 0 : repo.open_issues);
  out.append(",\"master_branch\":");
  AppendQuoted(out, repo.default_branch);
  out.append(",\"default_branch\":");
  AppendQuoted(out, repo.default_branch);
  out.push_back('}');
}

void LegacyEventWriter::AppendPullRequest(std::string& out, const Report& r, const Action& a) {
  const Repo& repo = world_.repos[r.repo];
  const RepoName& name = repo.NameAt(hour_);
  const std::string_view full = name.full;
  const User& author = world_.users[r.author];
  const User& head_user = world_.users[r.head_user];
  std::string api;
  AppendApiRepoUrl(api, full);
  auto pulls = [&](std::string& o, std::string_view suffix) {
    o.append(api);
    o.append("/pulls/");
    AppendUint(o, r.number);
    o.append(suffix);
  };
  auto issues = [&](std::string& o, std::string_view suffix) {
    o.append(api);
    o.append("/issues/");
    AppendUint(o, r.number);
    o.append(suffix);
  };
  auto html = [&](std::string& o, std::string_view suffix) {
    o.append("https://github.com/");
    o.append(full);
    o.append("/pull/");
    AppendUint(o, r.number);
    o.append(suffix);
  };
  out.append("{\"url\":\"");
  pulls(out, "");
  out.append("\",\"id\":");
  AppendUint(out, r.pr_id);
  out.append(",\"html_url\":\"");
  html(out, "");
  out.append("\",\"diff_url\":\"");
  html(out, ".diff");
  out.append("\",\"patch_url\":\"");
  html(out, ".patch");
  out.append("\",\"issue_url\":\"");
  issues(out, "");
  out.append("\",\"number\":");
  AppendUint(out, r.number);
  out.append(a.open ? ",\"state\":\"open\"" : ",\"state\":\"closed\"");
  out.append(",\"title\":");
  AppendJsonString(out, r.title);
  out.append(",\"user\":");
  AppendUser(out, author);
  out.append(",\"body\":");
  AppendJsonStringOrNull(out, r.body, r.body_null);
  AppendPrTimesAndMergeSha(out, r.created_at, a.time, a.closed_at, a.merged_at, r.pr_id, a.commits);
  out.append("\",\"assignee\":");
  AppendUserOrNull(out, AssigneeOf(world_, r.issue_id));
  out.append(",\"milestone\":null,\"labels\":");
  AppendLabels(out, r, ShownLabels(r, a), full);
  out.append(",\"commits_url\":\"");
  pulls(out, "/commits");
  out.append("\",\"review_comments_url\":\"");
  pulls(out, "/comments");
  out.append("\",\"review_comment_url\":\"");
  out.append(api);
  out.append("/pulls/comments/{number}\",\"comments_url\":\"");
  issues(out, "/comments");
  const bool same_repo = r.head_user == r.author && author.id % 4 == 0;
  const std::string head_ref = "fix-" + std::to_string(r.number);
  out.append("\",\"head\":{\"label\":\"");
  out.append(same_repo ? std::string_view(name.owner) : std::string_view(head_user.login));
  out.push_back(':');
  out.append(head_ref);
  out.append("\",\"ref\":");
  AppendQuoted(out, head_ref);
  out.append(",\"sha\":\"");
  AppendSha(out, r.pr_id * 131 + a.commits);
  out.append("\",\"user\":");
  const bool org_owned = repo.org >= 0;
  if (same_repo) {
    AppendAccount(out, name.owner, repo.owner_id, org_owned);
  } else {
    AppendUser(out, head_user);
  }
  out.append(",\"repo\":");
  if (same_repo) {
    AppendApiRepo(out, repo, {name.owner, repo.owner_id, org_owned}, name.name, repo.id, false, a.time);
  } else {
    AppendApiRepo(out, repo, {head_user.login, head_user.id, false}, name.name, 200000000 + (head_user.id * 7919 + repo.id) % 500000000,
                  true, a.time);
  }
  out.append("},\"base\":{\"label\":\"");
  out.append(name.owner);
  out.push_back(':');
  out.append(repo.default_branch);
  out.append("\",\"ref\":");
  AppendQuoted(out, repo.default_branch);
  out.append(",\"sha\":\"");
  AppendSha(out, repo.id * 1009 + static_cast<uint64_t>(hour_));
  out.append("\",\"user\":");
  AppendAccount(out, name.owner, repo.owner_id, org_owned);
  out.append(",\"repo\":");
  AppendApiRepo(out, repo, {name.owner, repo.owner_id, org_owned}, name.name, repo.id, false, a.time);
  out.append("},\"_links\":{\"self\":{\"href\":\"");
  pulls(out, "");
  out.append("\"},\"html\":{\"href\":\"");
  html(out, "");
  out.append("\"},\"issue\":{\"href\":\"");
  issues(out, "");
  out.append("\"},\"comments\":{\"href\":\"");
  issues(out, "/comments");
  out.append("\"},\"review_comments\":{\"href\":\"");
  pulls(out, "/comments");
  out.append("\"}},\"merged\":");
  AppendBool(out, a.merged);
  out.append(a.merged ? ",\"mergeable\":null,\"mergeable_state\":\"unknown\"" : ",\"mergeable\":true,\"mergeable_state\":\"clean\"");
  out.append(",\"merged_by\":");
  AppendUserOrNull(out, a.merged ? &world_.users[a.merged_by] : nullptr);
  out.append(",\"comments\":");
  AppendUint(out, a.comments);
  out.append(",\"review_comments\":");
  AppendUint(out, r.review_comments);
  out.append(",\"commits\":");
  AppendUint(out, a.commits);
  out.append(",\"additions\":");
  AppendUint(out, r.additions);
  out.append(",\"deletions\":");
  AppendUint(out, r.deletions);
  out.append(",\"changed_files\":");
  AppendUint(out, r.changed_files);
  out.push_back('}');
}

EventType LegacyEventWriter::WriteBackground(EventType drawn_type, int64_t time, int offset_minutes, Rng& rng,
                                             std::string& out, const Repo* forced_repo) {
  EventType type = LegacyType(drawn_type);
  // GitHub Releases started in July 2013: the original 2012 files show pushes instead.
  if (slash_dates_ && type == EventType::kRelease) type = EventType::kPush;
  const auto [repo, actor] = DrawBackgroundParties(world_, type, rng, forced_repo);
  const RepoName& name = repo.NameAt(hour_);
  const std::string_view full = name.full;
  url_.assign("https://github.com/");
  url_.append(full);
  BeginEnvelope(out, time, offset_minutes);
  switch (type) {
    case EventType::kPush: {
      const int commits = rng.Range(1, 3);
      const uint64_t head_key = rng.Next();
      const std::string_view ref =
          rng.Chance(0.7) ? std::string_view(repo.default_branch) : std::string_view(rng.Pick(kBranches));
      out.append("{\"shas\":[");
      for (int i = 0; i < commits; ++i) {
        if (i > 0) out.push_back(',');
        out.append("[\"");
        AppendSha(out, head_key + static_cast<uint64_t>(i));
        out.append("\",\"");
        out.append(actor.login);
        out.append("@example.com\",");
        text_.clear();
        AppendCommitMessage(rng, text_);
        AppendJsonString(out, text_);
        out.push_back(',');
        AppendQuoted(out, actor.login);
        out.append(",true]");
      }
      out.append("],\"size\":");
      AppendUint(out, static_cast<uint64_t>(commits));
      out.append(",\"ref\":\"refs/heads/");
      out.append(ref);
      out.append("\",\"head\":\"");
      AppendSha(out, head_key + static_cast<uint64_t>(commits) - 1);
      out.append("\"}");
      url_.append("/compare/");
      AppendSha(url_, head_key - 1);
      url_.resize(url_.size() - 30);
      url_.append("...");
      AppendSha(url_, head_key + static_cast<uint64_t>(commits) - 1);
      url_.resize(url_.size() - 30);
      break;
    }
    case EventType::kCreate: {
      const uint64_t kind = rng.Below(10);
      if (kind < 2) {
        out.append("{\"ref\":null,\"ref_type\":\"repository\"");
      } else if (kind < 8) {
        out.append("{\"ref\":");
        const char* branch = rng.Pick(kBranches);
        AppendQuoted(out, branch);
        out.append(",\"ref_type\":\"branch\"");
        url_.append("/tree/");
        url_.append(branch);
      } else {
        out.append("{\"ref\":\"v");
        AppendUint(out, rng.Below(5));
        out.append(".0\",\"ref_type\":\"tag\"");
      }
      out.append(",\"master_branch\":");
      AppendQuoted(out, repo.default_branch);
      out.append(",\"description\":");
      AppendJsonString(out, repo.description);
      out.push_back('}');
      break;
    }
    case EventType::kDelete:
      out.append("{\"ref\":");
      AppendQuoted(out, rng.Pick(kBranches));
      out.append(",\"ref_type\":\"branch\"}");
      break;
    case EventType::kWatch:
      out.append("{\"action\":\"started\"}");
      break;
    case EventType::kFork:
      out.append("{\"forkee\":");
      AppendApiRepo(out, repo, {actor.login, actor.id, false}, name.name, 700000000 + rng.Below(100000000), true, time);
      out.push_back('}');
      url_.assign("https://github.com/");
      url_.append(actor.login);
      url_.push_back('/');
      url_.append(name.name);
      break;
    case EventType::kRelease: {
      const uint64_t id = 130000 + rng.Below(800000);
      const std::string tag = "v" + std::to_string(rng.Below(4)) + "." + std::to_string(rng.Below(30)) + "." +
                              std::to_string(rng.Below(10));
      out.append("{\"action\":\"published\",\"release\":{\"url\":\"");
      AppendApiRepoUrl(out, full);
      out.append("/releases/");
      AppendUint(out, id);
      out.append("\",\"html_url\":\"https://github.com/");
      out.append(full);
      out.append("/releases/");
      out.append(tag);
      out.append("\",\"id\":");
      AppendUint(out, id);
      out.append(",\"tag_name\":");
      AppendQuoted(out, tag);
      out.append(",\"target_commitish\":");
      AppendQuoted(out, repo.default_branch);
      out.append(",\"name\":");
      AppendQuoted(out, tag);
      out.append(",\"draft\":false,\"author\":");
      AppendUser(out, actor);
      out.append(",\"prerelease\":");
      AppendBool(out, rng.Chance(0.1));
      out.append(",\"created_at\":");
      AppendQuotedTime(out, time - 600);
      out.append(",\"published_at\":");
      AppendQuotedTime(out, time);
      out.append(",\"assets\":[],\"body\":");
      text_.clear();
      AppendReleaseNotes(rng, tag, text_);
      AppendJsonString(out, text_);
      out.append("}}");
      url_.append("/releases/");
      url_.append(tag);
      break;
    }
    case EventType::kGollum:
      out.append("{\"pages\":[{\"page_name\":\"Home\",\"title\":\"Home\",\"summary\":null,\"action\":\"edited\",\"sha\":\"");
      AppendSha(out, rng.Next());
      out.append("\",\"html_url\":\"https://github.com/");
      out.append(full);
      out.append("/wiki/Home\"}]}");
      url_.append("/wiki/Home");
      break;
    case EventType::kMember:
      out.append("{\"member\":");
      AppendUser(out, world_.users[rng.Skewed(world_.users.size())]);
      out.append(",\"action\":\"added\"}");
      break;
    case EventType::kCommitComment: {
      const uint64_t id = 3500000 + rng.Below(1000000);
      out.append("{\"comment\":{\"url\":\"");
      AppendApiRepoUrl(out, full);
      out.append("/comments/");
      AppendUint(out, id);
      out.append("\",\"html_url\":\"https://github.com/");
      out.append(full);
      out.append("/commit/");
      const size_t sha_at = out.size();
      AppendSha(out, rng.Next());
      const std::string sha = out.substr(sha_at, 40);
      out.append("#commitcomment-");
      AppendUint(out, id);
      out.append("\",\"id\":");
      AppendUint(out, id);
      out.append(",\"user\":");
      AppendUser(out, actor);
      out.append(",\"position\":null,\"line\":null,\"path\":null,\"commit_id\":");
      AppendQuoted(out, sha);
      out.append(",\"created_at\":");
      AppendQuotedTime(out, time);
      out.append(",\"updated_at\":");
      AppendQuotedTime(out, time);
      out.append(",\"body\":");
      text_.clear();
      AppendReviewText(rng, text_);
      AppendJsonString(out, text_);
      out.append("}}");
      url_.append("/commit/");
      url_.append(sha);
      url_.append("#commitcomment-");
      AppendUint(url_, id);
      break;
    }
    case EventType::kPullRequestReviewComment: {
      // The repository's one background pull request (far above anything planned, so a review
      // comment never names a tracked report). The number is still drawn and dropped, so the
      // later events of the hour draw what they drew before. The page address names it; the
      // payload shows no pull request, so no creation time either.
      rng.Below(100000);
      const uint32_t number = BackgroundPrOf(world_, seed_, repo).number;
      if (reviewed_ != nullptr) reviewed_->Note(repo, full, number, time, 0, true);
      const uint64_t id = 4000000 + rng.Below(1000000);
      const uint64_t commit = rng.Next();
      out.append("{\"comment\":{\"url\":\"");
      AppendApiRepoUrl(out, full);
      out.append("/pulls/comments/");
      AppendUint(out, id);
      out.append("\",\"id\":");
      AppendUint(out, id);
      out.append(",\"diff_hunk\":\"@@ -1,7 +1,9 @@\\n def load(path):\\n-    return open(path).read()\\n+    with open(path) as f:\\n+        return f.read()\",\"path\":");
      AppendQuoted(out, rng.Pick(kPaths));
      out.append(",\"position\":4,\"original_position\":4,\"commit_id\":\"");
      AppendSha(out, commit);
      out.append("\",\"original_commit_id\":\"");
      AppendSha(out, commit);
      out.append("\",\"user\":");
      AppendUser(out, actor);
      out.append(",\"body\":");
      text_.clear();
      AppendReviewText(rng, text_);
      AppendJsonString(out, text_);
      out.append(",\"created_at\":");
      AppendQuotedTime(out, time);
      out.append(",\"updated_at\":");
      AppendQuotedTime(out, time);
      out.append(",\"html_url\":\"https://github.com/");
      out.append(full);
      out.append("/pull/");
      AppendUint(out, number);
      out.append("#discussion_r");
      AppendUint(out, id);
      out.append("\",\"pull_request_url\":\"");
      AppendApiRepoUrl(out, full);
      out.append("/pulls/");
      AppendUint(out, number);
      out.append("\"}}");
      url_.append("/pull/");
      AppendUint(url_, number);
      url_.append("#discussion_r");
      AppendUint(url_, id);
      break;
    }
    default:  // PublicEvent
      out.append("{}");
      break;
  }
  EndEnvelope(out, type, actor, repo, time, offset_minutes);
  return type;
}

}  // namespace ghsift::gen
