#pragma once
// A store remembers the rule model and repository scope it was built with; ingesting with
// others would mix incomparable numbers, so a mismatch is refused.
#include "aggregate/repo_filter.hpp"
#include "rules/rule_set.hpp"
#include "store/store.hpp"

namespace ghsift {

//! Records the scope in a new store, or checks it against the one recorded.
Status CheckStoreScope(Store& store, const RuleSet& rules, const RepoFilter& repos);

}  // namespace ghsift
