#pragma once
// A rule overlay: new weights by rule id and thresholds by category, written by
// `rules tune --write` as YAML that a later `--rules` layer loads on top of a rule set
// (`rules:` entries with only `id` and `weight`, `categories: {C: {threshold: T}}`).
#include <map>
#include <string>
#include <string_view>

#include "common/result.hpp"
#include "eval/match_table.hpp"
#include "rules/rule_set.hpp"

namespace ghsift {

struct RuleOverlay {
  std::map<std::string, double> weights;     //!< by rule id
  std::map<std::string, double> thresholds;  //!< by category
  bool operator==(const RuleOverlay&) const = default;
};

//! What `fitted` changes against `written`: only the rules and categories whose value moved.
RuleOverlay OverlayOf(const MatchTable& table, const DecisionParams& written, const DecisionParams& fitted);

//! Applies the overlay in memory; a rule id the set does not have is an error naming it.
Status ApplyOverlay(const RuleOverlay& overlay, RuleSet& rules);

//! YAML text; `comment` lines go on top, each prefixed with "# ". `fitted`, when given, is
//! written as the `fitted:` record: the groups the values were fitted on and the fit's estimate.
//! A YAML double-quoted scalar that reads back as `text`, whatever it holds: a group name is a
//! labeled file's repository field, and a control character or a line break in it must neither
//! end the string nor make the file unreadable (`fitted:` lists of tune and learn).
std::string YamlQuoted(std::string_view text);

//! The `fitted:` record of a layer (`rules tune --write`, `rules learn --write`): the groups,
//! the fit's estimate as `logo` (already formatted), and what it read when the layer says it.
std::string FittedYaml(const FittedLayer& fitted, const std::string& logo);

std::string FormatOverlayYaml(const RuleOverlay& overlay, const std::string& comment,
                              const FittedLayer* fitted = nullptr);

//! Reads an overlay written by FormatOverlayYaml; errors name `source`.
Result<RuleOverlay> ParseOverlayYaml(const std::string& text, const std::string& source);

}  // namespace ghsift
