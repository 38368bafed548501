#include "gen/api_objects.hpp"

#include "gen/civil_time.hpp"
#include "gen/json_text.hpp"
#include "gen/rng.hpp"

namespace ghsift::gen {

namespace {

// Appends `"key":"prefix<login>suffix"` — most account and repo fields are URL variants.
void UrlField(std::string& out, std::string_view key, std::string_view prefix, std::string_view middle,
              std::string_view suffix) {
  out.push_back('"');
  out.append(key);
  out.append("\":\"");
  out.append(prefix);
  out.append(middle);
  out.append(suffix);
  out.push_back('"');
}

void TimeField(std::string& out, std::string_view key, int64_t t) {
  out.push_back('"');
  out.append(key);
  out.append("\":\"");
  AppendTimestamp(out, t);
  out.push_back('"');
}

void UintField(std::string& out, std::string_view key, uint64_t v) {
  out.push_back('"');
  out.append(key);
  out.append("\":");
  AppendUint(out, v);
}

void NullableString(std::string& out, std::string_view v) {
  if (v.empty()) {
    out.append("null");
  } else {
    AppendJsonString(out, v);
  }
}

}  // namespace

void AppendApiRepoUrl(std::string& out, std::string_view full_name) {
  out.append("https://api.github.com/repos/");
  out.append(full_name);
}

void AppendActor(std::string& out, const User& user, bool display_login) {
  out.append("{\"id\":");
  AppendUint(out, user.id);
  out.append(",\"login\":");
  AppendQuoted(out, user.login);
  if (display_login) {
    // display_login drops the "[bot]" suffix, as the Events API does.
    std::string_view display = user.login;
    if (user.bot && display.size() > 5) display.remove_suffix(5);
    out.append(",\"display_login\":");
    AppendQuoted(out, display);
  }
  out.append(",\"gravatar_id\":\"\",\"url\":\"https://api.github.com/users/");
  out.append(user.login);
  out.append("\",\"avatar_url\":\"https://avatars.githubusercontent.com/u/");
  AppendUint(out, user.id);
  out.append("?\"}");
}

void AppendOrg(std::string& out, const Org& org) {
  out.append("{\"id\":");
  AppendUint(out, org.id);
  out.append(",\"login\":");
  AppendQuoted(out, org.login);
  out.append(",\"gravatar_id\":\"\",\"url\":\"https://api.github.com/orgs/");
  out.append(org.login);
  out.append("\",\"avatar_url\":\"https://avatars.githubusercontent.com/u/");
  AppendUint(out, org.id);
  out.append("?\"}");
}

void AppendRepoRef(std::string& out, uint64_t id, std::string_view full_name) {
  out.append("{\"id\":");
  AppendUint(out, id);
  out.append(",\"name\":");
  AppendQuoted(out, full_name);
  out.append(",\"url\":\"");
  AppendApiRepoUrl(out, full_name);
  out.append("\"}");
}

void AppendAccount(std::string& out, const AccountView& a) {
  static constexpr std::string_view kUsers = "https://api.github.com/users/";
  out.append("{\"login\":");
  AppendQuoted(out, a.login);
  out.append(",\"id\":");
  AppendUint(out, a.id);
  out.append(",\"node_id\":\"");
  AppendNodeId(out, a.is_org ? "O_kgDO" : "U_kgDO", a.id);
  out.append("\",\"avatar_url\":\"https://avatars.githubusercontent.com/u/");
  AppendUint(out, a.id);
  out.append("?v=4\",\"gravatar_id\":\"\",");
  UrlField(out, "url", kUsers, a.login, "");
  out.push_back(',');
  UrlField(out, "html_url", "https://github.com/", a.login, "");
  out.push_back(',');
  UrlField(out, "followers_url", kUsers, a.login, "/followers");
  out.push_back(',');
  UrlField(out, "following_url", kUsers, a.login, "/following{/other_user}");
  out.push_back(',');
  UrlField(out, "gists_url", kUsers, a.login, "/gists{/gist_id}");
  out.push_back(',');
  UrlField(out, "starred_url", kUsers, a.login, "/starred{/owner}{/repo}");
  out.push_back(',');
  UrlField(out, "subscriptions_url", kUsers, a.login, "/subscriptions");
  out.push_back(',');
  UrlField(out, "organizations_url", kUsers, a.login, "/orgs");
  out.push_back(',');
  UrlField(out, "repos_url", kUsers, a.login, "/repos");
  out.push_back(',');
  UrlField(out, "events_url", kUsers, a.login, "/events{/privacy}");
  out.push_back(',');
  UrlField(out, "received_events_url", kUsers, a.login, "/received_events");
  out.append(a.is_org ? ",\"type\":\"Organization\"" : a.is_bot ? ",\"type\":\"Bot\"" : ",\"type\":\"User\"");
  out.append(",\"site_admin\":false}");
}

void AppendFullRepo(std::string& out, const RepoView& r) {
  static constexpr std::string_view kApi = "https://api.github.com/repos/";
  struct Suffix {
    const char* key;
    const char* suffix;
  };
  // The URL fields between "url" and "created_at", in API order.
  static const Suffix kUrls[] = {
      {"forks_url", "/forks"}, {"keys_url", "/keys{/key_id}"},
      {"collaborators_url", "/collaborators{/collaborator}"}, {"teams_url", "/teams"}, {"hooks_url", "/hooks"},
      {"issue_events_url", "/issues/events{/number}"}, {"events_url", "/events"},
      {"assignees_url", "/assignees{/user}"}, {"branches_url", "/branches{/branch}"}, {"tags_url", "/tags"},
      {"blobs_url", "/git/blobs{/sha}"}, {"git_tags_url", "/git/tags{/sha}"}, {"git_refs_url", "/git/refs{/sha}"},
      {"trees_url", "/git/trees{/sha}"}, {"statuses_url", "/statuses/{sha}"}, {"languages_url", "/languages"},
      {"stargazers_url", "/stargazers"}, {"contributors_url", "/contributors"},
      {"subscribers_url", "/subscribers"}, {"subscription_url", "/subscription"},
      {"commits_url", "/commits{/sha}"}, {"git_commits_url", "/git/commits{/sha}"},
      {"comments_url", "/comments{/number}"}, {"issue_comment_url", "/issues/comments{/number}"},
      {"contents_url", "/contents/{+path}"}, {"compare_url", "/compare/{base}...{head}"}, {"merges_url", "/merges"},
      {"archive_url", "/{archive_format}{/ref}"}, {"downloads_url", "/downloads"}, {"issues_url", "/issues{/number}"},
      {"pulls_url", "/pulls{/number}"}, {"milestones_url", "/milestones{/number}"},
      {"notifications_url", "/notifications{?since,all,participating}"}, {"labels_url", "/labels{/name}"},
      {"releases_url", "/releases{/id}"}, {"deployments_url", "/deployments"}};
  out.append("{\"id\":");
  AppendUint(out, r.id);
  out.append(",\"node_id\":\"");
  AppendNodeId(out, "R_kgDO", r.id);
  out.append("\",\"name\":");
  AppendQuoted(out, r.name);
  out.append(",\"full_name\":");
  AppendQuoted(out, r.full_name);
  out.append(",\"private\":false,\"owner\":");
  AppendAccount(out, r.owner);
  out.push_back(',');
  UrlField(out, "html_url", "https://github.com/", r.full_name, "");
  out.append(",\"description\":");
  NullableString(out, r.description);
  out.append(",\"fork\":");
  AppendBool(out, r.fork);
  out.push_back(',');
  UrlField(out, "url", kApi, r.full_name, "");
  for (const auto& u : kUrls) {
    out.push_back(',');
    UrlField(out, u.key, kApi, r.full_name, u.suffix);
  }
  out.push_back(',');
  TimeField(out, "created_at", r.created_at);
  out.push_back(',');
  TimeField(out, "updated_at", r.updated_at);
  out.push_back(',');
  TimeField(out, "pushed_at", r.pushed_at);
  out.push_back(',');
  UrlField(out, "git_url", "git://github.com/", r.full_name, ".git");
  out.push_back(',');
  UrlField(out, "ssh_url", "git@github.com:", r.full_name, ".git");
  out.push_back(',');
  UrlField(out, "clone_url", "https://github.com/", r.full_name, ".git");
  out.push_back(',');
  UrlField(out, "svn_url", "https://github.com/", r.full_name, "");
  out.append(",\"homepage\":null,");
  UintField(out, "size", r.size_kb);
  out.push_back(',');
  UintField(out, "stargazers_count", r.stars);
  out.push_back(',');
  UintField(out, "watchers_count", r.stars);
  out.append(",\"language\":");
  NullableString(out, r.language);
  out.append(",\"has_issues\":true,\"has_projects\":true,\"has_downloads\":true,\"has_wiki\":");
  AppendBool(out, !r.fork);
  out.append(",\"has_pages\":false,\"has_discussions\":false,");
  UintField(out, "forks_count", r.forks);
  out.append(",\"mirror_url\":null,\"archived\":false,\"disabled\":false,");
  UintField(out, "open_issues_count", r.open_issues);
  out.append(r.fork ? ",\"license\":null"
                    : ",\"license\":{\"key\":\"apache-2.0\",\"name\":\"Apache License 2.0\",\"spdx_id\":\"Apache-2.0\","
                      "\"url\":\"https://api.github.com/licenses/apache-2.0\",\"node_id\":\"MDc6TGljZW5zZTI=\"}");
  out.append(",\"allow_forking\":true,\"is_template\":false,\"web_commit_signoff_required\":false,\"topics\":[],"
             "\"visibility\":\"public\",");
  UintField(out, "forks", r.forks);
  out.push_back(',');
  UintField(out, "open_issues", r.open_issues);
  out.push_back(',');
  UintField(out, "watchers", r.stars);
  out.append(",\"default_branch\":");
  AppendQuoted(out, r.default_branch);
  out.push_back('}');
}

AccountView OwnerOf(const World& world, const Repo& repo, int hour) {
  if (repo.org >= 0) return {world.orgs[static_cast<size_t>(repo.org)].login, repo.owner_id, true, false};
  return {repo.NameAt(hour).owner, repo.owner_id, false, false};
}

RepoView ViewOfRepo(const World& world, const Repo& repo, int hour, int64_t now) {
  const RepoName& name = repo.NameAt(hour);
  RepoView v;
  v.id = repo.id;
  v.name = name.name;
  v.full_name = name.full;
  v.owner = OwnerOf(world, repo, hour);
  v.owner.login = name.owner;
  v.description = repo.description;
  v.created_at = repo.created_at;
  v.updated_at = now - 3600 - static_cast<int64_t>(repo.id % 50000);
  v.pushed_at = now - 60 - static_cast<int64_t>(repo.id % 3000);
  v.size_kb = repo.size_kb;
  v.stars = repo.stars;
  v.forks = repo.forks;
  v.open_issues = repo.open_issues;
  v.language = repo.language;
  v.default_branch = repo.default_branch;
  return v;
}

void AppendLabel(std::string& out, const Label& label, uint32_t label_index, uint64_t repo_id,
                 std::string_view repo_full_name) {
  uint64_t key = repo_id * 1000 + label_index;
  const uint64_t id = 100000000 + SplitMixNext(key) % 6000000000ULL;
  out.append("{\"id\":");
  AppendUint(out, id);
  out.append(",\"node_id\":\"");
  AppendNodeId(out, "LA_kwDO", id);
  out.append("\",\"url\":\"");
  AppendApiRepoUrl(out, repo_full_name);
  out.append("/labels/");
  AppendUrlEncoded(out, label.name);
  out.append("\",\"name\":");
  AppendJsonString(out, label.name);
  out.append(",\"color\":");
  AppendQuoted(out, label.color);
  out.append(",\"default\":");
  AppendBool(out, label.is_default);
  out.append(",\"description\":");
  NullableString(out, label.description);
  out.push_back('}');
}

void AppendReactions(std::string& out, std::string_view url) {
  out.append("\"reactions\":{\"url\":\"");
  out.append(url);
  out.append("/reactions\",\"total_count\":0,\"+1\":0,\"-1\":0,\"laugh\":0,\"hooray\":0,\"confused\":0,"
             "\"heart\":0,\"rocket\":0,\"eyes\":0}");
}

std::string_view AssociationOf(uint64_t user_id, uint64_t repo_id, bool is_author) {
  uint64_t key = user_id * 31 + repo_id;
  const uint64_t r = SplitMixNext(key) % 20;
  if (r == 0) return "MEMBER";
  if (r == 1) return "COLLABORATOR";
  if (r < 5) return "CONTRIBUTOR";
  if (is_author && r < 7) return "FIRST_TIME_CONTRIBUTOR";
  return "NONE";
}

}  // namespace ghsift::gen
