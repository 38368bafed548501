#pragma once
// `ghsift rules bench`: how fast a rule set scans report text, and what each rule costs, so
// that a slow pattern is seen before it ships. Verifies before it times: every report's matches
// from the whole database must equal the union of each rule scanned alone.
#include <string>
#include <vector>

#include "eval/labeled_report.hpp"
#include "rules/rule_set.hpp"

namespace ghsift {

//! Reports (title, body, comment, labels) of the issue and PR events of a dump file, at most
//! `limit` of them.
Result<std::vector<LabeledReport>> ReadReportsFromDump(const std::string& path, size_t limit);

struct RuleCost {
  std::string id;
  double alone_mb_per_s = 0;  //!< the rule alone in a database, over the same text
  double marginal = -1;       //!< share of the full scan time the rule adds (measured for the costliest)
};

struct RuleBenchResult {
  uint64_t reports = 0;
  uint64_t bytes = 0;          //!< text scanned per pass (all fields)
  double mb_per_s = 0;         //!< the whole rule set
  std::vector<RuleCost> rules; //!< costliest first (by their time alone)
};

//! `marginal_top`: for that many of the costliest rules, also compile the set without the rule
//! and time it (each such compile takes seconds).
Result<RuleBenchResult> BenchRules(const RuleSet& rules, const std::vector<LabeledReport>& reports,
                                   size_t marginal_top = 3, double min_seconds = 0.3);

}  // namespace ghsift
