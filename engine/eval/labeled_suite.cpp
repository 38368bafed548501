#include "eval/labeled_suite.hpp"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <set>

namespace ghsift {
namespace {

std::string Resolve(const std::string& data_dir, const std::string& path) {
  if (path.empty() || std::filesystem::path(path).is_absolute()) return path;
  return (std::filesystem::path(data_dir) / path).string();
}

std::vector<std::string> StringList(const YAML::Node& node) {
  std::vector<std::string> out;
  if (!node) return out;
  if (node.IsScalar()) return {node.as<std::string>()};
  for (const auto& item : node) out.push_back(item.as<std::string>());
  return out;
}

}  // namespace

std::string GroupNameOfFile(const std::string& path) {
  const std::filesystem::path p(path);
  const std::string stem = p.stem().string();
  static const std::set<std::string> kGeneric = {"titles", "data", "labels", "issues", "reports", "labeled"};
  const bool generic = kGeneric.count(stem) > 0 || stem.rfind("dataset", 0) == 0;
  const std::string parent = p.parent_path().filename().string();
  return generic && !parent.empty() && parent != "." ? parent : stem;
}

Result<LabeledSuite> LoadLabeledSuite(const std::string& suite_path, const std::string& data_dir) {
  LabeledSuite suite;
  YAML::Node root;
  try {
    root = YAML::LoadFile(suite_path);
  } catch (const YAML::BadFile&) {
    return Status::IoError(suite_path + ": cannot read");
  } catch (const YAML::Exception& e) {
    return Status::InvalidArgument(suite_path + ": invalid YAML: " + e.what());
  }
  try {
    if (root["control_max_rate"]) suite.control_max_rate = root["control_max_rate"].as<double>();
    if (!root["sets"] || !root["sets"].IsSequence()) return Status::InvalidArgument(suite_path + ": no 'sets' list");
    if (const YAML::Node lists = root["reference_words"]) {
      if (!lists.IsMap()) {
        return Status::InvalidArgument(suite_path + ": 'reference_words' must map a category to a word list file");
      }
      const std::string folder = std::filesystem::path(suite_path).parent_path().string();
      for (const auto& entry : lists) {
        suite.reference_words.push_back(
            {entry.first.as<std::string>(),
             std::filesystem::path(Resolve(folder, entry.second.as<std::string>())).lexically_normal().string()});
      }
    }
    static const std::set<std::string> kKeys = {"path",      "group",     "positive", "label_key", "issue_dir",
                                                "objective", "controls",  "verdict",  "group_by"};
    size_t index = 0;
    for (const auto& node : root["sets"]) {
      const std::string where = suite_path + ": set #" + std::to_string(++index);
      if (!node.IsMap()) return Status::InvalidArgument(where + ": must be a mapping");
      for (const auto& entry : node) {
        const std::string key = entry.first.as<std::string>();
        if (!kKeys.count(key)) return Status::InvalidArgument(where + ": unknown key '" + key + "'");
      }
      LabeledSet set;
      if (!node["path"]) return Status::InvalidArgument(where + ": missing 'path'");
      set.path = Resolve(data_dir, node["path"].as<std::string>());
      set.group = node["group"] ? node["group"].as<std::string>() : GroupNameOfFile(set.path);
      set.positive = StringList(node["positive"]);
      if (set.positive.empty()) return Status::InvalidArgument(where + ": missing 'positive'");
      if (node["label_key"]) set.label_key = node["label_key"].as<std::string>();
      if (node["issue_dir"]) set.issue_dir = Resolve(data_dir, node["issue_dir"].as<std::string>());
      const std::string objective = node["objective"] ? node["objective"].as<std::string>() : "macro-f1";
      if (objective != "macro-f1" && objective != "f1") {
        return Status::InvalidArgument(where + ": objective must be macro-f1 or f1");
      }
      set.objective_f1 = objective == "f1";
      set.controls = StringList(node["controls"]);
      if (node["verdict"]) {
        const std::string verdict = node["verdict"].as<std::string>();
        if (verdict != "bug" && verdict != "any") {
          return Status::InvalidArgument(where + ": verdict must be bug (the label means a bug) or any, not '" +
                                         verdict + "'");
        }
        set.bug_only = verdict == "bug";
      }
      if (node["group_by"]) {
        const std::string by = node["group_by"].as<std::string>();
        if (by != "file" && by != "repo") {
          return Status::InvalidArgument(where + ": group_by must be file or repo, not '" + by + "'");
        }
        set.group_by_repo = by == "repo";
        // With a group per repository, `group` prefixes their names: the same file scored for
        // another label (dlfixes: silent, then perf) makes groups of other names.
        set.group_prefix = node["group"] ? node["group"].as<std::string>() + ":" : "";
      }
      suite.sets.push_back(std::move(set));
    }
  } catch (const YAML::Exception& e) {
    return Status::InvalidArgument(suite_path + ": " + e.what());
  }
  return suite;
}

}  // namespace ghsift
