#include "eval/rule_overlay.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <set>
#include <sstream>

namespace ghsift {
namespace {

// Weights and thresholds are grid multiples: printed with two decimals unless finer.
std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  if (std::stod(buf) != v) std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

RuleOverlay OverlayOf(const MatchTable& table, const DecisionParams& written, const DecisionParams& fitted) {
  RuleOverlay o;
  for (size_t r = 0; r < table.rule_ids.size(); ++r) {
    if (fitted.weight[r] != written.weight[r]) o.weights[table.rule_ids[r]] = fitted.weight[r] / 1e6;
  }
  for (size_t c = 0; c < table.categories.size(); ++c) {
    if (fitted.threshold[c] != written.threshold[c]) o.thresholds[table.categories[c]] = fitted.threshold[c] / 1e6;
  }
  return o;
}

Status ApplyOverlay(const RuleOverlay& overlay, RuleSet& rules) {
  std::set<std::string> seen;
  for (Rule& r : rules.rules) {
    if (const auto it = overlay.weights.find(r.id); it != overlay.weights.end()) {
      r.weight = it->second;
      seen.insert(r.id);
    }
  }
  for (const auto& [id, weight] : overlay.weights) {
    if (!seen.count(id)) return Status::InvalidArgument("overlay: rule '" + id + "' is not in the rule set");
  }
  for (const auto& [category, threshold] : overlay.thresholds) rules.thresholds[category] = threshold;
  return Status::Ok();
}

std::string FormatOverlayYaml(const RuleOverlay& overlay, const std::string& comment, const FittedLayer* fitted) {
  std::ostringstream out;
  std::istringstream lines(comment);
  for (std::string line; std::getline(lines, line);) out << "# " << line << "\n";
  out << "rules:" << (overlay.weights.empty() ? " []\n" : "\n");
  for (const auto& [id, weight] : overlay.weights) out << "  - {id: " << id << ", weight: " << Number(weight) << "}\n";
  out << "categories:" << (overlay.thresholds.empty() ? " {}\n" : "\n");
  for (const auto& [c, t] : overlay.thresholds) out << "  " << c << ": {threshold: " << Number(t) << "}\n";
  if (fitted != nullptr) {
    out << "fitted:\n  groups: [";
    for (size_t i = 0; i < fitted->groups.size(); ++i) {
      // Group names are file stems or owner/name: quoted, so that any of them stays one string.
      std::string quoted = "'";
      for (const char c : fitted->groups[i]) quoted += c == '\'' ? std::string("''") : std::string(1, c);
      out << (i ? ", " : "") << quoted << "'";
    }
    out << "]\n  logo: " << Number(fitted->logo) << "\n";
  }
  return out.str();
}

Result<RuleOverlay> ParseOverlayYaml(const std::string& text, const std::string& source) {
  RuleOverlay o;
  try {
    const YAML::Node root = YAML::Load(text);
    for (const auto& rule : root["rules"]) {
      if (!rule["id"] || !rule["weight"]) return Status::InvalidArgument(source + ": a rule needs 'id' and 'weight'");
      o.weights[rule["id"].as<std::string>()] = rule["weight"].as<double>();
    }
    for (const auto& entry : root["categories"]) {
      o.thresholds[entry.first.as<std::string>()] = entry.second["threshold"].as<double>();
    }
  } catch (const YAML::Exception& e) {
    return Status::InvalidArgument(source + ": " + e.what());
  }
  return o;
}

}  // namespace ghsift
