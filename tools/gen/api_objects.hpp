#pragma once
// The REST API objects that events embed (users, repositories, labels, reactions), written
// in GitHub's key order straight into the line buffer.
#include <cstdint>
#include <string>
#include <string_view>

#include "gen/world.hpp"

namespace ghsift::gen {

//! An account as embedded in payloads ("user", "owner", "author", "merged_by").
struct AccountView {
  std::string_view login;
  uint64_t id = 0;
  bool is_org = false;
  bool is_bot = false;
};

inline AccountView ViewOf(const User& user) { return {user.login, user.id, false, user.bot}; }

//! A repository as embedded in pull_request.head/base.repo and ForkEvent.forkee.
struct RepoView {
  uint64_t id = 0;
  std::string_view name;
  std::string_view full_name;
  AccountView owner;
  std::string_view description;  //!< empty = null
  bool fork = false;
  int64_t created_at = 0, updated_at = 0, pushed_at = 0;
  uint32_t size_kb = 0, stars = 0, forks = 0, open_issues = 0;
  std::string_view language;  //!< empty = null
  std::string_view default_branch;
};

//! The envelope "actor" object (shorter than a payload user).
void AppendActor(std::string& out, const User& user, bool display_login = true);
void AppendOrg(std::string& out, const Org& org);
void AppendRepoRef(std::string& out, uint64_t id, std::string_view full_name);

void AppendAccount(std::string& out, const AccountView& account);
void AppendFullRepo(std::string& out, const RepoView& repo);
//! A tracked or background repository seen at `hour` (its name may have changed).
RepoView ViewOfRepo(const World& world, const Repo& repo, int hour, int64_t now);
AccountView OwnerOf(const World& world, const Repo& repo, int hour);

//! {"id",...,"description"} of a label in a repository.
void AppendLabel(std::string& out, const Label& label, uint32_t label_index, uint64_t repo_id,
                 std::string_view repo_full_name);

//! "reactions":{...} of an API object whose URL is `url` (".../issues/12").
void AppendReactions(std::string& out, std::string_view url);

//! "https://api.github.com/repos/" + full_name
void AppendApiRepoUrl(std::string& out, std::string_view full_name);

//! author_association of `user_id` in a repo, stable for the pair.
std::string_view AssociationOf(uint64_t user_id, uint64_t repo_id, bool is_author);

}  // namespace ghsift::gen
