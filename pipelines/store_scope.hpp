#pragma once
// A store remembers the rule model and repository scope it was built with; ingesting with
// others would mix incomparable numbers, so a mismatch is refused.
#include "aggregate/repo_filter.hpp"
#include "rules/rule_set.hpp"
#include <string>
#include <string_view>
#include <vector>

#include "store/store.hpp"

namespace ghsift {

//! Records the scope in a new store, or checks it against the one recorded. `keep_text` is
//! part of the scope: a store either keeps every tracked report's text or none.
Status CheckStoreScope(Store& store, const RuleSet& rules, const RepoFilter& repos, bool keep_text = false);

//! What a store was built with, as `stats` shows it and a refusal names it.
struct StoreScopeDescription {
  bool known = false;           //!< false: nothing ingested yet
  bool all_repos = false;
  size_t tracked_repos = 0;     //!< with !all_repos
  bool default_repos = false;   //!< the tracked list is the default rules/repos.txt
  bool keep_text = false;
  std::string scope_digest;     //!< 16 hex digits of the tracked list (or "all")
  std::string rules_digest;     //!< 16 hex digits of the stored rule model
  bool default_rules = false;   //!< the model decides like the default rule set
  //! The ingest options that reproduce the scope, e.g. "--all-repos --keep-text"; a list or rule
  //! set other than the defaults is named by its digest.
  std::string options;
  std::vector<std::string> notes;  //!< what FILE and PATH in `options` must hold
};
Result<StoreScopeDescription> DescribeStoreScope(const Store& store);

}  // namespace ghsift
