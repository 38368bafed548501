#pragma once
// `ghsift rules bench`: how fast a rule set scans report text, and what each rule costs, so
// that a slow pattern is seen before it ships. Verifies before it times: every report's matches
// from the whole database must equal the union of each rule scanned alone.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "eval/labeled_report.hpp"
#include "rules/rule_database.hpp"
#include "rules/rule_set.hpp"

namespace ghsift {

//! Reports (title, body, comment, labels) of the issue and PR events of a dump file, at most
//! `limit` of them.
Result<std::vector<LabeledReport>> ReadReportsFromDump(const std::string& path, size_t limit);

//! Two rule databases timed alternately over the same text (seconds per pass, several timings
//! each), so that a change in the machine's load falls on both series alike.
struct TimedPair {
  double median_a = 0, median_b = 0;
  //! (median a - median b) / median a: the share of a's time that b saves; negative when b is
  //! slower. Told apart from the machine's noise by `within_noise`, whatever its sign: a set
  //! compiled with one rule less is not slower by design, but one that timed slower beyond the
  //! spread of its timings is said so rather than shown as a share of 0.
  double difference = 0;
  //! How far timings of one database spread: the larger (max - min) / median of the two series.
  //! A difference within it cannot be told from noise.
  double noise = 0;
  bool within_noise = true;  //!< |difference| <= noise
};
//! From `a` and `b` (seconds per pass, each timed several times; neither empty).
TimedPair CompareTimings(std::vector<double> a, std::vector<double> b);
//! A rule's share of the full scan from CompareTimings(full set, set without it): "12.3% +-1.5%",
//! "-40.0% +-2.0% (slower without it)", or "<=1.5% (noise)" when the difference is within the noise.
std::string FormatMarginalShare(const TimedPair& full_then_without);

//! How `b` scanned against `a` (CompareTimings(a's seconds, b's)), for a line that names a:
//! "at 0.93 times its speed, slower (timings of one set spread +-4.0%; 5 alternating timings each,
//! medians)"; the word is "faster", "slower" or "not told apart from the noise".
std::string DescribeSpeedAgainst(const TimedPair& a_then_b);

//! The scan speed of `b` against `a` over every field of `reports` (as ingest scans them): each
//! timed kMarginalRepeats times for at least `min_seconds`, alternately.
TimedPair CompareScanSpeed(const std::shared_ptr<const RuleDatabase>& a, const std::shared_ptr<const RuleDatabase>& b,
                           const std::vector<LabeledReport>& reports, double min_seconds);

struct RuleCost {
  std::string id;
  double alone_mb_per_s = 0;  //!< the rule alone in a database, over the same text
  //! The full set against the set without the rule (measured for the costliest only).
  std::optional<TimedPair> marginal;
};

inline constexpr int kMarginalRepeats = 5;

struct RuleBenchResult {
  uint64_t reports = 0;
  uint64_t bytes = 0;          //!< text scanned per pass (all fields)
  double mb_per_s = 0;         //!< the whole rule set
  std::vector<RuleCost> rules; //!< costliest first (by their time alone)
  //! With a baseline set: its speed over the same text, and the two sets timed alternately
  //! (a = the baseline, b = this set: a positive difference is time this set saves).
  std::optional<double> baseline_mb_per_s;
  std::optional<TimedPair> against_baseline;
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

struct RuleBenchOptions {
  //! For that many of the costliest rules, also compile the set without the rule and time it
  //! against the whole set, kMarginalRepeats times each, alternating (each compile takes seconds).
  size_t marginal_top = 3;
  double min_seconds = 0.3;  //!< least time of one timing
  //! The rules before a change, compiled (by the caller, whose messages name where they came
  //! from): timed against the set, kMarginalRepeats times each, alternating.
  std::shared_ptr<const RuleDatabase> baseline;
  BenchProgressFn progress;
};

Result<RuleBenchResult> BenchRules(const RuleSet& rules, const std::vector<LabeledReport>& reports,
                                   const RuleBenchOptions& options = {});

}  // namespace ghsift
