#include "eval/rule_overlay.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <set>
#include <sstream>
#include <string_view>

#include "common/terminal_safe.hpp"

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

std::string YamlQuoted(std::string_view text) {
  std::string out = "\"";
  char escape[8];
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7F) {
      std::snprintf(escape, sizeof escape, "\\x%02x", c);
      out += escape;
    } else if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
      std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned char>(text[++i]));  // a C1 control
      out += escape;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string FormatOverlayYaml(const RuleOverlay& overlay, const std::string& comment, const FittedLayer* fitted) {
  std::ostringstream out;
  // Comments are read by people: shown safe, so that no line break or escape in a group name
  // ends the comment early or reaches the terminal that prints the file.
  std::istringstream lines(comment);
  for (std::string line; std::getline(lines, line);) out << "# " << TerminalSafe(line) << "\n";
  out << "rules:" << (overlay.weights.empty() ? " []\n" : "\n");
  for (const auto& [id, weight] : overlay.weights) out << "  - {id: " << id << ", weight: " << Number(weight) << "}\n";
  out << "categories:" << (overlay.thresholds.empty() ? " {}\n" : "\n");
  for (const auto& [c, t] : overlay.thresholds) out << "  " << c << ": {threshold: " << Number(t) << "}\n";
  if (fitted != nullptr) out << FittedYaml(*fitted, Number(fitted->logo));
  return out.str();
}

std::string FittedYaml(const FittedLayer& fitted, const std::string& logo) {
  std::string out = "fitted:\n  groups: [";
  for (size_t i = 0; i < fitted.groups.size(); ++i) out += (i ? ", " : "") + YamlQuoted(fitted.groups[i]);
  out += "]\n  logo: " + logo + "\n";
  for (const auto& [key, value] : {std::pair<const char*, const std::string&>{"data", fitted.data_digest},
                                   {"rules", fitted.rules_digest},
                                   {"ghsift", fitted.ghsift}}) {
    if (!value.empty()) out += std::string("  ") + key + ": " + YamlQuoted(value) + "\n";
  }
  return out;
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
