#pragma once
#include <algorithm>
// Labeled reports reduced to what the decision needs: each report's distinct matched rules (one
// Hyperscan pass), its binary label and its group. Weights and thresholds can then be changed
// and every decision taken again by arithmetic alone, which fitting them needs.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "eval/evaluation.hpp"
#include "rules/rule_set.hpp"

namespace ghsift {

//! A group (framework or project set) and what its reports are scored against.
struct GroupDefinition {
  std::string name;
  std::set<std::string> positive;  //!< categories whose union predicts the binary label
  std::set<std::string> controls;  //!< categories these reports are a negative control for
  bool objective_f1 = false;       //!< F1 of the positive class instead of macro-F1
  bool bug_only = false;           //!< the label means "one of positive, and a bug" (--verdict bug)
};

//! Weights and thresholds in millionths, as DecisionModel sums them.
struct DecisionParams {
  std::vector<int64_t> weight;     //!< per rule index
  std::vector<int64_t> threshold;  //!< per category index
};

struct MatchTable {
  std::vector<std::string> rule_ids;
  std::vector<int> rule_category;  //!< index into categories: the rule's first category
  //! Every category the rule's weight counts toward (a negative rule may list several).
  std::vector<std::vector<int>> rule_categories;
  //! Per rule: the indices of the groups its words were written from (Rule::written_from).
  std::vector<std::vector<size_t>> rule_written_from;
  bool CountsToward(uint32_t rule, int c) const {
    const auto& cs = rule_categories[rule];
    return std::find(cs.begin(), cs.end(), c) != cs.end();
  }
  std::vector<std::string> categories;
  int verdict = -1;  //!< index of the verdict category (-1: the rule set has none)
  struct Group {
    std::string name;
    std::vector<int> positive, controls;  //!< category indices
    bool objective_f1 = false;
    bool bug_only = false;                //!< predicted needs the verdict "bug" too
    std::string positive_name;            //!< "accuracy,performance" (& bug): groups pooled under it
    std::vector<uint32_t> reports;
  };
  std::vector<Group> groups;
  std::vector<std::vector<uint32_t>> matched;  //!< per report: distinct rule indices
  std::vector<int8_t> label;                   //!< per report: 1, 0, or -1 when unknown
  std::vector<int> group;                      //!< per report: index into groups
  //! Per report: 1 when its labeled file says the exporting store flagged it with a positive
  //! category of its group (LabeledReport::exported_as), 0 when it says not, -1 when it does not say.
  std::vector<int8_t> exported_flagged;

  int CategoryIndex(const std::string& category) const;  //!< -1 when no rule has it
  //! The rule set's own weights and thresholds.
  DecisionParams ParamsOf(const RuleSet& rules) const;
  //! `params` without the rules written from `group` (weight 0): the rule set as it would be
  //! had nobody read that group's reports.
  DecisionParams WithoutRulesWrittenFrom(size_t group, DecisionParams params) const;
  //! How many rules `group`'s held-out score leaves out.
  size_t RulesWrittenFrom(size_t group) const;
  //! Summed weight of the report's distinct rules of category `c`; `any` tells whether one matched.
  int64_t Sum(size_t report, int c, const DecisionParams& p, bool* any) const;
  bool Flagged(size_t report, int c, const DecisionParams& p) const;
  //! Flagged with any positive category of its group (and judged a bug when the group asks).
  bool Predicted(size_t report, const DecisionParams& p) const;
  //! Judged a bug: the verdict category's sum does not reach its threshold (Verdict's rule).
  bool Bug(size_t report, const DecisionParams& p) const { return verdict < 0 || !Flagged(report, verdict, p); }
};

//! `report_group[i]` indexes `groups`. Verdicts give each report's matched rule ids.
MatchTable BuildMatchTable(const RuleSet& rules, const std::vector<LabeledReport>& reports,
                           const std::vector<ReportVerdict>& verdicts, const std::vector<GroupDefinition>& groups,
                           const std::vector<int>& report_group);

struct GroupScore {
  Confusion confusion;                 //!< labeled reports only
  std::vector<int64_t> control_flags;  //!< per Group::controls entry: reports flagged with it
  int64_t reports = 0;                 //!< all reports of the group (the controls' denominator)
  double ControlRate(size_t k) const {
    return reports ? static_cast<double>(control_flags[k]) / static_cast<double>(reports) : 0.0;
  }
  //! The fit's objective for the group: F1 or macro-F1.
  double Metric(bool objective_f1) const { return objective_f1 ? confusion.f1() : confusion.macro_f1(); }
};

GroupScore ScoreGroup(const MatchTable& table, size_t group, const DecisionParams& params);

//! Whether a group's objective can be scored: it has labeled reports and positive categories, and
//! when its objective is F1, a positive report (F1 is 0/0 without one). Fitting and the printed
//! means leave the others out alike.
inline bool ObjectiveDefined(const MatchTable::Group& group, const Confusion& c) {
  const bool labeled = c.tp + c.fp + c.fn + c.tn > 0;
  return labeled && !group.positive.empty() && (!group.objective_f1 || c.tp + c.fn > 0);
}

}  // namespace ghsift
