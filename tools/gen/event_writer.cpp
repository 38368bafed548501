// Envelope and background events (everything that is not an issue/PR lifecycle event).
#include "gen/event_writer.hpp"

#include <iterator>

#include "gen/hour_cast.hpp"
#include "gen/json_text.hpp"
#include "gen/profile.hpp"
#include "gen/report_text.hpp"

namespace ghsift::gen {

namespace {

const char* const kTypeNames[] = {"PushEvent", "CreateEvent", "WatchEvent", "PullRequestEvent", "IssueCommentEvent",
                                  "IssuesEvent", "DeleteEvent", "PullRequestReviewEvent",
                                  "PullRequestReviewCommentEvent", "ForkEvent", "ReleaseEvent", "GollumEvent",
                                  "MemberEvent", "PublicEvent", "CommitCommentEvent"};

// Background mix, per mille of all events; lifecycle types (PR 80, comments 70, issues 30) are planned.
const EventType kBackgroundTypes[] = {EventType::kPush, EventType::kCreate, EventType::kWatch, EventType::kDelete,
                                      EventType::kPullRequestReview, EventType::kPullRequestReviewComment,
                                      EventType::kFork, EventType::kRelease, EventType::kGollum, EventType::kMember,
                                      EventType::kPublic, EventType::kCommitComment};
const int kBackgroundWeights[] = {450, 120, 80, 30, 30, 30, 30, 10, 8, 5, 3, 4};

const char* const kBranches[] = {"feature/cache", "fix-typo", "dev", "patch-1", "refactor", "release-1.2",
                                 "dependabot/npm_and_yarn/lodash-4.17.21", "gh-pages", "wip", "experiment"};
const char* const kPaths[] = {"src/main.py", "README.md", "setup.py", "src/model/layers.py", "tests/test_io.py",
                              "docs/index.md", "CMakeLists.txt", "src/utils.cpp"};

// Re-appends bytes already written (a sha), without aliasing the string's own storage.
void AppendCopy(std::string& out, size_t at, size_t n) {
  char buf[64];
  out.copy(buf, n, at);
  out.append(buf, n);
}

}  // namespace

const char* EventTypeName(EventType type) { return kTypeNames[static_cast<size_t>(type)]; }

EventType DrawBackgroundType(Rng& rng) {
  return kBackgroundTypes[rng.Weighted(kBackgroundWeights, std::size(kBackgroundWeights))];
}

EventType DrawBackgroundType(Rng& rng, const int* weights) {
  return static_cast<EventType>(rng.Weighted(weights, kEventTypeCount));
}

BackgroundParties DrawBackgroundParties(const World& world, EventType type, Rng& rng, const Repo* forced_repo) {
  const size_t others = world.repos.size() - world.tracked_count;
  const bool reviews = type == EventType::kPullRequestReview || type == EventType::kPullRequestReviewComment;
  // Background PRs live only in untracked repos, so they never collide with planned reports.
  const Repo& drawn = (!reviews && rng.Chance(0.03)) ? world.repos[rng.Below(world.tracked_count)]
                                                     : world.repos[world.tracked_count + rng.Skewed(others)];
  const User& actor = world.users[rng.Skewed(world.users.size())];
  return {forced_repo != nullptr ? *forced_repo : drawn, actor};
}

EventWriter::EventWriter(const World& world, const Plan& plan, uint64_t seed, int hour)
    : world_(world), plan_(plan), seed_(seed), hour_(hour) {}

void EventWriter::BeginEnvelope(std::string& out, uint64_t id, EventType type, const User& actor, const Repo& repo) {
  out.append("{\"id\":\"");
  AppendUint(out, id);
  out.append("\",\"type\":\"");
  out.append(EventTypeName(type));
  out.append("\",\"actor\":");
  AppendActor(out, actor, profile_ == nullptr || profile_->actor_display_login);
  out.append(",\"repo\":");
  AppendRepoRef(out, repo.id, repo.NameAt(hour_).full);
  out.append(",\"payload\":");
}

void EventWriter::EndEnvelope(std::string& out, int64_t time, const Repo& repo) {
  out.append(",\"public\":true,\"created_at\":");
  AppendQuotedTime(out, time);
  if (repo.org >= 0) {
    out.append(",\"org\":");
    AppendOrg(out, world_.orgs[static_cast<size_t>(repo.org)]);
  }
  out.push_back('}');
}

void EventWriter::WriteBackground(EventType type, int64_t time, uint64_t event_id, Rng& rng, std::string& out,
                                  const Repo* forced_repo) {
  const auto [repo, actor] =
      cast_ != nullptr ? cast_->Draw(rng, forced_repo) : DrawBackgroundParties(world_, type, rng, forced_repo);
  const std::string_view full = repo.NameAt(hour_).full;
  BeginEnvelope(out, event_id, type, actor, repo);
  switch (type) {
    case EventType::kPush:
      PushPayload(out, repo, actor, rng);
      break;
    case EventType::kCreate: {
      const uint64_t kind = rng.Below(10);
      if (kind < 2) {
        out.append("{\"ref\":null,\"ref_type\":\"repository\"");
      } else {
        out.append("{\"ref\":");
        if (kind < 8) {
          AppendQuoted(out, rng.Pick(kBranches));
          out.append(",\"ref_type\":\"branch\"");
        } else {
          out.append("\"v");
          AppendUint(out, rng.Below(5));
          out.push_back('.');
          AppendUint(out, rng.Below(20));
          out.append(".0\",\"ref_type\":\"tag\"");
        }
      }
      out.append(",\"master_branch\":");
      AppendQuoted(out, repo.default_branch);
      out.append(",\"description\":");
      AppendJsonStringOrNull(out, repo.description, repo.description.empty());
      out.append(",\"pusher_type\":\"user\"}");
      break;
    }
    case EventType::kDelete:
      out.append("{\"ref\":");
      AppendQuoted(out, rng.Pick(kBranches));
      out.append(",\"ref_type\":\"branch\",\"pusher_type\":\"user\"}");
      break;
    case EventType::kWatch:
      out.append("{\"action\":\"started\"}");
      break;
    case EventType::kFork: {
      RepoView fork = ViewOfRepo(world_, repo, hour_, time);
      fork_full_ = actor.login + "/" + std::string(fork.name);
      fork.id = 700000000 + rng.Below(100000000);
      fork.full_name = fork_full_;
      fork.owner = ViewOf(actor);
      fork.fork = true;
      fork.created_at = time;
      fork.updated_at = time;
      fork.pushed_at = time - 86400;
      fork.stars = fork.forks = fork.open_issues = 0;
      out.append("{\"forkee\":");
      AppendFullRepo(out, fork);
      out.pop_back();
      out.append(",\"public\":true}}");
      break;
    }
    case EventType::kRelease:
      ReleasePayload(out, repo, actor, time, rng);
      break;
    case EventType::kGollum:
      out.append("{\"pages\":[{\"page_name\":\"Home\",\"title\":\"Home\",\"summary\":null,\"action\":\"edited\",\"sha\":\"");
      AppendSha(out, rng.Next());
      out.append("\",\"html_url\":\"https://github.com/");
      out.append(full);
      out.append("/wiki/Home\"}]}");
      break;
    case EventType::kMember:
      out.append("{\"member\":");
      AppendAccount(out, ViewOf(world_.users[rng.Skewed(world_.users.size())]));
      out.append(",\"action\":\"added\"}");
      break;
    case EventType::kPublic:
      out.append("{}");
      break;
    case EventType::kCommitComment:
      CommitCommentPayload(out, repo, actor, time, rng);
      break;
    case EventType::kPullRequestReview:
    case EventType::kPullRequestReviewComment: {
      // The PR must be in the same repo as the envelope: build it around `repo`.
      const PrView pr = BackgroundPr(repo, rng, time);
      bool has_text = true;
      bool shows_created = true;
      if (type == EventType::kPullRequestReview) {
        has_text = ReviewPayload(out, pr, actor, time, rng);
        shows_created = !slim_;  // the slim pull request has no times
      } else {
        ReviewCommentPayload(out, pr, actor, time, rng);
      }
      if (reviewed_ != nullptr) {
        reviewed_->Note(repo, full, pr.number, time, shows_created ? pr.created_at : 0, has_text);
      }
      break;
    }
    default:
      out.append("{}");
      break;
  }
  EndEnvelope(out, time, repo);
}

void EventWriter::PushPayload(std::string& out, const Repo& repo, const User& actor, Rng& rng) {
  const int commits = profile_ != nullptr ? 1 + static_cast<int>(rng.Weighted(profile_->push_commit_weights.data(),
                                                                                 profile_->push_commit_weights.size()))
                                          : rng.Range(1, 3);
  const uint64_t head_key = rng.Next();
  out.append("{\"repository_id\":");
  AppendUint(out, repo.id);
  out.append(",\"push_id\":");
  AppendUint(out, 16000000000ULL + rng.Below(1000000000));
  if (!slim_) {  // slim payloads (late 2025 on) carry no sizes and no commits
    out.append(",\"size\":");
    AppendUint(out, static_cast<uint64_t>(commits));
    out.append(",\"distinct_size\":");
    AppendUint(out, static_cast<uint64_t>(commits));
  }
  out.append(",\"ref\":\"refs/heads/");
  out.append(rng.Chance(0.7) ? std::string_view(repo.default_branch) : std::string_view(rng.Pick(kBranches)));
  out.append("\",\"head\":\"");
  AppendSha(out, head_key + static_cast<uint64_t>(commits) - 1);
  out.append("\",\"before\":\"");
  AppendSha(out, head_key - 1);
  if (slim_) {
    out.append("\"}");
    return;
  }
  out.append("\",\"commits\":[");
  for (int i = 0; i < commits; ++i) {
    if (i > 0) out.push_back(',');
    out.append("{\"sha\":\"");
    const size_t sha_at = out.size();
    AppendSha(out, head_key + static_cast<uint64_t>(i));
    out.append("\",\"author\":{\"email\":\"");
    out.append(actor.login);
    out.append("@users.noreply.github.com\",\"name\":");
    AppendQuoted(out, actor.login);
    out.append("},\"message\":");
    text_.clear();
    AppendCommitMessage(rng, text_);
    AppendJsonString(out, text_);
    out.append(",\"distinct\":true,\"url\":\"");
    AppendApiRepoUrl(out, repo.NameAt(hour_).full);
    out.append("/commits/");
    AppendCopy(out, sha_at, 40);
    out.append("\"}");
  }
  out.append("]}");
}

void EventWriter::ReleasePayload(std::string& out, const Repo& repo, const User& actor, int64_t time, Rng& rng) {
  const std::string_view full = repo.NameAt(hour_).full;
  const uint64_t id = 130000000 + rng.Below(20000000);
  std::string tag = "v" + std::to_string(rng.Below(4)) + "." + std::to_string(rng.Below(30)) + "." +
                    std::to_string(rng.Below(10));
  out.append("{\"action\":\"published\",\"release\":{\"url\":\"");
  AppendApiRepoUrl(out, full);
  out.append("/releases/");
  AppendUint(out, id);
  out.append("\",\"assets_url\":\"");
  AppendApiRepoUrl(out, full);
  out.append("/releases/");
  AppendUint(out, id);
  out.append("/assets\",\"upload_url\":\"https://uploads.github.com/repos/");
  out.append(full);
  out.append("/releases/");
  AppendUint(out, id);
  out.append("/assets{?name,label}\",\"html_url\":\"https://github.com/");
  out.append(full);
  out.append("/releases/tag/");
  out.append(tag);
  out.append("\",\"id\":");
  AppendUint(out, id);
  out.append(",\"author\":");
  AppendAccount(out, ViewOf(actor));
  out.append(",\"node_id\":\"");
  AppendNodeId(out, "RE_kwDO", id);
  out.append("\",\"tag_name\":");
  AppendQuoted(out, tag);
  out.append(",\"target_commitish\":");
  AppendQuoted(out, repo.default_branch);
  out.append(",\"name\":");
  AppendQuoted(out, tag);
  out.append(",\"draft\":false,\"prerelease\":");
  AppendBool(out, rng.Chance(0.1));
  out.append(",\"created_at\":");
  AppendQuotedTime(out, time - 600);
  out.append(",\"published_at\":");
  AppendQuotedTime(out, time);
  out.append(",\"assets\":[],\"tarball_url\":\"");
  AppendApiRepoUrl(out, full);
  out.append("/tarball/");
  out.append(tag);
  out.append("\",\"zipball_url\":\"");
  AppendApiRepoUrl(out, full);
  out.append("/zipball/");
  out.append(tag);
  out.append("\",\"body\":");
  text_.clear();
  AppendReleaseNotes(rng, tag, text_);
  AppendJsonString(out, text_);
  out.append("}}");
}

PrView EventWriter::BackgroundPr(const Repo& repo, Rng& rng, int64_t now) {
  // The pull request itself is the repository's one background pull request. Its number,
  // id, title, body, author and creation time are still drawn here and dropped, so that every
  // later event of the hour draws what it drew before reviews named a fixed pull request.
  const BackgroundPrIdentity identity = BackgroundPrOf(world_, seed_, repo);
  rng.Below(100000);                // number
  rng.Below(100000000);             // id
  MakeBackgroundPrTitle(rng);       // title
  rng.Chance(0.5);                  // body
  rng.Skewed(world_.users.size());  // author
  rng.Below(7 * 86400);             // creation time
  PrView pr;
  pr.repo = &repo;
  pr.number = identity.number;
  pr.pr_id = identity.pr_id;
  pr.title = identity.title;
  pr.body_null = identity.body_null;
  pr.body = "Small change, see the diff.";
  pr.user = identity.user;
  pr.head_user = pr.user;
  pr.created_at = identity.created_at;
  pr.updated_at = now;
  pr.commits = 1 + static_cast<uint32_t>(rng.Below(5));
  pr.additions = static_cast<uint32_t>(rng.Skewed(500));
  pr.deletions = static_cast<uint32_t>(rng.Skewed(200));
  pr.changed_files = 1 + static_cast<uint32_t>(rng.Below(10));
  pr.review_comments = static_cast<uint32_t>(rng.Below(5));
  return pr;
}

bool EventWriter::ReviewPayload(std::string& out, const PrView& pr, const User& actor, int64_t time, Rng& rng) {
  const std::string_view full = pr.repo->NameAt(hour_).full;
  const uint64_t review_id = 1700000000 + rng.Below(100000000);
  out.append("{\"action\":\"created\",\"review\":{\"id\":");
  AppendUint(out, review_id);
  out.append(",\"node_id\":\"");
  AppendNodeId(out, "PRR_kwDO", review_id);
  out.append("\",\"user\":");
  AppendAccount(out, ViewOf(actor));
  out.append(",\"body\":");
  const bool has_text = !rng.Chance(0.4);
  if (!has_text) {
    out.append("null");
  } else {
    text_.clear();
    AppendReviewText(rng, text_);
    AppendJsonString(out, text_);
  }
  out.append(",\"commit_id\":\"");
  AppendSha(out, pr.pr_id * 131 + pr.commits);
  out.append("\",\"submitted_at\":");
  AppendQuotedTime(out, time);
  static const char* const kStates[] = {"\"approved\"", "\"commented\"", "\"changes_requested\""};
  out.append(",\"state\":");
  out.append(rng.Pick(kStates));
  scratch_.clear();
  scratch_.append("https://github.com/");
  scratch_.append(full);
  scratch_.append("/pull/");
  AppendUint(scratch_, pr.number);
  out.append(",\"html_url\":\"");
  out.append(scratch_);
  out.append("#pullrequestreview-");
  AppendUint(out, review_id);
  out.append("\",\"pull_request_url\":\"");
  AppendApiRepoUrl(out, full);
  out.append("/pulls/");
  AppendUint(out, pr.number);
  out.append("\",\"author_association\":\"");
  out.append(AssociationOf(actor.id, pr.repo->id, false));
  out.append("\",\"_links\":{\"html\":{\"href\":\"");
  out.append(scratch_);
  out.append("#pullrequestreview-");
  AppendUint(out, review_id);
  out.append("\"},\"pull_request\":{\"href\":\"");
  AppendApiRepoUrl(out, full);
  out.append("/pulls/");
  AppendUint(out, pr.number);
  out.append("\"}}},\"pull_request\":");
  if (slim_) {
    AppendSlimPullRequest(out, *pr.repo, pr.number, pr.pr_id, pr.commits);
  } else {
    AppendPullRequest(out, pr);
  }
  out.push_back('}');
  return has_text;
}

void EventWriter::ReviewCommentPayload(std::string& out, const PrView& pr, const User& actor, int64_t time, Rng& rng) {
  const std::string_view full = pr.repo->NameAt(hour_).full;
  const uint64_t id = 1400000000 + rng.Below(100000000);
  const uint64_t review_id = 1700000000 + rng.Below(100000000);
  const char* path = rng.Pick(kPaths);
  const int line = rng.Range(1, 400);
  auto api_pull = [&](std::string& o) {
    AppendApiRepoUrl(o, full);
    o.append("/pulls/");
    AppendUint(o, pr.number);
  };
  out.append("{\"action\":\"created\",\"comment\":{\"url\":\"");
  AppendApiRepoUrl(out, full);
  out.append("/pulls/comments/");
  AppendUint(out, id);
  out.append("\",\"pull_request_review_id\":");
  AppendUint(out, review_id);
  out.append(",\"id\":");
  AppendUint(out, id);
  out.append(",\"node_id\":\"");
  AppendNodeId(out, "PRRC_kwDO", id);
  out.append("\",\"diff_hunk\":");
  text_.assign("@@ -");
  text_ += std::to_string(line);
  text_ += ",7 +";
  text_ += std::to_string(line);
  text_ += ",9 @@ def load(path):\n     with open(path) as f:\n-        data = f.read()\n+        data = f.read().strip()\n+        if not data:\n+            raise ValueError(\"empty file\")";
  AppendJsonString(out, text_);
  out.append(",\"path\":");
  AppendQuoted(out, path);
  out.append(",\"commit_id\":\"");
  AppendSha(out, pr.pr_id * 131 + pr.commits);
  out.append("\",\"original_commit_id\":\"");
  AppendSha(out, pr.pr_id * 131 + 1);
  out.append("\",\"user\":");
  AppendAccount(out, ViewOf(actor));
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
  AppendUint(out, pr.number);
  out.append("#discussion_r");
  AppendUint(out, id);
  out.append("\",\"pull_request_url\":\"");
  api_pull(out);
  out.append("\",\"author_association\":\"");
  out.append(AssociationOf(actor.id, pr.repo->id, false));
  out.append("\",\"_links\":{\"self\":{\"href\":\"");
  AppendApiRepoUrl(out, full);
  out.append("/pulls/comments/");
  AppendUint(out, id);
  out.append("\"},\"html\":{\"href\":\"https://github.com/");
  out.append(full);
  out.append("/pull/");
  AppendUint(out, pr.number);
  out.append("#discussion_r");
  AppendUint(out, id);
  out.append("\"},\"pull_request\":{\"href\":\"");
  api_pull(out);
  out.append("\"}},");
  scratch_.clear();
  AppendApiRepoUrl(scratch_, full);
  scratch_.append("/pulls/comments/");
  AppendUint(scratch_, id);
  AppendReactions(out, scratch_);
  out.append(",\"start_line\":null,\"original_start_line\":null,\"start_side\":null,\"line\":");
  AppendUint(out, static_cast<uint64_t>(line + 3));
  out.append(",\"original_line\":");
  AppendUint(out, static_cast<uint64_t>(line + 3));
  out.append(",\"side\":\"RIGHT\",\"original_position\":4,\"position\":4,\"subject_type\":\"line\"},\"pull_request\":");
  AppendPullRequest(out, pr);
  out.push_back('}');
}

void EventWriter::CommitCommentPayload(std::string& out, const Repo& repo, const User& actor, int64_t time, Rng& rng) {
  const std::string_view full = repo.NameAt(hour_).full;
  const uint64_t id = 135000000 + rng.Below(10000000);
  out.append("{\"comment\":{\"url\":\"");
  AppendApiRepoUrl(out, full);
  out.append("/comments/");
  AppendUint(out, id);
  out.append("\",\"html_url\":\"https://github.com/");
  out.append(full);
  out.append("/commit/");
  const size_t sha_at = out.size();
  AppendSha(out, rng.Next());
  out.append("#commitcomment-");
  AppendUint(out, id);
  out.append("\",\"id\":");
  AppendUint(out, id);
  out.append(",\"node_id\":\"");
  AppendNodeId(out, "CC_kwDO", id);
  out.append("\",\"user\":");
  AppendAccount(out, ViewOf(actor));
  out.append(",\"position\":null,\"line\":null,\"path\":null,\"commit_id\":\"");
  AppendCopy(out, sha_at, 40);
  out.append("\",\"created_at\":");
  AppendQuotedTime(out, time);
  out.append(",\"updated_at\":");
  AppendQuotedTime(out, time);
  out.append(",\"author_association\":\"");
  out.append(AssociationOf(actor.id, repo.id, false));
  out.append("\",\"body\":");
  text_.clear();
  AppendReviewText(rng, text_);
  AppendJsonString(out, text_);
  out.push_back(',');
  scratch_.clear();
  AppendApiRepoUrl(scratch_, full);
  scratch_.append("/comments/");
  AppendUint(scratch_, id);
  AppendReactions(out, scratch_);
  out.append("}}");
}

}  // namespace ghsift::gen
