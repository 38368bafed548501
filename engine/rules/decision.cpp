#include "rules/decision.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
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
  model.BuildIndex();
  return model;
}

void DecisionModel::BuildIndex() {
  categories_.clear();
  thresholds_.clear();
  for (const auto& [category, threshold] : threshold_micro_) {
    categories_.push_back(category);
    thresholds_.push_back(threshold);
  }
  for (auto& [id, info] : rules_) {
    const auto it = std::lower_bound(categories_.begin(), categories_.end(), info.category);
    info.category_index =
        it != categories_.end() && *it == info.category ? static_cast<int>(it - categories_.begin()) : -1;
  }
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
  model.BuildIndex();
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
  // Each rule counts once: a stored report's ids are sorted and distinct already, so a copy is
  // made only for other input.
  const std::vector<std::string>* ids = &matched_rule_ids;
  std::vector<std::string> distinct;
  if (std::adjacent_find(ids->begin(), ids->end(), std::greater_equal<>()) != ids->end()) {
    distinct = matched_rule_ids;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    ids = &distinct;
  }
  std::vector<int64_t> sums(categories_.size(), 0);
  std::vector<char> any(categories_.size(), 0);
  for (const std::string& id : *ids) {
    const auto it = rules_.find(id);
    if (it == rules_.end() || it->second.category_index < 0) continue;
    const auto c = static_cast<size_t>(it->second.category_index);
    sums[c] += it->second.weight_micro;
    any[c] = 1;
  }
  std::vector<std::string> flagged;
  for (size_t c = 0; c < categories_.size(); ++c) {
    // A category none of whose rules matched is never flagged, even with a threshold <= 0.
    if (any[c] && sums[c] >= thresholds_[c]) flagged.push_back(categories_[c]);
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
