#include "commands/common_options.hpp"

#include <filesystem>

namespace ghsift::cli {

Result<std::shared_ptr<const RuleDatabase>> LoadRules(const std::string& path, RuleDatabase::Mode mode) {
  auto rules = LoadRuleSet(path.empty() ? DefaultRulesPath() : path);
  if (!rules.ok()) return rules.status();
  return RuleDatabase::Compile(*rules, mode);
}

Result<RepoFilter> LoadRepoFilter(bool all, const std::string& path) {
  if (all) return RepoFilter::All();
  std::string file = path;
  if (file.empty()) file = (std::filesystem::path(DefaultRulesPath()) / "repos.txt").string();
  return RepoFilter::FromFile(file);
}

}  // namespace ghsift::cli
