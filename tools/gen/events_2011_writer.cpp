// Events in the layout of GH Archive's 2011 hours (Events API of api.github.dev).
#include "gen/events_2011_writer.hpp"

#include <iterator>

#include "gen/json_text.hpp"
#include "gen/lifecycle_facts.hpp"
#include "gen/report_text.hpp"

namespace ghsift::gen {

namespace {

const char* const kBranches[] = {"master", "gh-pages", "dev", "experimental", "refactor", "laptopwork"};
const char* const kWikiPages[] = {"Home", "Installation", "FAQ", "Usage", "Roadmap"};

// {"gravatar_id","id","url","avatar_url","login"}, the 2011 order of actor and org objects.
void AppendAccount2011(std::string& out, std::string_view login, uint64_t id, bool is_org) {
  out.append("{\"gravatar_id\":\"");
  AppendGravatarId(out, id);
  out.append("\",\"id\":");
  AppendUint(out, id);
  out.append(is_org ? ",\"url\":\"https://api.github.dev/orgs/" : ",\"url\":\"https://api.github.dev/users/");
  out.append(login);
  out.append("\",\"avatar_url\":\"https://secure.gravatar.com/avatar/");
  AppendGravatarId(out, id);
  out.append(is_org ? "?d=http://github.dev%2Fimages%2Fgravatars%2Fgravatar-org-420.png\",\"login\":"
                    : "?d=http://github.dev%2Fimages%2Fgravatars%2Fgravatar-user-420.png\",\"login\":");
  AppendQuoted(out, login);
  out.push_back('}');
}

}  // namespace

EventType Events2011Type(EventType type) {
  switch (type) {
    case EventType::kRelease: return EventType::kPush;
    case EventType::kPullRequestReview:
    case EventType::kPullRequestReviewComment: return EventType::kCommitComment;
    default: return type;
  }
}

Events2011Writer::Events2011Writer(const World& world, const Plan& plan, int hour)
    : world_(world), plan_(plan), hour_(hour) {}

void Events2011Writer::BeginEnvelope(std::string& out, EventType type, const Repo& repo, int64_t time) {
  const std::string_view full = repo.NameAt(hour_).full;
  out.append("{\"repo\":{\"id\":");
  AppendUint(out, repo.id);
  out.append(",\"url\":\"https://api.github.dev/repos/");
  out.append(full);
  out.append("\",\"name\":");
  AppendQuoted(out, full);
  out.append("},\"type\":\"");
  out.append(EventTypeName(type));
  out.push_back('"');
  if (repo.org >= 0) {
    const Org& org = world_.orgs[static_cast<size_t>(repo.org)];
    out.append(",\"org\":");
    AppendAccount2011(out, org.login, org.id, true);
  }
  out.append(",\"public\":true,\"created_at\":");
  AppendQuotedTime(out, time);
  out.append(",\"payload\":");
}

void Events2011Writer::EndEnvelope(std::string& out, const User& actor, uint64_t event_id) {
  out.append(",\"actor\":");
  AppendAccount2011(out, actor.login, actor.id, false);
  out.append(",\"id\":\"");
  AppendUint(out, event_id);
  out.append("\"}");
}

void Events2011Writer::AppendRepoAndActor(std::string& out, const Repo& repo, const User& actor) {
  out.append("\"repo\":");
  AppendQuoted(out, repo.NameAt(hour_).full);
  out.append(",\"actor\":");
  AppendQuoted(out, actor.login);
}

void Events2011Writer::AppendActorGravatar(std::string& out, const User& actor) {
  out.append("\"actor_gravatar\":\"");
  AppendGravatarId(out, actor.id);
  out.push_back('"');
}

EventType Events2011Writer::WriteLifecycle(const Action& a, uint64_t event_id, std::string& out) {
  const Report& r = plan_.reports[a.report];
  const Repo& repo = world_.repos[r.repo];
  const User& actor = world_.users[a.actor];
  const EventType type = LifecycleType(r, a);
  BeginEnvelope(out, type, repo, a.time);
  if (type == EventType::kIssueComment) {
    // The Timeline API's shape of the time: ids only, no issue object and no text.
    out.append("{\"issue_id\":");
    AppendUint(out, r.issue_id);
    out.append(",\"comment_id\":");
    AppendUint(out, a.comment_id);
    out.push_back('}');
  } else if (type == EventType::kPullRequest) {
    out.append("{\"number\":");
    AppendUint(out, r.number);
    out.append(",\"pull_request\":{\"title\":");
    AppendJsonString(out, r.title);
    out.append(",\"number\":");
    AppendUint(out, r.number);
    out.append(",\"commits\":");
    AppendUint(out, a.commits);
    out.append(",\"deletions\":");
    AppendUint(out, r.deletions);
    out.append(",\"id\":");
    AppendUint(out, r.pr_id);
    out.append(",\"issue_id\":");
    AppendUint(out, r.issue_id);
    out.append(",\"additions\":");
    AppendUint(out, r.additions);
    out.append("},");
    AppendRepoAndActor(out, repo, actor);
    out.push_back(',');
    AppendActorGravatar(out, actor);
    out.append(",\"action\":\"");
    out.append(ActionName(a.type));
    out.append("\"}");
  } else {
    out.append("{\"number\":");
    AppendUint(out, r.number);
    out.push_back(',');
    AppendRepoAndActor(out, repo, actor);
    out.append(",\"issue\":");
    AppendUint(out, r.issue_id);
    out.push_back(',');
    AppendActorGravatar(out, actor);
    out.append(",\"action\":\"");
    out.append(ActionName(a.type));
    out.append("\"}");
  }
  EndEnvelope(out, actor, event_id);
  return type;
}

EventType Events2011Writer::WriteBackground(EventType drawn, int64_t time, uint64_t event_id, Rng& rng,
                                            std::string& out, const Repo* forced_repo) {
  const auto [repo, actor] = DrawBackgroundParties(world_, drawn, rng, forced_repo);
  const EventType type = Events2011Type(drawn);
  const std::string_view full = repo.NameAt(hour_).full;
  BeginEnvelope(out, type, repo, time);
  switch (type) {
    case EventType::kPush: {
      const int commits = rng.Range(1, 3);
      const uint64_t head_key = rng.Next();
      out.append("{\"shas\":[");
      for (int i = 0; i < commits; ++i) {
        if (i > 0) out.push_back(',');
        out.append("[\"");
        AppendSha(out, head_key + static_cast<uint64_t>(i));
        out.append("\",\"");
        out.append(actor.login);
        out.append("@example.com\",");
        std::string message;
        AppendCommitMessage(rng, message);
        AppendJsonString(out, message);
        out.push_back(',');
        AppendQuoted(out, actor.login);
        out.push_back(']');
      }
      out.append("],");
      AppendRepoAndActor(out, repo, actor);
      out.append(",\"ref\":\"refs/heads/");
      out.append(rng.Chance(0.8) ? std::string_view("master") : std::string_view(rng.Pick(kBranches)));
      out.append("\",\"size\":");
      AppendUint(out, static_cast<uint64_t>(commits));
      out.append(",\"head\":\"");
      AppendSha(out, head_key + static_cast<uint64_t>(commits) - 1);
      out.append("\",");
      AppendActorGravatar(out, actor);
      out.append(",\"push_id\":");
      AppendUint(out, 24000000 + rng.Below(1000000));
      out.push_back('}');
      break;
    }
    case EventType::kCreate: {
      const uint64_t kind = rng.Below(10);
      out.append("{\"name\":");
      AppendQuoted(out, repo.NameAt(hour_).name);
      if (kind < 3) {
        out.append(",\"object\":\"repository\",\"object_name\":null}");
      } else if (kind < 8) {
        out.append(",\"object\":\"branch\",\"object_name\":");
        AppendQuoted(out, rng.Pick(kBranches));
        out.push_back('}');
      } else {
        out.append(",\"object\":\"tag\",\"object_name\":\"v");
        AppendUint(out, rng.Below(5));
        out.push_back('.');
        AppendUint(out, rng.Below(20));
        out.append("\"}");
      }
      break;
    }
    case EventType::kDelete:
      out.append("{\"ref_type\":\"branch\",\"ref\":");
      AppendQuoted(out, rng.Pick(kBranches));
      out.push_back('}');
      break;
    case EventType::kFork:
      out.push_back('{');
      AppendRepoAndActor(out, repo, actor);
      out.append(",\"forkee\":");
      AppendUint(out, 1300000 + rng.Below(100000));
      out.push_back(',');
      AppendActorGravatar(out, actor);
      out.push_back('}');
      break;
    case EventType::kGollum: {
      const char* page = rng.Pick(kWikiPages);
      out.append("{\"title\":");
      AppendQuoted(out, page);
      out.append(",\"summary\":null,\"repo\":");
      AppendQuoted(out, full);
      out.append(",\"sha\":\"");
      AppendSha(out, rng.Next());
      out.append("\",\"actor\":");
      AppendQuoted(out, actor.login);
      out.append(",\"page_name\":");
      AppendQuoted(out, page);
      out.push_back(',');
      AppendActorGravatar(out, actor);
      out.append(rng.Chance(0.15) ? ",\"action\":\"created\"}" : ",\"action\":\"edited\"}");
      break;
    }
    case EventType::kMember:
      out.append("{\"repo\":");
      AppendQuoted(out, full);
      out.append(",\"member\":");
      AppendQuoted(out, world_.users[rng.Skewed(world_.users.size())].login);
      out.append(",\"actor\":");
      AppendQuoted(out, actor.login);
      out.push_back(',');
      AppendActorGravatar(out, actor);
      out.append(",\"action\":\"added\"}");
      break;
    case EventType::kCommitComment:
      out.push_back('{');
      AppendRepoAndActor(out, repo, actor);
      out.append(",\"comment_id\":");
      AppendUint(out, 270000 + rng.Below(100000));
      out.push_back(',');
      AppendActorGravatar(out, actor);
      out.append(",\"commit\":\"");
      AppendSha(out, rng.Next());
      out.append("\"}");
      break;
    case EventType::kWatch:
      out.push_back('{');
      AppendRepoAndActor(out, repo, actor);
      out.push_back(',');
      AppendActorGravatar(out, actor);
      out.append(",\"action\":\"started\"}");
      break;
    default:  // PublicEvent
      out.push_back('{');
      AppendRepoAndActor(out, repo, actor);
      out.push_back(',');
      AppendActorGravatar(out, actor);
      out.push_back('}');
      break;
  }
  EndEnvelope(out, actor, event_id);
  return type;
}

}  // namespace ghsift::gen
