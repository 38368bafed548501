#include "pipelines/store_scope.hpp"

#include "rules/decision.hpp"

namespace ghsift {
namespace {

//! Facet marks change how answers are presented, never what the store holds: a rule set that
//! decides like the store's model but marks facets differently (or a store written before facet
//! marks existed) takes the new marks instead of being refused.
Status AdoptFacetMarks(Store& store, const DecisionModel& wanted, const std::string& wanted_text) {
  auto existing = store.GetMeta("rules");
  if (!existing.ok()) return existing.status();
  if (!existing->has_value() || **existing == wanted_text) return Status::Ok();
  auto stored = DecisionModel::Parse(**existing);
  if (!stored.ok() || !stored->DecidesLike(wanted)) return Status::Ok();  // refused below
  return store.PutMeta("rules", wanted_text);
}

}  // namespace

Status CheckStoreScope(Store& store, const RuleSet& rules, const RepoFilter& repos, bool keep_text) {
  const DecisionModel wanted_model = DecisionModel::FromRuleSet(rules);
  const std::string model = wanted_model.Serialize();
  GHSIFT_TRY(AdoptFacetMarks(store, wanted_model, model));
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
