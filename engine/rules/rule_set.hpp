#pragma once
// Rule files (YAML) loaded into memory; see rules/README.md for the format.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "json/text_field.hpp"

namespace ghsift {

struct Rule {
  std::string id;        //!< unique, [a-z0-9._-]+
  std::string tag;       //!< category[/subcategory]
  std::string category;  //!< tag up to the first '/': the first category the rule counts toward
  //! Every category the weight counts toward, when the rule names several (`categories:` list,
  //! e.g. a negative rule that lowers performance, accuracy and silent); empty = {category}.
  std::vector<std::string> categories;
  std::string pattern;   //!< Hyperscan expression
  FieldMask fields = MaskOf(Field::kTitle) | MaskOf(Field::kBody);
  std::vector<std::string> flags;  //!< caseless, dotall, multiline, ucp
  double weight = 1.0;
  std::string source;    //!< file the rule came from (for messages)
  int line = 0;          //!< 1-based line of the rule in `source` (0: unknown)
  //! The labeled groups (as `rules eval` names them) whose reports the rule's words were read
  //! from: on those its figures are in-sample, so leave-one-group-out scores each of them as if
  //! the rule did not exist. Never changes a decision.
  std::vector<std::string> written_from = {};

  //! The categories whose score the rule's weight adds to: `categories`, or {category}.
  std::vector<std::string> ScoredCategories() const {
    return categories.empty() ? std::vector<std::string>{category} : categories;
  }
};

inline constexpr double kDefaultThreshold = 1.0;

//! A layer written by `rules tune --write`: the labeled groups its values were fitted on, and the
//! fit's own leave-one-group-out estimate. Scored on those groups, its figures are in-sample.
struct FittedLayer {
  std::string source;
  std::vector<std::string> groups;
  double logo = 0;
  //! What the fit read, as `rules eval` names it in its provenance line: the labeled data's
  //! digest, the digest of the rules it was fitted on, the ghsift that fitted it ("" each in a
  //! layer written before they were recorded).
  std::string data_digest = {}, rules_digest = {}, ghsift = {};
};

struct RuleSet {
  std::vector<Rule> rules;                    //!< in load order; index = Hyperscan id
  std::vector<FittedLayer> fitted;            //!< layers that say what they were fitted on
  std::map<std::string, double> thresholds;   //!< categories given explicitly
  //! Categories marked `facet: true`: attributes of a report (stage, info, verdict), never a flag.
  std::set<std::string> facets;
  //! The category marked `verdict: true` ("" when none): whether a report is a bug, apart from what
  //! it speaks of. Its rules weigh evidence that a report is NOT a bug (positive weights, the kind
  //! in the tag: not-a-bug/question) against evidence that it is one (negative weights); reaching
  //! its threshold makes the report "not a bug" of the kind with the most weight. Also a facet.
  std::string verdict;
  //! Named pieces of patterns (`fragments:` of any file of any layer; a later layer's replaces an
  //! earlier one of the same name). A pattern says `{{name}}` where the piece goes: one list of
  //! words that two categories both need is written once. Expanded when a rule is read.
  std::map<std::string, std::string> fragments;

  double ThresholdOf(const std::string& category) const;
  //! Every category that has a rule, sorted.
  std::vector<std::string> Categories() const;
};

//! Where a rule is written, as every message about it begins: "FILE: rule 'id' (line N)" (no line
//! when it is not known).
std::string RulePlace(const std::string& source, const std::string& id, int line);
inline std::string RulePlace(const Rule& rule) { return RulePlace(rule.source, rule.id, rule.line); }

//! Loads one YAML file, or every *.yaml / *.yml file of a directory in name order, as one layer.
//! Errors name the file and, where it applies, the rule id.
Result<RuleSet> LoadRuleSet(const std::string& path);

//! Loads layers in order (each a file or a directory, see LoadRuleSet). A later layer adds rules
//! and overrides earlier ones by id: an entry with a `pattern` replaces the rule whole, one
//! without overrides only the keys it gives, `enabled: false` removes the rule, and a category
//! threshold replaces the earlier one. A rule id given twice within one layer is an error.
Result<RuleSet> LoadRuleLayers(const std::vector<std::string>& paths);

//! Parses YAML text as a layer of its own over `into`; `source` names it in messages.
Status ParseRuleYaml(const std::string& text, const std::string& source, RuleSet& into);

//! The rules used when --rules is not given: GHSIFT_RULES, else BundledRulesPath().
std::string DefaultRulesPath();
//! The rule set this build ships: installed beside the binary, or the source tree's (the default
//! without GHSIFT_RULES).
std::string BundledRulesPath();

}  // namespace ghsift
