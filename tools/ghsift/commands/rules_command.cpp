// ghsift rules check [--rules PATH]...  (and the rule-tuning subcommands)
#include <iostream>

#include "commands/commands.hpp"
#include "commands/common_options.hpp"
#include "output.hpp"

namespace ghsift::cli {
namespace {

struct RulesCheckArgs {
  std::vector<std::string> rules;  //!< layers, in order
};

int RunRulesCheck(const RulesCheckArgs& args) {
  auto db = LoadRules(args.rules, RuleDatabase::Mode::kFlag, RuleDatabase::Layout::kPerRule);
  if (!db.ok()) return Fail(db.status().message());
  const RuleSet& set = (*db)->rules();
  std::map<std::string, int> per_category;
  for (const Rule& r : set.rules) {
    for (const std::string& c : r.ScoredCategories()) ++per_category[c];
  }
  std::cout << "ok: " << Counted(set.rules.size(), "rule") << " compiled into " << HumanBytes(static_cast<double>((*db)->database_bytes()))
            << " of Hyperscan databases\n";
  for (const auto& [category, count] : per_category) {
    std::cout << "  " << category << ": " << Counted(count, "rule") << ", threshold " << set.ThresholdOf(category) << "\n";
  }
  return kExitOk;
}

}  // namespace

void AddRulesCommand(CLI::App& app, int& exit_code) {
  CLI::App* rules = app.add_subcommand("rules", "Check, evaluate, explain and benchmark rule sets");
  rules->require_subcommand(1);
  auto check = std::make_shared<RulesCheckArgs>();
  CLI::App* cmd = rules->add_subcommand("check", "Validate and compile a rule set");
  AddRulesOption(*cmd, check->rules);
  cmd->callback([check, &exit_code] { exit_code = RunRulesCheck(*check); });
  AddRulesEvalCommand(*rules, exit_code);
  AddRulesTuneCommand(*rules, exit_code);
  AddRulesExplainCommand(*rules, exit_code);
  AddRulesBenchCommand(*rules, exit_code);
  AddRulesSuggestCommand(*rules, exit_code);
}

}  // namespace ghsift::cli
