#include "rules/rule_set.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace ghsift {
namespace {

bool ValidId(const std::string& id) {
  if (id.empty()) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
  });
}

bool ValidTagPart(const std::string& s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '/';
  });
}

Status ParseRule(const YAML::Node& node, const std::string& source, size_t index, Rule& rule) {
  const std::string where = source + ": rule #" + std::to_string(index + 1);
  if (!node.IsMap()) return Status::InvalidArgument(where + ": a rule must be a mapping");
  static const std::set<std::string> kKnownKeys = {"id", "tag", "pattern", "fields", "flags", "weight", "description"};
  for (const auto& entry : node) {
    const std::string key = entry.first.as<std::string>();
    if (!kKnownKeys.count(key)) return Status::InvalidArgument(where + ": unknown key '" + key + "'");
  }
  if (!node["id"] || !node["id"].IsScalar()) return Status::InvalidArgument(where + ": missing 'id'");
  rule.id = node["id"].as<std::string>();
  const std::string named = source + ": rule '" + rule.id + "'";
  if (!ValidId(rule.id)) return Status::InvalidArgument(named + ": id must match [a-z0-9._-]+");
  if (!node["tag"] || !node["tag"].IsScalar()) return Status::InvalidArgument(named + ": missing 'tag'");
  rule.tag = node["tag"].as<std::string>();
  if (!ValidTagPart(rule.tag) || rule.tag.front() == '/') {
    return Status::InvalidArgument(named + ": tag must be category[/subcategory] in [a-z0-9_-]");
  }
  rule.category = rule.tag.substr(0, rule.tag.find('/'));
  if (!node["pattern"] || !node["pattern"].IsScalar()) return Status::InvalidArgument(named + ": missing 'pattern'");
  rule.pattern = node["pattern"].as<std::string>();
  if (rule.pattern.empty()) return Status::InvalidArgument(named + ": empty pattern");
  if (node["fields"]) {
    if (!node["fields"].IsSequence() || node["fields"].size() == 0) {
      return Status::InvalidArgument(named + ": 'fields' must be a non-empty list");
    }
    rule.fields = 0;
    for (const auto& f : node["fields"]) {
      const auto field = FieldFromName(f.as<std::string>());
      if (!field) {
        return Status::InvalidArgument(named + ": unknown field '" + f.as<std::string>() +
                                       "' (title, body, code, comment, label)");
      }
      rule.fields |= MaskOf(*field);
    }
  }
  if (node["flags"]) {
    if (!node["flags"].IsSequence()) return Status::InvalidArgument(named + ": 'flags' must be a list");
    static const std::set<std::string> kFlags = {"caseless", "dotall", "multiline", "ucp"};
    for (const auto& f : node["flags"]) {
      const std::string flag = f.as<std::string>();
      if (!kFlags.count(flag)) {
        return Status::InvalidArgument(named + ": unknown flag '" + flag + "' (caseless, dotall, multiline, ucp)");
      }
      rule.flags.push_back(flag);
    }
  }
  if (node["weight"]) {
    try {
      rule.weight = node["weight"].as<double>();
    } catch (const YAML::Exception&) {
      return Status::InvalidArgument(named + ": weight must be a number");
    }
  }
  rule.source = source;
  return Status::Ok();
}

}  // namespace

double RuleSet::ThresholdOf(const std::string& category) const {
  auto it = thresholds.find(category);
  return it == thresholds.end() ? kDefaultThreshold : it->second;
}

std::vector<std::string> RuleSet::Categories() const {
  std::set<std::string> names;
  for (const Rule& r : rules) names.insert(r.category);
  return {names.begin(), names.end()};
}

Status ParseRuleYaml(const std::string& text, const std::string& source, RuleSet& into) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return Status::InvalidArgument(source + ": invalid YAML: " + e.what());
  }
  if (root.IsNull()) return Status::Ok();
  if (!root.IsMap()) return Status::InvalidArgument(source + ": top level must be a mapping with 'rules'");
  try {
    for (const auto& entry : root) {
      const std::string key = entry.first.as<std::string>();
      if (key != "rules" && key != "categories") {
        return Status::InvalidArgument(source + ": unknown top-level key '" + key + "'");
      }
    }
    if (root["rules"]) {
      if (!root["rules"].IsSequence()) return Status::InvalidArgument(source + ": 'rules' must be a list");
      size_t index = 0;
      for (const auto& node : root["rules"]) {
        Rule rule;
        GHSIFT_TRY(ParseRule(node, source, index++, rule));
        for (const Rule& existing : into.rules) {
          if (existing.id == rule.id) {
            return Status::InvalidArgument(source + ": rule '" + rule.id + "': duplicate id (first defined in " +
                                           existing.source + ")");
          }
        }
        into.rules.push_back(std::move(rule));
      }
    }
    if (root["categories"]) {
      if (!root["categories"].IsMap()) return Status::InvalidArgument(source + ": 'categories' must be a mapping");
      for (const auto& entry : root["categories"]) {
        const std::string name = entry.first.as<std::string>();
        const YAML::Node threshold = entry.second["threshold"];
        if (!threshold) return Status::InvalidArgument(source + ": category '" + name + "': missing 'threshold'");
        if (into.thresholds.count(name)) {
          return Status::InvalidArgument(source + ": category '" + name + "': threshold defined twice");
        }
        into.thresholds[name] = threshold.as<double>();
        // A facet (stage, info, verdict) describes a report; only the other categories flag it.
        if (const YAML::Node facet = entry.second["facet"]; facet && facet.as<bool>()) into.facets.insert(name);
      }
    }
  } catch (const YAML::Exception& e) {
    return Status::InvalidArgument(source + ": " + e.what());
  }
  return Status::Ok();
}

Result<RuleSet> LoadRuleSet(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::string> files;
  if (fs::is_directory(path, ec)) {
    for (const auto& entry : fs::directory_iterator(path, ec)) {
      const std::string ext = entry.path().extension().string();
      if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml")) files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) return Status::InvalidArgument(path + ": no *.yaml rule files in directory");
  } else if (fs::is_regular_file(path, ec)) {
    files.push_back(path);
  } else {
    return Status::NotFound(path + ": no such rule file or directory");
  }
  RuleSet set;
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return Status::IoError(file + ": cannot read");
    std::stringstream text;
    text << in.rdbuf();
    GHSIFT_TRY(ParseRuleYaml(text.str(), file, set));
  }
  if (set.rules.empty()) return Status::InvalidArgument(path + ": the rule set has no rules");
  return set;
}

std::string DefaultRulesPath() {
  if (const char* env = std::getenv("GHSIFT_RULES")) return env;
  // An installed binary (PREFIX/bin/ghsift) finds the rules installed beside it, wherever the
  // prefix was moved; a binary in the build tree uses the source tree's rules.
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path installed = exe.parent_path().parent_path() / "share" / "ghsift" / "rules";
    if (std::filesystem::is_directory(installed, ec)) return installed.string();
  }
  return GHSIFT_DEFAULT_RULES_DIR;
}

}  // namespace ghsift
