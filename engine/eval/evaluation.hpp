#pragma once
// Measures a rule set against labeled reports: confusion counts, precision, recall, F1 and
// macro-F1 (the mean F1 of the positive and the negative class, as classifier papers report it),
// per category, per group (framework) and per rule.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "eval/labeled_report.hpp"
#include "rules/decision.hpp"
#include "rules/rule_database.hpp"

namespace ghsift {

struct Confusion {
  int64_t tp = 0, fp = 0, fn = 0, tn = 0;
  void Add(bool predicted, bool actual);
  //! Pools another set's counts into this one.
  Confusion& operator+=(const Confusion& other) {
    tp += other.tp, fp += other.fp, fn += other.fn, tn += other.tn;
    return *this;
  }
  double precision() const;
  double recall() const;
  double f1() const;
  //! F1 of the negative class.
  double negative_f1() const;
  double macro_f1() const { return (f1() + negative_f1()) / 2; }
};

struct ReportVerdict {
  std::vector<std::string> categories;  //!< flagged, sorted
  std::vector<std::string> rules;       //!< matched rule ids, sorted
  std::map<std::string, double> scores; //!< per category
  std::string verdict;                  //!< "bug" or the not-a-bug kind (DecisionModel::Verdict)
};

//! What a labeled set's label means: the report speaks of one of `categories` (the topic), and
//! with `bug_only` also that it is a bug (`--verdict bug`: a question about speed is no
//! performance bug, yet it speaks of performance).
struct Target {
  std::set<std::string> categories;
  bool bug_only = false;
  //! "accuracy,performance", or "accuracy,performance & bug".
  std::string Name() const;
  //! Flagged with one of the categories (and, with bug_only, judged a bug).
  bool Predicted(const ReportVerdict& verdict) const;
  bool operator==(const Target&) const = default;
};

//! Scans and decides every report.
std::vector<ReportVerdict> JudgeReports(std::shared_ptr<const RuleDatabase> database,
                                        const std::vector<LabeledReport>& reports);

struct RuleHits {
  int64_t hits = 0;           //!< reports the rule matched
  int64_t positive_hits = 0;  //!< of which labeled positive
};

struct Evaluation {
  Confusion overall;                           //!< binary: any of the positive categories
  std::map<std::string, Confusion> per_category;
  std::map<std::string, int64_t> flagged;      //!< reports flagged per category
  std::map<std::string, Confusion> per_group;  //!< binary, per framework
  std::map<std::string, RuleHits> per_rule;
  int64_t reports = 0;
};

//! `target`: the categories whose union is the predicted positive for the binary label (and
//! whether it must be a bug). Reports with an `expected` set are scored per category against it;
//! the binary label (falling back to "expected intersects the categories") drives `overall`.
Evaluation Evaluate(const std::vector<LabeledReport>& reports, const std::vector<ReportVerdict>& verdicts,
                    const Target& target);

//! True when the report's binary truth is known (binary label or expected set).
bool ActualPositive(const LabeledReport& report, const std::set<std::string>& positive, bool* known);

}  // namespace ghsift
