#include "pipelines/store_scope.hpp"

#include "rules/decision.hpp"

namespace ghsift {

Status CheckStoreScope(Store& store, const RuleSet& rules, const RepoFilter& repos, bool keep_text) {
  const std::string model = DecisionModel::FromRuleSet(rules).Serialize();
  const std::string scope = repos.Describe() + (keep_text ? ";keep-text" : "");
  const std::pair<std::string, const std::string*> entries[] = {{"rules", &model}, {"scope", &scope}};
  for (const auto& [key, wanted] : entries) {
    auto existing = store.GetMeta(key);
    if (!existing.ok()) return existing.status();
    if (!existing->has_value()) {
      GHSIFT_TRY(store.PutMeta(key, *wanted));
    } else if (**existing != *wanted) {
      return Status::InvalidArgument(
          store.path() + ": this store was built with " +
          (key == "rules" ? "another rule set (use `ghsift rescan` on a --keep-text store)"
                          : "another repository scope (--all-repos / --repos / --keep-text)") +
          "; ingest into a new store, or use the same options as before");
    }
  }
  return Status::Ok();
}

}  // namespace ghsift
