#pragma once
// The decision: a report is flagged with category C when the summed weight of the distinct
// rules of C that matched reaches C's threshold. A rule may count toward several categories
// (a negative rule that lowers performance, accuracy and silent): its weight adds to each. Weights are summed as integers of 1e-6 so the
// result never depends on the order in which rules matched.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "common/unknown_value.hpp"
#include "rules/rule_set.hpp"

namespace ghsift {

struct CategoryScore {
  std::string category;
  double score = 0;
  double threshold = 0;
  bool flagged = false;
};

//! What the decision needs of a rule set; stored with the aggregates so that queries decide
//! with the rules the store was built with.
//! Whether a verdict (DecisionModel::Verdict, or kUnknownValue: a report of which no text was
//! seen, nothing to judge it by) says "judged, and not a bug",
//! of whatever kind: what `--verdict not-a-bug` selects.
bool IsNotABugVerdict(std::string_view verdict);

class DecisionModel;

//! Whether `model` decides like the default (bundled) rule set, facet marks aside (DecidesLike):
//! what `stats` and `rules eval` call "the default rule set"; false when that set cannot be read.
bool DecidesLikeDefaultRules(const DecisionModel& model);

class DecisionModel {
 public:
  static DecisionModel FromRuleSet(const RuleSet& rules);
  static Result<DecisionModel> Parse(std::string_view text);
  std::string Serialize() const;

  //! Scores of every category of the model, sorted by category name.
  std::vector<CategoryScore> Score(const std::vector<std::string>& matched_rule_ids) const;
  //! The flagged categories, sorted.
  std::vector<std::string> Flagged(const std::vector<std::string>& matched_rule_ids) const;
  //! The problem categories among `flagged` (facets removed), in the same order: what makes a
  //! report "flagged" for listings and counts by category.
  std::vector<std::string> Problems(const std::vector<std::string>& flagged) const;
  //! Whether the report is a bug, from its matched rules: "bug", or the kind of not-a-bug
  //! ("question", "feature", "docs", ...: the subcategory of the verdict rules with the most
  //! weight). A model without a verdict category (a store built before it) answers from the
  //! maintainers' label facets it had: "bug", "not_a_bug" or "unclassified".
  std::string Verdict(const std::vector<std::string>& matched_rule_ids) const;
  //! The verdict category ("" when the rule set has none).
  const std::string& verdict_category() const { return verdict_; }
  //! Every value Verdict can give with this model: "bug" and each not-a-bug kind, sorted.
  std::vector<std::string> VerdictValues() const;
  //! The facet categories among `flagged`.
  std::vector<std::string> FacetsAmong(const std::vector<std::string>& flagged) const;
  bool IsFacet(const std::string& category) const { return facets_.count(category) > 0; }
  const std::set<std::string>& facets() const { return facets_; }
  //! Every tag with a subcategory (category/subcategory) of a positive rule, sorted.
  std::vector<std::string> Subcategories() const;
  //! Every category with a rule, sorted.
  const std::vector<std::string>& categories() const { return categories_; }
  //! True when both decide alike: same rules, weights and thresholds, and each rule matching the
  //! same text (its pattern, flags and fields: the scan digest), facet marks aside (they change how
  //! answers are presented, never what a store holds). A model stored before scan digests (none
  //! of its rules has one) is compared on the rest: what it matched with is not on record.
  bool DecidesLike(const DecisionModel& other) const;
  //! True when both models hold the rule and it matches the same text in both (the same scan
  //! digest, kept in both): the reports it matched under `other` are the reports it matches here.
  bool MatchesLike(const DecisionModel& other, const std::string& rule_id) const;
  //! The (first) category of a rule id ("" when unknown).
  std::string CategoryOf(const std::string& rule_id) const;
  //! Every category the rule's weight counts toward (empty when unknown).
  std::vector<std::string> CategoriesOf(const std::string& rule_id) const;
  std::string TagOf(const std::string& rule_id) const;
  //! True when the model has a rule of this id.
  bool Knows(const std::string& rule_id) const { return rules_.count(rule_id) > 0; }
  //! The rule's weight (0 when unknown).
  double WeightOf(const std::string& rule_id) const;
  bool operator==(const DecisionModel& other) const = default;
  bool empty() const { return rules_.empty(); }

 private:
  struct RuleInfo {
    std::string tag;
    std::string category;
    std::vector<std::string> categories;  //!< when it counts toward several; empty = {category}
    int64_t weight_micro = 0;
    std::vector<int> category_indices;  //!< into categories_, one per category with a threshold
    //! What makes the rule match: a digest of its pattern, flags and fields ("" in a model stored
    //! before the digests were kept). A changed pattern changes which reports it matched.
    std::string scan;
    bool operator==(const RuleInfo&) const = default;
  };
  //! Fills the index Score and Flagged work from (categories_, thresholds_, category_index).
  void BuildIndex();
  //! Summed weights (1e-6) of the distinct matched rules, per index of categories_.
  struct CategorySums {
    std::vector<int64_t> micro;
    std::vector<char> any;  //!< some rule of the category matched
    bool Reaches(size_t category, int64_t threshold) const;
  };
  CategorySums Sum(const std::vector<std::string>& matched_rule_ids) const;

  std::map<std::string, RuleInfo> rules_;           //!< by rule id
  std::map<std::string, int64_t> threshold_micro_;  //!< every category with a rule
  std::set<std::string> facets_;                    //!< categories that describe, never flag
  std::string verdict_;                             //!< the verdict category ("" none)
  // The thresholds again, as arrays in category order: Flagged runs once per report read back
  // (rollup refresh, scanning queries), so the sums go into arrays instead of maps.
  std::vector<std::string> categories_;
  std::vector<int64_t> thresholds_;
};

int64_t ToMicro(double value);

}  // namespace ghsift
