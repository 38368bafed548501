#include "pipelines/store_scope.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "common/short_digest.hpp"
#include "pipelines/rule_layers_meta.hpp"
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

//! What a tracked list given to ingest changes against the store's, in names: the events of a
//! name only one of them tracks were counted otherwise in the hours already ingested (a list
//! that now follows a rename counts the former name's events, which the store's hours left
//! among the untracked ones). Empty when neither is a tracked list or the names are the same.
std::string NamesChanged(const std::string& stored_scope, const RepoFilter& wanted) {
  const std::optional<RepoFilter> stored = RepoFilter::FromDescription(stored_scope);
  if (!stored || stored->all() || wanted.all()) return "";
  auto list = [](const std::vector<std::string>& names) {
    std::string out;
    for (size_t i = 0; i < names.size() && i < 6; ++i) out += (i ? ", " : "") + names[i];
    if (names.size() > 6) out += " and " + std::to_string(names.size() - 6) + " more";
    return out;
  };
  std::vector<std::string> added, dropped;
  // Other names of repositories both lists track (a rename the list follows now) come first.
  for (const bool of_tracked : {true, false}) {
    for (const std::string& n : wanted.Names()) {
      if (stored->Tracks(n)) continue;
      const std::vector<std::string> names = wanted.NamesOf(n);
      const bool renamed = std::any_of(names.begin(), names.end(), [&](const auto& m) { return stored->Tracks(m); });
      if (renamed == of_tracked) added.push_back(n);
    }
  }
  for (const std::string& n : stored->Names()) {
    if (!wanted.Tracks(n)) dropped.push_back(n);
  }
  std::string out;
  if (!added.empty()) out += "the list given also tracks " + list(added);
  if (!dropped.empty()) out += std::string(out.empty() ? "the list given" : ";") + " no longer tracks " + list(dropped);
  if (!out.empty()) out = " (" + out + ": the store's hours counted their events otherwise)";
  return out;
}

//! "; the rule layers last used: --rules A --rules B" (ingests and rescans record the --rules they
//! were given), so that a refused ingest can be run again as the store was built; empty when none
//! was recorded.
std::string RecordedLayers(const Store& store) {
  auto layers = ReadRuleLayers(store);
  if (!layers.ok() || layers->empty()) return "";
  std::string out = "; the rule layers last used:";
  for (const std::string& layer : layers->back()) out += " --rules " + layer;
  return out;
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
      auto built = DescribeStoreScope(store);
      std::string options = built.ok() && !built->options.empty() ? built->options : "(no options)";
      if (built.ok()) {
        for (const std::string& note : built->notes) options += "; " + note;
      }
      if (key == "rules") options += RecordedLayers(store);
      return Status::InvalidArgument(
          store.path() + ": this store was built with " +
          (key == "rules" ? "another rule set (`ghsift rescan --rules ...` re-applies a changed set to the text the "
                                            "store kept, exactly in a --keep-text store)"
                          : "another repository scope (--all-repos / --repos / --keep-text)" +
                                NamesChanged(**existing, repos)) +
          "; its options were: " + options + " (see `ghsift stats`); ingest into a new store, or use the same options");
    }
  }
  // The list's spellings, kept apart from the scope (which compares lower case): the list of
  // this run, the same scope, names them.
  if (!repos.all()) {
    const std::string names = repos.DisplayNames();
    GHSIFT_ASSIGN_OR_RETURN(const std::optional<std::string> shown, store.GetMeta(kTrackedNamesMeta));
    if (shown != names) GHSIFT_TRY(store.PutMeta(kTrackedNamesMeta, names));
  }
  return Status::Ok();
}

Result<StoreScopeDescription> DescribeStoreScope(const Store& store) {
  StoreScopeDescription d;
  GHSIFT_ASSIGN_OR_RETURN(const std::optional<std::string> scope, store.GetMeta("scope"));
  GHSIFT_ASSIGN_OR_RETURN(const std::optional<std::string> model_text, store.GetMeta("rules"));
  if (!scope || !model_text) return d;
  d.known = true;
  // The scope is RepoFilter::Describe() ("all" or "tracked:" and entries), then ";keep-text" when set.
  std::string repos = *scope;
  const std::string keep_text_mark = ";keep-text";
  if (repos.ends_with(keep_text_mark)) {
    d.keep_text = true;
    repos.resize(repos.size() - keep_text_mark.size());
  }
  d.all_repos = repos == RepoFilter::All().Describe();
  d.scope_digest = d.all_repos ? "all" : ShortDigest(repos);
  if (!d.all_repos) {
    // One entry per repository, with its former names and ids.
    const std::optional<RepoFilter> stored = RepoFilter::FromDescription(repos);
    d.tracked_repos = stored ? stored->size() : 0;
    auto defaults = RepoFilter::FromFile((std::filesystem::path(DefaultRulesPath()) / "repos.txt").string());
    d.default_repos = defaults.ok() && defaults->Describe() == repos;
  }
  d.rules_digest = ShortDigest(*model_text);
  GHSIFT_ASSIGN_OR_RETURN(const DecisionModel stored, DecisionModel::Parse(*model_text));
  d.default_rules = DecidesLikeDefaultRules(stored);
  std::string options;
  auto add = [&](const std::string& option) { options += (options.empty() ? "" : " ") + option; };
  if (d.all_repos) add("--all-repos");
  else if (!d.default_repos) add("--repos FILE");
  if (d.keep_text) add("--keep-text");
  if (!d.default_rules) add("--rules PATH");
  d.options = options;
  if (!d.all_repos && !d.default_repos) {
    d.notes.push_back("FILE: a list of the same " + std::to_string(d.tracked_repos) + " repositories (digest " +
                      d.scope_digest + ")");
  }
  if (!d.default_rules) d.notes.push_back("PATH: a rule set that decides alike (digest " + d.rules_digest + ")");
  return d;
}

}  // namespace ghsift
