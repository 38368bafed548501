// ParseRuleYaml then RuleDatabase::Compile on small inputs: any YAML and any pattern must be
// accepted or refused with a message, never crash. The compile cache is off so nothing is
// written outside the run.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "rules/rule_database.hpp"
#include "rules/rule_set.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ::setenv("GHSIFT_NO_RULE_CACHE", "1", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return -1;  // Hyperscan compile time grows fast with pattern size
  const std::string text(reinterpret_cast<const char*>(data), size);
  ghsift::RuleSet rules;
  const ghsift::Status parsed = ghsift::ParseRuleYaml(text, "fuzz.yaml", rules);
  if (!parsed.ok()) {
    if (parsed.message().empty()) __builtin_trap();  // a refusal says why
    return 0;
  }
  if (rules.rules.empty() || rules.rules.size() > 16) return 0;
  for (auto mode : {ghsift::RuleDatabase::Mode::kFlag, ghsift::RuleDatabase::Mode::kExplain}) {
    auto db = ghsift::RuleDatabase::Compile(rules, mode);
    if (!db.ok() && db.status().message().empty()) __builtin_trap();
  }
  return 0;
}
