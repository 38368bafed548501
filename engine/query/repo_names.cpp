#include "query/repo_names.hpp"

#include "aggregate/file_aggregate.hpp"

namespace ghsift {

void RepoNames::Prefetch(const std::unordered_set<int64_t>& ids) {
  if (ids.size() < kPrefetchAbove) return;
  // Only a shortcut, so a failed scan is safe to drop: Of() looks up alone each id it did not reach.
  (void)store_.ScanRepoNames([&](int64_t id, std::string_view name) {
    if (ids.count(id) && !name.empty()) names_.emplace(id, std::string(name));
  });
}

const std::string& RepoNames::Of(int64_t id) {
  auto it = names_.find(id);
  if (it == names_.end()) {
    std::string name = id == kUntrackedRepositories ? std::string(kUntrackedRepositoriesName)
                       : id == 0                    ? std::string(kNoRepositoryName)
                                                    : store_.RepoName(id);
    if (name.empty()) name = "#" + std::to_string(id);
    it = names_.emplace(id, std::move(name)).first;
  }
  return it->second;
}

}  // namespace ghsift
