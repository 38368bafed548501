#pragma once
// Loading what several commands need: rules, the tracked-repo list.
#include <memory>
#include <string>

#include "aggregate/repo_filter.hpp"
#include "common/result.hpp"
#include "rules/rule_database.hpp"

namespace ghsift::cli {

//! The rule set at `path` (the default set when empty), compiled.
Result<std::shared_ptr<const RuleDatabase>> LoadRules(const std::string& path,
                                                      RuleDatabase::Mode mode = RuleDatabase::Mode::kFlag);
//! Every repo with `all`, else the list in `path` (rules/repos.txt when empty).
Result<RepoFilter> LoadRepoFilter(bool all, const std::string& path);

}  // namespace ghsift::cli
