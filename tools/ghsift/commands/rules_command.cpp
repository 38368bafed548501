// ghsift rules check [--rules PATH]...
#include <cstdio>
#include <iostream>
#include <map>

#include "commands/commands.hpp"
#include "commands/common_options.hpp"
#include "common/closest_name.hpp"
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
  std::map<std::string, std::vector<const Rule*>> per_category;
  for (const Rule& r : set.rules) {
    for (const std::string& c : r.ScoredCategories()) per_category[c].push_back(&r);
  }
  std::cout << "ok: " << Counted(set.rules.size(), "rule") << ", each compiled on its own ("
            << HumanBytes(static_cast<double>((*db)->database_bytes()))
            << " of Hyperscan databases; ingest compiles them into one)\n";
  std::vector<std::string> names;
  for (const auto& [category, rules] : per_category) names.push_back(category);
  for (const auto& [category, rules] : per_category) {
    std::cout << "  " << category << ": " << Counted(rules.size(), "rule") << ", threshold "
              << set.ThresholdOf(category)
              << (set.verdict == category ? " (verdict: a report reaching it is not a bug, of the kind with the most "
                                            "weight)"
                  : set.facets.count(category) ? " (facet: describes, never flags)"
                                               : "")
              << "\n";
  }
  // A misspelt tag (acuracy/low-accuracy) makes a category of its own that ingest would flag
  // apart: a category of one or two rules, with no threshold of its own, named like another.
  for (const auto& [category, rules] : per_category) {
    if (rules.size() > 2 || set.thresholds.count(category)) continue;
    std::vector<std::string> others;
    for (const std::string& name : names) {
      if (name != category && EditDistance(name, category) <= 2) others.push_back(name);
    }
    if (others.empty()) continue;
    const Rule& first = *rules.front();
    std::fprintf(stderr, "ghsift: warning: category '%s' (%s, first %s in %s line %d) is named like '%s': a misspelt "
                 "tag makes a category of its own\n",
                 category.c_str(), Counted(rules.size(), "rule").c_str(), first.id.c_str(), first.source.c_str(),
                 first.line, others.front().c_str());
  }
  return kExitOk;
}

}  // namespace

void AddRulesCheckCommand(CLI::App& command, int& exit_code) {
  auto check = std::make_shared<RulesCheckArgs>();
  AddRulesOption(command, check->rules);
  command.callback([check, &exit_code] { exit_code = RunRulesCheck(*check); });
}

}  // namespace ghsift::cli
