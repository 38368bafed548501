#include "commands/common_options.hpp"

#include <charconv>
#include <filesystem>

namespace ghsift::cli {

CLI::Option* AddRulesOption(CLI::App& cmd, std::vector<std::string>& layers) {
  // One path per --rules, so that a command's positional arguments are never taken as layers.
  return cmd
      .add_option("--rules", layers,
                  "Rule file or directory (default: the bundled rules/); repeat to layer rule sets: a later "
                  "one adds rules and overrides rules, weights and thresholds by id")
      ->expected(1)
      ->allow_extra_args(false)
      ->take_all();
}

Result<RuleSet> LoadRuleLayersOrDefault(const std::vector<std::string>& layers) {
  if (layers.empty()) return LoadRuleSet(DefaultRulesPath());
  return LoadRuleLayers(layers);
}

Result<std::shared_ptr<const RuleDatabase>> LoadRules(const std::vector<std::string>& layers, RuleDatabase::Mode mode,
                                                      RuleDatabase::Layout layout) {
  auto rules = LoadRuleLayersOrDefault(layers);
  if (!rules.ok()) return rules.status();
  return RuleDatabase::Compile(*rules, mode, layout);
}

Result<std::shared_ptr<const RuleDatabase>> LoadRules(const std::string& path, RuleDatabase::Mode mode) {
  return LoadRules(path.empty() ? std::vector<std::string>{} : std::vector<std::string>{path}, mode);
}

Result<RepoFilter> LoadRepoFilter(bool all, const std::string& path) {
  if (all) return RepoFilter::All();
  std::string file = path;
  if (file.empty()) file = (std::filesystem::path(DefaultRulesPath()) / "repos.txt").string();
  return RepoFilter::FromFile(file);
}

namespace {

CLI::Validator CountAtLeast(unsigned long long least) {
  return CLI::Validator(
      [least](std::string& text) -> std::string {
        unsigned long long value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size() || value < least) {
          return "must be a whole number of " + std::to_string(least) + " or more, not '" + text + "'";
        }
        return "";
      },
      least == 0 ? "N >= 0" : "N >= 1");
}

}  // namespace

CLI::Validator CountCheck() { return CountAtLeast(0); }
CLI::Validator PositiveCountCheck() { return CountAtLeast(1); }

}  // namespace ghsift::cli
