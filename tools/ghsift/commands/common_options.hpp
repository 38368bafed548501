#pragma once
// What several commands need: loading rules and the tracked-repo list, and the timings line of
// the commands that write a store.
#include <CLI/CLI.hpp>

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "aggregate/repo_filter.hpp"
#include "common/result.hpp"
#include "rollup/rollup.hpp"
#include "rules/rule_database.hpp"

namespace ghsift::cli {

//! Adds `--rules PATH`, repeatable: the layers, in order (the default set when none is given).
//! `--rules` (or another option taking rule layers, e.g. `--baseline`), one path per use.
CLI::Option* AddRulesOption(CLI::App& cmd, std::vector<std::string>& layers, const std::string& name = "--rules",
                            const std::string& help = "");
//! The rule layers given (the default set when none), loaded and merged.
Result<RuleSet> LoadRuleLayersOrDefault(const std::vector<std::string>& layers);
//! The rule layers given (the default set when none), compiled. The rule-editing commands use
//! Layout::kPerRule, so that after an edit only the edited rule compiles.
Result<std::shared_ptr<const RuleDatabase>> LoadRules(const std::vector<std::string>& layers,
                                                      RuleDatabase::Mode mode = RuleDatabase::Mode::kFlag,
                                                      RuleDatabase::Layout layout = RuleDatabase::Layout::kCombined);
//! One rule file or directory (the default set when empty), compiled.
Result<std::shared_ptr<const RuleDatabase>> LoadRules(const std::string& path,
                                                      RuleDatabase::Mode mode = RuleDatabase::Mode::kFlag);
//! Checks of count options, with messages that say what is wanted and what was given (CLI11's own
//! ranges print the largest double): a count of 0 or more, a count of 1 or more.
CLI::Validator CountCheck();
CLI::Validator PositiveCountCheck();
//! A whole number from `least` to `most`.
CLI::Validator CountCheck(unsigned long long least, unsigned long long most);
//! A number from `least` (or above it, when excluded) to `most`, with the same kind of message.
CLI::Validator NumberCheck(double least, double most = std::numeric_limits<double>::infinity(),
                           bool least_excluded = false);

//! Every repo with `all`, else the list in `path` (rules/repos.txt when empty).
Result<RepoFilter> LoadRepoFilter(bool all, const std::string& path);

//! The end of a writing command's `--timings` line (ingest, merge): "rollup refresh 13.394 s
//! (375109 reports); flush 2.906 s, compactions 26.411 s (0 B of compaction left pending)".
std::string SettleTimesText(const SettleTimes& settle);

}  // namespace ghsift::cli
