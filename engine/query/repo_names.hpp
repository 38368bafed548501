#pragma once
// The printed name of a repository id, looked up once per id.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "store/store.hpp"

namespace ghsift {

//! How the events of repositories outside a tracked scope appear as a repository (--by repo).
inline constexpr const char* kUntrackedRepositoriesName = "(untracked repositories)";
//! The row of events whose record names no repository (a FollowEvent of 2012, `repo` "/").
inline constexpr const char* kNoRepositoryName = "(no repository)";

class RepoNames {
 public:
  explicit RepoNames(const Store& store) : store_(store) {}
  //! Looks up many repositories at once: one pass over all names beats a lookup each.
  void Prefetch(const std::unordered_set<int64_t>& ids);
  //! The latest name; the untracked and no-repository rows by their printed names; "#id" when unknown.
  const std::string& Of(int64_t id);

 private:
  static constexpr size_t kPrefetchAbove = 1000;
  const Store& store_;
  std::unordered_map<int64_t, std::string> names_;
};

}  // namespace ghsift
