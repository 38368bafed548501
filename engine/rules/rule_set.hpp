#pragma once
// Rule files (YAML) loaded into memory; see rules/README.md for the format.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "rules/field.hpp"

namespace ghsift {

struct Rule {
  std::string id;        //!< unique, [a-z0-9._-]+
  std::string tag;       //!< category[/subcategory]
  std::string category;  //!< tag up to the first '/'
  std::string pattern;   //!< Hyperscan expression
  FieldMask fields = MaskOf(Field::kTitle) | MaskOf(Field::kBody);
  std::vector<std::string> flags;  //!< caseless, dotall, multiline, ucp
  double weight = 1.0;
  std::string source;    //!< file the rule came from (for messages)
};

inline constexpr double kDefaultThreshold = 1.0;

struct RuleSet {
  std::vector<Rule> rules;                    //!< in load order; index = Hyperscan id
  std::map<std::string, double> thresholds;   //!< categories given explicitly
  //! Categories marked `facet: true`: attributes of a report (stage, info, verdict), never a flag.
  std::set<std::string> facets;

  double ThresholdOf(const std::string& category) const;
  //! Every category that has a rule, sorted.
  std::vector<std::string> Categories() const;
};

//! Loads one YAML file, or every *.yaml / *.yml file of a directory in name order.
//! Errors name the file and, where it applies, the rule id.
Result<RuleSet> LoadRuleSet(const std::string& path);

//! Parses YAML text; `source` names it in messages. Appends to `into`.
Status ParseRuleYaml(const std::string& text, const std::string& source, RuleSet& into);

//! The project's default rule directory (compiled in), used when --rules is not given.
std::string DefaultRulesPath();

}  // namespace ghsift
