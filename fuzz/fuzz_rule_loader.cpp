// ParseRuleYaml then RuleDatabase::Compile on small inputs: any YAML and any pattern must be
// accepted or refused with a message, never crash. The compile cache is off so nothing is
// written outside the run.
//
// Only small rule sets are compiled. Hyperscan's compile time grows with the pattern's size and
// its bounded repeats, most of all with start offsets (explain mode): one default rule with two
// gaps of 40-50 characters compiles for 5 s in a Release build and 90 s under this target's
// AddressSanitizer, past libFuzzer's timeout. What this target looks for is in ghsift's own
// handling (flags, the retry without start offsets, refusal messages), which short patterns
// reach as well; Hyperscan's compile time is not a ghsift bug.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "rules/rule_database.hpp"
#include "rules/rule_set.hpp"

namespace {

constexpr size_t kMaxRules = 4;
constexpr size_t kMaxPatternBytes = 256;  // all patterns together
constexpr unsigned long kMaxRepeat = 32;  // the largest number inside a {m,n} repeat

//! The largest number written in a pattern (a repeat bound, or digits elsewhere: erring on the
//! side of skipping is fine here).
unsigned long LargestNumber(const std::string& pattern) {
  unsigned long largest = 0;
  for (size_t i = 0; i < pattern.size();) {
    if (!std::isdigit(static_cast<unsigned char>(pattern[i]))) {
      ++i;
      continue;
    }
    unsigned long value = 0;
    for (; i < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[i])); ++i) {
      value = std::min(value * 10 + static_cast<unsigned long>(pattern[i] - '0'), 1000000UL);
    }
    largest = std::max(largest, value);
  }
  return largest;
}

bool CheapToCompile(const ghsift::RuleSet& rules) {
  if (rules.rules.empty() || rules.rules.size() > kMaxRules) return false;
  size_t bytes = 0;
  for (const ghsift::Rule& rule : rules.rules) {
    bytes += rule.pattern.size();
    if (LargestNumber(rule.pattern) > kMaxRepeat) return false;
  }
  return bytes <= kMaxPatternBytes;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ::setenv("GHSIFT_NO_RULE_CACHE", "1", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return -1;
  const std::string text(reinterpret_cast<const char*>(data), size);
  ghsift::RuleSet rules;
  const ghsift::Status parsed = ghsift::ParseRuleYaml(text, "fuzz.yaml", rules);
  if (!parsed.ok()) {
    if (parsed.message().empty()) __builtin_trap();  // a refusal says why
    return 0;
  }
  if (!CheapToCompile(rules)) return 0;
  for (auto mode : {ghsift::RuleDatabase::Mode::kFlag, ghsift::RuleDatabase::Mode::kExplain}) {
    auto db = ghsift::RuleDatabase::Compile(rules, mode);
    if (!db.ok() && db.status().message().empty()) __builtin_trap();
  }
  return 0;
}
