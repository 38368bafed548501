#include "query/repo_lookup.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "aggregate/repo_filter.hpp"
#include "rules/rule_set.hpp"

namespace ghsift {

Result<std::vector<int64_t>> RepoIdsByAnyName(const Store& store, const std::string& name) {
  std::vector<int64_t> ids = store.RepoIdsByName(name);
  GHSIFT_ASSIGN_OR_RETURN(const std::optional<std::string> scope, store.GetMeta("scope"));
  std::optional<RepoFilter> list = scope ? RepoFilter::FromDescription(*scope) : std::nullopt;
  if (list && list->all()) {
    // Every repository is in the store by its id; the default list still knows renames of hours
    // the store lacks (an unreadable list only costs those).
    auto defaults = RepoFilter::FromFile((std::filesystem::path(DefaultRulesPath()) / "repos.txt").string());
    list = defaults.ok() ? std::optional<RepoFilter>(std::move(defaults).value()) : std::nullopt;
  }
  if (list) {
    for (const std::string& other : list->NamesOf(name)) {
      // A former name taken since by another repository is that one's, as at ingest.
      for (int64_t id : store.RepoIdsByName(other)) {
        if (list->Tracks(other, id)) ids.push_back(id);
      }
    }
    for (int64_t id : list->IdsOf(name)) {
      if (!store.RepoName(id).empty()) ids.push_back(id);
    }
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace ghsift
