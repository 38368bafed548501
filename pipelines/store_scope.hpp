#pragma once
// A store remembers the rule model and repository scope it was built with; ingesting with
// others would mix incomparable numbers, so a mismatch is refused.
#include "aggregate/repo_filter.hpp"
#include "rules/rule_set.hpp"
#include "store/store.hpp"

namespace ghsift {

//! Records the scope in a new store, or checks it against the one recorded. `keep_text` is
//! part of the scope: a store either keeps every tracked report's text or none.
Status CheckStoreScope(Store& store, const RuleSet& rules, const RepoFilter& repos, bool keep_text = false);

}  // namespace ghsift
