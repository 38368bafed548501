#include "eval/evaluation.hpp"

#include <algorithm>

#include "rules/report_scan.hpp"

namespace ghsift {
namespace {

double Ratio(int64_t a, int64_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); }

double F1(int64_t tp, int64_t fp, int64_t fn) {
  const double p = Ratio(tp, tp + fp), r = Ratio(tp, tp + fn);
  return p + r == 0 ? 0.0 : 2 * p * r / (p + r);
}

}  // namespace

void Confusion::Add(bool predicted, bool actual) {
  if (predicted && actual) ++tp;
  else if (predicted) ++fp;
  else if (actual) ++fn;
  else ++tn;
}
double Confusion::precision() const { return Ratio(tp, tp + fp); }
double Confusion::recall() const { return Ratio(tp, tp + fn); }
double Confusion::f1() const { return F1(tp, fp, fn); }
double Confusion::negative_f1() const { return F1(tn, fn, fp); }

std::string Target::Name() const {
  std::string name;
  for (const std::string& c : categories) name += (name.empty() ? "" : ",") + c;
  return bug_only ? name + " & bug" : name;
}

bool Target::Predicted(const ReportVerdict& v) const {
  const bool topic = std::any_of(v.categories.begin(), v.categories.end(),
                                 [&](const std::string& c) { return categories.count(c) > 0; });
  return topic && (!bug_only || v.verdict == "bug");
}

std::vector<ReportVerdict> JudgeReports(std::shared_ptr<const RuleDatabase> database,
                                        const std::vector<LabeledReport>& reports) {
  const DecisionModel model = DecisionModel::FromRuleSet(database->rules());
  const auto& rules = database->rules().rules;
  Scanner scanner(database);
  ReportScan scan(scanner);
  MatchSet matches;
  std::vector<ReportVerdict> verdicts;
  verdicts.reserve(reports.size());
  for (const LabeledReport& r : reports) {
    matches.Clear();
    scan.Scan(ReportTextViews(r.text).view(), matches);
    ReportVerdict v;
    for (uint32_t id : matches.ids()) v.rules.push_back(rules[id].id);
    std::sort(v.rules.begin(), v.rules.end());
    for (const CategoryScore& s : model.Score(v.rules)) {
      v.scores[s.category] = s.score;
      if (s.flagged) v.categories.push_back(s.category);
    }
    v.verdict = model.Verdict(v.rules);
    verdicts.push_back(std::move(v));
  }
  return verdicts;
}

bool ActualPositive(const LabeledReport& report, const std::set<std::string>& positive, bool* known) {
  *known = true;
  if (report.binary) return *report.binary != 0;
  if (report.expected) {
    return std::any_of(report.expected->begin(), report.expected->end(),
                       [&](const std::string& c) { return positive.count(c) > 0; });
  }
  *known = false;
  return false;
}

Evaluation Evaluate(const std::vector<LabeledReport>& reports, const std::vector<ReportVerdict>& verdicts,
                    const Target& target) {
  const std::set<std::string>& positive = target.categories;
  Evaluation e;
  std::set<std::string> categories;
  for (const ReportVerdict& v : verdicts) {
    for (const auto& [category, score] : v.scores) categories.insert(category);
  }
  for (size_t i = 0; i < reports.size(); ++i) {
    const LabeledReport& r = reports[i];
    const ReportVerdict& v = verdicts[i];
    ++e.reports;
    bool known = false;
    const bool actual = ActualPositive(r, positive, &known);
    const bool predicted = target.Predicted(v);
    if (known) {
      e.overall.Add(predicted, actual);
      e.per_group[r.group.empty() ? "(all)" : r.group].Add(predicted, actual);
    }
    for (const std::string& c : categories) {
      const bool flagged = std::find(v.categories.begin(), v.categories.end(), c) != v.categories.end();
      if (flagged) ++e.flagged[c];
      if (r.expected) {
        e.per_category[c].Add(flagged, r.expected->count(c) > 0);
      } else if (known && positive.count(c) && (!r.exported_as || r.exported_as->count(c) > 0)) {
        // A row of a `sample` or `issues` export is labeled for what it was drawn as: it scores the
        // categories of its categories column only (a confirmed performance report is no false
        // negative of accuracy).
        e.per_category[c].Add(flagged, actual);
      }
    }
    for (const std::string& rule : v.rules) {
      RuleHits& h = e.per_rule[rule];
      ++h.hits;
      if (known && actual) ++h.positive_hits;
    }
  }
  return e;
}

}  // namespace ghsift
