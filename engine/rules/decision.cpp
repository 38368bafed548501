#include "rules/decision.hpp"

#include <cmath>
#include <set>
#include <sstream>

namespace ghsift {

int64_t ToMicro(double value) { return std::llround(value * 1e6); }

DecisionModel DecisionModel::FromRuleSet(const RuleSet& rules) {
  DecisionModel model;
  for (const Rule& r : rules.rules) {
    model.rules_[r.id] = {r.tag, r.category, ToMicro(r.weight)};
    model.threshold_micro_[r.category] = ToMicro(rules.ThresholdOf(r.category));
  }
  return model;
}

std::string DecisionModel::Serialize() const {
  std::ostringstream out;
  for (const auto& [id, info] : rules_) out << "rule\t" << id << '\t' << info.tag << '\t' << info.weight_micro << '\n';
  for (const auto& [category, t] : threshold_micro_) out << "threshold\t" << category << '\t' << t << '\n';
  return out.str();
}

Result<DecisionModel> DecisionModel::Parse(std::string_view text) {
  DecisionModel model;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string kind, name;
    fields >> kind >> name;
    if (kind == "rule") {
      RuleInfo info;
      fields >> info.tag >> info.weight_micro;
      info.category = info.tag.substr(0, info.tag.find('/'));
      model.rules_[name] = info;
    } else if (kind == "threshold") {
      int64_t t = 0;
      fields >> t;
      model.threshold_micro_[name] = t;
    } else if (!line.empty()) {
      return Status::StoreError("damaged rule model line: " + line);
    }
  }
  return model;
}

std::vector<CategoryScore> DecisionModel::Score(const std::vector<std::string>& matched_rule_ids) const {
  std::map<std::string, int64_t> sums;
  std::set<std::string> distinct(matched_rule_ids.begin(), matched_rule_ids.end());
  for (const std::string& id : distinct) {
    auto it = rules_.find(id);
    if (it != rules_.end()) sums[it->second.category] += it->second.weight_micro;
  }
  std::vector<CategoryScore> scores;
  for (const auto& [category, threshold] : threshold_micro_) {
    const int64_t sum = sums.count(category) ? sums[category] : 0;
    // A category none of whose rules matched is never flagged, even with a threshold <= 0.
    const bool any = sums.count(category) > 0;
    scores.push_back({category, sum / 1e6, threshold / 1e6, any && sum >= threshold});
  }
  return scores;
}

std::vector<std::string> DecisionModel::Flagged(const std::vector<std::string>& matched_rule_ids) const {
  std::vector<std::string> flagged;
  for (const CategoryScore& s : Score(matched_rule_ids)) {
    if (s.flagged) flagged.push_back(s.category);
  }
  return flagged;
}

std::string DecisionModel::CategoryOf(const std::string& rule_id) const {
  auto it = rules_.find(rule_id);
  return it == rules_.end() ? std::string() : it->second.category;
}

double DecisionModel::WeightOf(const std::string& rule_id) const {
  auto it = rules_.find(rule_id);
  return it == rules_.end() ? 0.0 : it->second.weight_micro / 1e6;
}

std::string DecisionModel::TagOf(const std::string& rule_id) const {
  auto it = rules_.find(rule_id);
  return it == rules_.end() ? std::string() : it->second.tag;
}

}  // namespace ghsift
