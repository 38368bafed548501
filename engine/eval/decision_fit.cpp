#include "eval/decision_fit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "rules/decision.hpp"

namespace ghsift {
namespace {

constexpr double kControlExcessCost = 10.0;

// The state of one fit: every training report's per-category sums and each training group's
// confusion, kept up to date so that a candidate value costs a pass over the reports it touches.
class Fitter {
 public:
  Fitter(const MatchTable& t, const DecisionParams& written, const std::vector<char>& train, const FitOptions& o)
      : t_(t), written_(written), train_(train), o_(o), p_(written), k_(t.categories.size()) {
    cares_.assign(k_, 0);
    for (size_t g = 0; g < t.groups.size(); ++g) {
      if (!train[g]) continue;
      for (int c : t.groups[g].positive) cares_[static_cast<size_t>(c)] = 1;
      if (t.groups[g].bug_only && t.verdict >= 0) cares_[static_cast<size_t>(t.verdict)] = 1;
      for (int c : t.groups[g].controls) cares_[static_cast<size_t>(c)] = 1;
    }
    sums_.assign(t.matched.size() * k_, 0);
    any_.assign(t.matched.size() * k_, 0);
    rule_reports_.resize(t.rule_ids.size());
    category_reports_.resize(k_);
    conf_.resize(t.groups.size());
    ctrl_.resize(t.groups.size());
    for (size_t g = 0; g < t.groups.size(); ++g) {
      ctrl_[g].assign(t.groups[g].controls.size(), 0);
      if (!train[g]) continue;
      for (uint32_t i : t.groups[g].reports) {
        for (uint32_t r : t.matched[i]) {
          for (const int c : t.rule_categories[r]) {
            sums_[i * k_ + static_cast<size_t>(c)] += p_.weight[r];
            if (!any_[i * k_ + static_cast<size_t>(c)]) category_reports_[static_cast<size_t>(c)].push_back(i);
            any_[i * k_ + static_cast<size_t>(c)] = 1;
          }
          rule_reports_[r].push_back(i);
        }
        if (t.label[i] >= 0) conf_[g].Add(Predicted(i, -1, 0, 0), t.label[i] == 1);
        for (size_t k = 0; k < t.groups[g].controls.size(); ++k) {
          ctrl_[g][k] += ControlFlag(i, t.groups[g], k, -1, 0, 0);
        }
      }
    }
  }

  DecisionParams Run() {
    for (int sweep = 0; sweep < o_.max_sweeps; ++sweep) {
      bool changed = false;
      for (size_t c = 0; c < k_; ++c) {
        if (cares_[c]) changed |= ImproveThreshold(static_cast<int>(c));
      }
      if (o_.weights) {
        for (size_t r = 0; r < t_.rule_ids.size(); ++r) {
          // A rule counting toward several categories (a negative rule) keeps its written weight:
          // one weight moves several sums, which the per-category search below does not follow.
          if (t_.rule_categories[r].size() != 1) continue;
          const int c = t_.rule_categories[r].front();
          if (cares_[static_cast<size_t>(c)] && !rule_reports_[r].empty()) changed |= ImproveWeight(r);
        }
      }
      if (!changed) break;
    }
    return p_;
  }

 private:
  // Whether report i is flagged with c, with category `oc` (when c == oc) at sum+delta against `othr`.
  bool Flag(uint32_t i, int c, int oc, int64_t delta, int64_t othr) const {
    const size_t at = i * k_ + static_cast<size_t>(c);
    if (!any_[at]) return false;
    return c == oc ? sums_[at] + delta >= othr : sums_[at] >= p_.threshold[static_cast<size_t>(c)];
  }
  bool Predicted(uint32_t i, int oc, int64_t delta, int64_t othr) const {
    const auto& group = t_.groups[static_cast<size_t>(t_.group[i])];
    const auto& pos = group.positive;
    const bool topic = std::any_of(pos.begin(), pos.end(), [&](int c) { return Flag(i, c, oc, delta, othr); });
    return topic && (!group.bug_only || t_.verdict < 0 || !Flag(i, t_.verdict, oc, delta, othr));
  }
  //! Whether report i counts against the group's k-th control: flagged with it (and, in a group
  //! whose label asks for bugs, judged a bug: the control is then "a silent bug", as the label).
  bool ControlFlag(uint32_t i, const MatchTable::Group& group, size_t k, int oc, int64_t delta, int64_t othr) const {
    if (!Flag(i, group.controls[k], oc, delta, othr)) return false;
    return !group.bug_only || t_.verdict < 0 || !Flag(i, t_.verdict, oc, delta, othr);
  }
  //! Whether moving category c can change the group's prediction: c is a positive category, or
  //! the verdict of a group that asks for bugs.
  bool Decides(const MatchTable::Group& group, int c) const {
    return std::count(group.positive.begin(), group.positive.end(), c) > 0 || (group.bug_only && c == t_.verdict);
  }

  double Objective(const std::vector<Confusion>& conf, const std::vector<std::vector<int64_t>>& ctrl) const {
    double total = 0;
    int n = 0;
    for (size_t g = 0; g < t_.groups.size(); ++g) {
      if (!train_[g]) continue;
      const auto& group = t_.groups[g];
      if (ObjectiveDefined(group, conf[g])) {
        total += group.objective_f1 ? conf[g].f1() : conf[g].macro_f1();
        ++n;
      }
      for (size_t k = 0; k < ctrl[g].size(); ++k) {
        const double rate = static_cast<double>(ctrl[g][k]) / static_cast<double>(group.reports.size());
        if (rate > o_.control_max_rate) total -= kControlExcessCost * (rate - o_.control_max_rate);
      }
    }
    return n ? total / n : total;
  }

  double Cost(int64_t value, int64_t written) const { return o_.l1 * std::abs(value - written) / 1e6; }

  // The objective if category c's reports in `reports` had their sum moved by delta and c's
  // threshold were `thr`; with `commit`, makes it so.
  double Try(int c, const std::vector<uint32_t>& reports, int64_t delta, int64_t thr, bool commit) {
    auto conf = conf_;
    auto ctrl = ctrl_;
    for (uint32_t i : reports) {
      const auto g = static_cast<size_t>(t_.group[i]);
      const auto& group = t_.groups[g];
      if (t_.label[i] >= 0 && Decides(group, c)) {
        const bool before = Predicted(i, -1, 0, 0), after = Predicted(i, c, delta, thr);
        if (before != after) {
          Confusion& cf = conf[g];
          const bool actual = t_.label[i] == 1;
          (before ? (actual ? cf.tp : cf.fp) : (actual ? cf.fn : cf.tn)) -= 1;
          cf.Add(after, actual);
        }
      }
      for (size_t k = 0; k < group.controls.size(); ++k) {
        if (group.controls[k] == c || (group.bug_only && c == t_.verdict)) {
          ctrl[g][k] += ControlFlag(i, group, k, c, delta, thr) - ControlFlag(i, group, k, -1, 0, 0);
        }
      }
    }
    const double score = Objective(conf, ctrl);
    if (commit) {
      for (uint32_t i : reports) sums_[i * k_ + static_cast<size_t>(c)] += delta;
      p_.threshold[static_cast<size_t>(c)] = thr;
      conf_ = std::move(conf);
      ctrl_ = std::move(ctrl);
    }
    return score;
  }

  std::vector<int64_t> Grid(double low, double high, int64_t written) const {
    std::vector<int64_t> values;
    const auto first = static_cast<int64_t>(std::ceil(low / o_.step - 1e-9));
    const auto last = static_cast<int64_t>(std::floor(high / o_.step + 1e-9));
    for (int64_t k = first; k <= last; ++k) values.push_back(ToMicro(static_cast<double>(k) * o_.step));
    if (std::find(values.begin(), values.end(), written) == values.end()) values.push_back(written);
    return values;
  }

  bool ImproveThreshold(int c) {
    const auto ci = static_cast<size_t>(c);
    const int64_t current = p_.threshold[ci];
    const auto& reports = category_reports_[ci];
    double best = Try(c, reports, 0, current, false) - Cost(current, written_.threshold[ci]);
    int64_t best_value = current;
    for (int64_t v : Grid(o_.step, o_.max_threshold, written_.threshold[ci])) {
      const double score = Try(c, reports, 0, v, false) - Cost(v, written_.threshold[ci]);
      if (score > best + 1e-12) best = score, best_value = v;
    }
    if (best_value == current) return false;
    Try(c, reports, 0, best_value, true);
    return true;
  }

  bool ImproveWeight(size_t r) {
    const int c = t_.rule_category[r];
    const int64_t current = p_.weight[r], thr = p_.threshold[static_cast<size_t>(c)];
    const auto& reports = rule_reports_[r];
    double best = Try(c, reports, 0, thr, false) - Cost(current, written_.weight[r]);
    int64_t best_value = current;
    for (int64_t v : Grid(o_.min_weight, o_.max_weight, written_.weight[r])) {
      const double score = Try(c, reports, v - current, thr, false) - Cost(v, written_.weight[r]);
      if (score > best + 1e-12) best = score, best_value = v;
    }
    if (best_value == current) return false;
    Try(c, reports, best_value - current, thr, true);
    p_.weight[r] = best_value;
    return true;
  }

  const MatchTable& t_;
  const DecisionParams& written_;
  const std::vector<char>& train_;
  const FitOptions& o_;
  DecisionParams p_;
  size_t k_;
  std::vector<char> cares_;
  std::vector<int64_t> sums_;
  std::vector<char> any_;
  std::vector<std::vector<uint32_t>> rule_reports_, category_reports_;
  std::vector<Confusion> conf_;
  std::vector<std::vector<int64_t>> ctrl_;
};

}  // namespace

DecisionParams FitDecision(const MatchTable& table, const DecisionParams& written, const std::vector<char>& train,
                           const FitOptions& options) {
  return Fitter(table, written, train, options).Run();
}

Estimates EstimateGroups(const MatchTable& table, const DecisionParams& written, const FitOptions& options) {
  Estimates e;
  const size_t n = table.groups.size();
  e.fitted = FitDecision(table, written, std::vector<char>(n, 1), options);
  for (size_t g = 0; g < n; ++g) {
    std::vector<char> train(n, 1);
    train[g] = 0;
    // Fitted on the other groups, and scored without the rules read from this one's reports.
    const DecisionParams fold = table.WithoutRulesWrittenFrom(g, FitDecision(table, written, train, options));
    GroupEstimate ge{.held_out = ScoreGroup(table, g, fold),
                     .in_sample = ScoreGroup(table, g, e.fitted),
                     .written = ScoreGroup(table, g, written)};
    ge.held_out_reports.objective_f1 = table.groups[g].objective_f1;
    for (uint32_t i : table.groups[g].reports) {
      if (table.label[i] >= 0) ge.held_out_reports.reports.push_back({table.Predicted(i, fold), table.label[i] == 1, i});
    }
    ge.held_out_interval = BootstrapObjective(ge.held_out_reports);
    e.groups.push_back(std::move(ge));
  }
  std::vector<DecidedGroup> scored;
  for (size_t g = 0; g < n; ++g) {
    if (ObjectiveDefined(table.groups[g], e.groups[g].held_out.confusion)) scored.push_back(e.groups[g].held_out_reports);
  }
  e.held_out_mean_interval = BootstrapMean(scored);
  return e;
}

}  // namespace ghsift
