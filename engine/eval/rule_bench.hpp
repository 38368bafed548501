#pragma once
// `ghsift rules bench`: how fast a rule set scans report text, and what each rule costs, so
// that a slow pattern is seen before it ships. Verifies before it times: every report's matches
// from the whole database must equal the union of each rule scanned alone.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "eval/labeled_report.hpp"
#include "rules/rule_set.hpp"

namespace ghsift {

//! Reports (title, body, comment, labels) of the issue and PR events of a dump file, at most
//! `limit` of them.
Result<std::vector<LabeledReport>> ReadReportsFromDump(const std::string& path, size_t limit);

//! The share of the full scan's time one rule adds, from repeated timings of the whole set and
//! of the set without the rule. A difference of two noisy timings can come out negative (the
//! machine was busier during one of them); the share is clamped at 0 and given with the noise.
struct MarginalShare {
  double share = 0;  //!< (median full - median without) / median full, never below 0
  //! How far timings of the same database spread: the larger (max - min) / median full of the
  //! two series. A difference within it cannot be told from noise.
  double noise = 0;
  bool within_noise = true;  //!< the measured difference is at most `noise`
};
//! From `full` and `without` (seconds per pass, each timed several times; neither empty).
MarginalShare EstimateMarginalShare(std::vector<double> full, std::vector<double> without);
//! "12.3% +-1.5%", or "<=1.5% (noise)" when the difference is within the noise.
std::string FormatMarginalShare(const MarginalShare& share);

struct RuleCost {
  std::string id;
  double alone_mb_per_s = 0;  //!< the rule alone in a database, over the same text
  //! Share of the full scan time the rule adds (measured for the costliest only).
  std::optional<MarginalShare> marginal;
};

inline constexpr int kMarginalRepeats = 5;

struct RuleBenchResult {
  uint64_t reports = 0;
  uint64_t bytes = 0;          //!< text scanned per pass (all fields)
  double mb_per_s = 0;         //!< the whole rule set
  std::vector<RuleCost> rules; //!< costliest first (by their time alone)
};

//! Where a bench is, for a progress line: its step, how many of the step's items are done, and
//! an estimate of the seconds left (from the time the items done so far took, and the least
//! time each later measurement takes).
struct BenchProgress {
  enum class Step {
    kVerify,    //!< each rule compiled and scanned alone, the matches compared
    kTime,      //!< the whole set, then each rule alone, timed
    kMarginal,  //!< the costliest rules: the set without each, timed against the whole
  };
  Step step = Step::kVerify;
  size_t done = 0, total = 0;
  double seconds_left = 0;
};
using BenchProgressFn = std::function<void(const BenchProgress&)>;

//! `marginal_top`: for that many of the costliest rules, also compile the set without the rule
//! and time it against the whole set, kMarginalRepeats times each, alternating (each such
//! compile takes seconds).
Result<RuleBenchResult> BenchRules(const RuleSet& rules, const std::vector<LabeledReport>& reports,
                                   size_t marginal_top = 3, double min_seconds = 0.3,
                                   const BenchProgressFn& progress = nullptr);

}  // namespace ghsift
