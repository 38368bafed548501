#include "eval/match_table.hpp"

#include <algorithm>
#include <map>

#include "rules/decision.hpp"

namespace ghsift {

int MatchTable::CategoryIndex(const std::string& category) const {
  const auto it = std::find(categories.begin(), categories.end(), category);
  return it == categories.end() ? -1 : static_cast<int>(it - categories.begin());
}

DecisionParams MatchTable::ParamsOf(const RuleSet& rules) const {
  DecisionParams p;
  std::map<std::string, double> weights;
  for (const Rule& r : rules.rules) weights[r.id] = r.weight;
  for (const std::string& id : rule_ids) p.weight.push_back(ToMicro(weights.count(id) ? weights.at(id) : 0.0));
  for (const std::string& c : categories) p.threshold.push_back(ToMicro(rules.ThresholdOf(c)));
  return p;
}

int64_t MatchTable::Sum(size_t report, int c, const DecisionParams& p, bool* any) const {
  int64_t sum = 0;
  *any = false;
  for (uint32_t rule : matched[report]) {
    if (!CountsToward(rule, c)) continue;
    sum += p.weight[rule];
    *any = true;
  }
  return sum;
}

bool MatchTable::Flagged(size_t report, int c, const DecisionParams& p) const {
  bool any = false;
  const int64_t sum = Sum(report, c, p, &any);
  return any && sum >= p.threshold[static_cast<size_t>(c)];  // as DecisionModel decides
}

bool MatchTable::Predicted(size_t report, const DecisionParams& p) const {
  const Group& g = groups[static_cast<size_t>(group[report])];
  const bool topic = std::any_of(g.positive.begin(), g.positive.end(), [&](int c) { return Flagged(report, c, p); });
  return topic && (!g.bug_only || Bug(report, p));
}

MatchTable BuildMatchTable(const RuleSet& rules, const std::vector<LabeledReport>& reports,
                           const std::vector<ReportVerdict>& verdicts, const std::vector<GroupDefinition>& groups,
                           const std::vector<int>& report_group) {
  MatchTable t;
  t.categories = rules.Categories();
  if (!rules.verdict.empty()) t.verdict = t.CategoryIndex(rules.verdict);
  std::map<std::string, uint32_t> index;
  for (const Rule& r : rules.rules) {
    index[r.id] = static_cast<uint32_t>(t.rule_ids.size());
    t.rule_ids.push_back(r.id);
    t.rule_category.push_back(t.CategoryIndex(r.category));
    std::vector<int> counted;
    for (const std::string& c : r.ScoredCategories()) {
      if (const int i = t.CategoryIndex(c); i >= 0) counted.push_back(i);
    }
    t.rule_categories.push_back(std::move(counted));
  }
  for (const GroupDefinition& d : groups) {
    MatchTable::Group g;
    g.name = d.name;
    g.objective_f1 = d.objective_f1;
    g.bug_only = d.bug_only;
    for (const std::string& c : d.positive) {
      if (const int i = t.CategoryIndex(c); i >= 0) g.positive.push_back(i);
    }
    g.positive_name = Target{d.positive, d.bug_only}.Name();
    for (const std::string& c : d.controls) {
      if (const int i = t.CategoryIndex(c); i >= 0) g.controls.push_back(i);
    }
    t.groups.push_back(std::move(g));
  }
  for (const Rule& r : rules.rules) {
    std::vector<size_t> from;
    for (size_t g = 0; g < t.groups.size(); ++g) {
      if (std::find(r.written_from.begin(), r.written_from.end(), t.groups[g].name) != r.written_from.end()) {
        from.push_back(g);
      }
    }
    t.rule_written_from.push_back(std::move(from));
  }
  for (size_t i = 0; i < reports.size(); ++i) {
    std::vector<uint32_t> ids;
    for (const std::string& id : verdicts[i].rules) {
      if (const auto it = index.find(id); it != index.end()) ids.push_back(it->second);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    t.matched.push_back(std::move(ids));
    const int g = report_group[i];
    bool known = false;
    const bool actual = ActualPositive(reports[i], groups[static_cast<size_t>(g)].positive, &known);
    t.label.push_back(known ? (actual ? 1 : 0) : -1);
    t.group.push_back(g);
    const auto& exported = reports[i].exported_as;
    const auto& positive = groups[static_cast<size_t>(g)].positive;
    t.exported_flagged.push_back(!exported ? -1
                                 : std::any_of(positive.begin(), positive.end(),
                                               [&](const std::string& c) { return exported->count(c) > 0; })
                                     ? 1
                                     : 0);
    t.groups[static_cast<size_t>(g)].reports.push_back(static_cast<uint32_t>(i));
  }
  return t;
}

GroupScore ScoreGroup(const MatchTable& table, size_t group, const DecisionParams& params) {
  const MatchTable::Group& g = table.groups[group];
  GroupScore s;
  s.control_flags.assign(g.controls.size(), 0);
  for (uint32_t i : g.reports) {
    ++s.reports;
    if (table.label[i] >= 0) s.confusion.Add(table.Predicted(i, params), table.label[i] == 1);
    // In a group whose label asks for bugs, the control is "a bug of that category", as the label.
    const bool counted = !g.bug_only || table.Bug(i, params);
    for (size_t k = 0; k < g.controls.size(); ++k) s.control_flags[k] += counted && table.Flagged(i, g.controls[k], params);
  }
  return s;
}

DecisionParams MatchTable::WithoutRulesWrittenFrom(size_t group, DecisionParams params) const {
  for (size_t r = 0; r < rule_written_from.size(); ++r) {
    const auto& from = rule_written_from[r];
    if (std::find(from.begin(), from.end(), group) != from.end()) params.weight[r] = 0;
  }
  return params;
}

size_t MatchTable::RulesWrittenFrom(size_t group) const {
  return static_cast<size_t>(std::count_if(rule_written_from.begin(), rule_written_from.end(), [&](const auto& from) {
    return std::find(from.begin(), from.end(), group) != from.end();
  }));
}

}  // namespace ghsift
