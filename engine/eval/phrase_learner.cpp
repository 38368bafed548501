#include "eval/phrase_learner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "eval/sparse_logistic.hpp"
#include "rules/decision.hpp"

namespace ghsift {
namespace {

bool HasCategory(const MatchTable::Group& g, int c) {
  return std::find(g.positive.begin(), g.positive.end(), c) != g.positive.end();
}

double OnGrid(double value, double step) { return std::round(value / step) * step; }

class Learner {
 public:
  Learner(const MatchTable& t, const PhraseIndex& index, const DecisionParams& written, int c, const LearnOptions& o,
          const std::vector<size_t>& groups)
      : t_(t), index_(index), written_(written), c_(c), o_(o), groups_(groups) {
    const size_t n = t.matched.size();
    other_flagged_.assign(n, 0);
    bug_.assign(n, 1);
    for (size_t i = 0; i < n; ++i) {
      // The layer adds rules of C only, so the verdict (bug or not) is the written one.
      if (t.groups[static_cast<size_t>(t.group[i])].bug_only) bug_[i] = t.Bug(i, written);
      for (int pc : t.groups[static_cast<size_t>(t.group[i])].positive) {
        if (pc != c && t.Flagged(i, pc, written)) other_flagged_[i] = 1;
      }
    }
    no_rule_left_out_.assign(t.rule_ids.size(), 0);
    written_threshold_ = o.threshold == LearnOptions::Threshold::kWritten ? written.threshold[static_cast<size_t>(c)] : 0;
    for (size_t r = 0; r < t.rule_ids.size(); ++r) {
      single_.push_back(o.rule_weights && t.rule_categories[r].size() == 1 && t.rule_categories[r].front() == c);
    }
  }

  // The layers of the lambda path fitted on the groups with train[g], largest lambda first.
  std::vector<LearnedLayer> FitPath(const std::vector<char>& train, const std::vector<double>& lambdas,
                                    size_t* vocabulary_size = nullptr) {
    LogisticProblem p;
    std::vector<uint32_t> rule_of_feature, phrase_of_feature;
    BuildProblem(train, p, rule_of_feature, phrase_of_feature);
    if (vocabulary_size != nullptr) *vocabulary_size = phrase_of_feature.size();
    std::vector<LearnedLayer> layers;
    LogisticModel model;
    model.weight.assign(p.features, 0.0);
    model.weight[0] = 1.0;  // one unit of written weight, one unit of logit
    for (double lambda : lambdas) {
      LogisticOptions lo;
      lo.lambda = lambda;
      model = FitSparseLogistic(p, lo, &model);
      layers.push_back(LayerOf(model, rule_of_feature, phrase_of_feature, train));
    }
    return layers;
  }

  double LambdaMaxOf(const std::vector<char>& train) {
    LogisticProblem p;
    std::vector<uint32_t> rules, phrases;
    BuildProblem(train, p, rules, phrases);
    return LambdaMax(p);
  }

  //! Group g decided with `layer` on top of the rules. `held_out`: as its leave-one-group-out fold
  //! scores it, without the rules written from its reports (Rule::written_from), whatever weight
  //! the layer gives them, as `rules eval` scores a held-out group.
  GroupScore Score(const LearnedLayer& layer, size_t g, bool held_out) const {
    const MatchTable::Group& group = t_.groups[g];
    const DecisionParams rules = held_out ? t_.WithoutRulesWrittenFrom(g, written_) : written_;
    std::vector<char> left_out(t_.rule_ids.size(), 0);
    for (size_t r = 0; held_out && r < t_.rule_written_from.size(); ++r) {
      const auto& from = t_.rule_written_from[r];
      left_out[r] = std::find(from.begin(), from.end(), g) != from.end();
    }
    const auto weights = PhraseWeights(layer);
    const int64_t threshold = ToMicro(layer.threshold);
    GroupScore s;
    s.control_flags.assign(group.controls.size(), 0);
    for (uint32_t i : group.reports) {
      ++s.reports;
      bool any = false;
      const int64_t sum = Sum(i, layer, rules, left_out, weights, &any);
      const bool flagged = any && sum >= threshold;
      const bool bug = !group.bug_only || t_.Bug(i, rules);
      bool other_flagged = false;
      for (int pc : group.positive) other_flagged |= pc != c_ && t_.Flagged(i, pc, rules);
      if (t_.label[i] >= 0) {
        const bool predicted = ((HasCategory(group, c_) && flagged) || other_flagged) && bug;
        s.confusion.Add(predicted, t_.label[i] == 1);
      }
      // In a group whose label asks for bugs, a control counts bugs of that category (as ScoreGroup).
      for (size_t k = 0; k < group.controls.size(); ++k) {
        s.control_flags[k] += bug && (group.controls[k] == c_ ? flagged : t_.Flagged(i, group.controls[k], rules));
      }
    }
    return s;
  }

 private:
  bool Usable(size_t i, const std::vector<char>& train) const {
    // A report some other positive category flags is predicted positive whatever C decides; one
    // judged no bug in a group whose label asks for bugs, negative.
    return train[static_cast<size_t>(t_.group[i])] && t_.label[i] >= 0 && !other_flagged_[i] && bug_[i];
  }

  void BuildProblem(const std::vector<char>& train, LogisticProblem& p, std::vector<uint32_t>& rule_of_feature,
                    std::vector<uint32_t>& phrase_of_feature) const {
    std::vector<char> use(t_.matched.size());
    for (size_t i = 0; i < use.size(); ++i) use[i] = Usable(i, train);
    phrase_of_feature = Vocabulary(index_, t_.group, use, o_.vocabulary);
    // Features: 0 = S (the written sum), then the rules' hits, then the phrases.
    std::vector<int32_t> rule_feature(t_.rule_ids.size(), -1);
    rule_of_feature.clear();
    for (size_t i = 0; i < use.size(); ++i) {
      if (!use[i]) continue;
      for (uint32_t r : t_.matched[i]) {
        if (single_[r] && rule_feature[r] < 0) rule_feature[r] = 0, rule_of_feature.push_back(r);
      }
    }
    std::sort(rule_of_feature.begin(), rule_of_feature.end());
    for (size_t k = 0; k < rule_of_feature.size(); ++k) rule_feature[rule_of_feature[k]] = static_cast<int32_t>(1 + k);
    const size_t first_phrase = 1 + rule_of_feature.size();
    std::unordered_map<uint32_t, uint32_t> phrase_feature;
    for (size_t k = 0; k < phrase_of_feature.size(); ++k) {
      phrase_feature[phrase_of_feature[k]] = static_cast<uint32_t>(first_phrase + k);
    }
    p.features = first_phrase + phrase_of_feature.size();
    p.penalized.assign(p.features, 1);
    p.penalized[0] = 0;
    p.lower.assign(p.features, -std::numeric_limits<double>::infinity());
    p.lower[0] = kMinScale;
    p.fit_intercept = o_.threshold != LearnOptions::Threshold::kWritten;
    // Each training group weighs 1, half for its positives and half for its negatives.
    std::map<std::pair<int, int>, int64_t> counts;
    for (size_t i = 0; i < use.size(); ++i) {
      if (use[i]) ++counts[{t_.group[i], t_.label[i]}];
    }
    for (size_t i = 0; i < use.size(); ++i) {
      if (!use[i]) continue;
      std::vector<std::pair<uint32_t, double>> row;
      bool any = false;
      const int64_t s = t_.Sum(i, c_, written_, &any);
      if (s != written_threshold_) row.push_back({0, static_cast<double>(s - written_threshold_) / 1e6});
      for (uint32_t r : t_.matched[i]) {
        if (rule_feature[r] > 0) row.push_back({static_cast<uint32_t>(rule_feature[r]), 1.0});
      }
      for (uint32_t ph : index_.learn_from[i]) {
        if (const auto it = phrase_feature.find(ph); it != phrase_feature.end()) row.push_back({it->second, 1.0});
      }
      p.rows.push_back(std::move(row));
      p.label.push_back(t_.label[i]);
      const int64_t mine = counts[{t_.group[i], t_.label[i]}], other = counts[{t_.group[i], 1 - t_.label[i]}];
      p.sample_weight.push_back(other > 0 ? 0.5 / static_cast<double>(mine) : 1.0 / static_cast<double>(mine));
    }
  }

  std::unordered_map<uint32_t, int64_t> PhraseWeights(const LearnedLayer& layer) const {
    std::unordered_map<uint32_t, int64_t> w;
    for (const auto& [phrase, weight] : layer.phrases) w[phrase] = ToMicro(weight);
    return w;
  }

  int64_t Sum(uint32_t i, const LearnedLayer& layer, const DecisionParams& rules, const std::vector<char>& left_out,
              const std::unordered_map<uint32_t, int64_t>& phrases, bool* any) const {
    int64_t sum = 0;
    *any = false;
    for (uint32_t r : t_.matched[i]) {
      if (!t_.CountsToward(r, c_)) continue;
      *any = true;
      if (left_out[r]) continue;
      const auto it = layer.rule_weights.find(r);
      sum += it != layer.rule_weights.end() ? ToMicro(it->second) : rules.weight[r];
    }
    for (uint32_t ph : index_.of_report[i]) {
      if (const auto it = phrases.find(ph); it != phrases.end()) sum += it->second, *any = true;
    }
    return sum;
  }

  LearnedLayer LayerOf(const LogisticModel& m, const std::vector<uint32_t>& rule_of_feature,
                       const std::vector<uint32_t>& phrase_of_feature, const std::vector<char>& train) const {
    LearnedLayer layer;
    const double a = std::max(m.weight[0], kMinScale);
    layer.scale = a;
    const auto clamp = [&](double w) { return std::clamp(OnGrid(w, o_.step), -o_.max_weight, o_.max_weight); };
    for (size_t k = 0; k < rule_of_feature.size(); ++k) {
      const double u = m.weight[1 + k];
      if (u == 0) continue;
      const uint32_t r = rule_of_feature[k];
      const double weight = clamp(static_cast<double>(written_.weight[r]) / 1e6 + u / a);
      if (ToMicro(weight) != written_.weight[r]) layer.rule_weights[r] = weight;
    }
    const size_t first_phrase = 1 + rule_of_feature.size();
    for (size_t k = 0; k < phrase_of_feature.size(); ++k) {
      const double w = m.weight[first_phrase + k];
      if (w == 0) continue;
      const double weight = clamp(w / a);
      if (ToMicro(weight) != 0) layer.phrases.push_back({phrase_of_feature[k], weight});
    }
    std::sort(layer.phrases.begin(), layer.phrases.end(), [&](const auto& x, const auto& y) {
      return x.second != y.second ? x.second > y.second : index_.phrases[x.first] < index_.phrases[y.first];
    });
    // With the written threshold T the model is b + a*(S - T) + ..., so -b/a is T again.
    const double t = static_cast<double>(written_.threshold[static_cast<size_t>(c_)]) / 1e6;
    layer.logistic_threshold = o_.threshold == LearnOptions::Threshold::kWritten ? t : -m.intercept / a;
    switch (o_.threshold) {
      case LearnOptions::Threshold::kWritten: layer.threshold = t; break;
      case LearnOptions::Threshold::kModel:
        layer.threshold = std::clamp(OnGrid(layer.logistic_threshold, o_.step), o_.step, o_.max_threshold);
        break;
      case LearnOptions::Threshold::kFit: layer.threshold = BestThreshold(layer, train); break;
    }
    return layer;
  }

  // The grid threshold that maximizes the mean objective of the training groups with the layer's
  // rounded weights; ties go to the one nearest the model's own -b/a.
  double BestThreshold(const LearnedLayer& layer, const std::vector<char>& train) const {
    const auto weights = PhraseWeights(layer);
    struct Item {
      size_t group;
      int64_t sum;
      bool any, other, bug, actual;
    };
    std::vector<Item> items;
    for (size_t g : groups_) {
      if (!train[g]) continue;
      for (uint32_t i : t_.groups[g].reports) {
        if (t_.label[i] < 0) continue;
        bool any = false;
        const int64_t sum = Sum(i, layer, written_, no_rule_left_out_, weights, &any);
        items.push_back({g, sum, any, other_flagged_[i] != 0, bug_[i] != 0, t_.label[i] == 1});
      }
    }
    double best = -1, best_threshold = o_.step;
    const auto steps = static_cast<int64_t>(std::floor(o_.max_threshold / o_.step + 1e-9));
    for (int64_t k = 1; k <= steps; ++k) {
      const double threshold = static_cast<double>(k) * o_.step;
      const int64_t micro = ToMicro(threshold);
      std::map<size_t, Confusion> conf;
      for (const Item& it : items) conf[it.group].Add((it.other || (it.any && it.sum >= micro)) && it.bug, it.actual);
      double total = 0;
      int n = 0;
      for (const auto& [g, c] : conf) {
        if (!ObjectiveDefined(t_.groups[g], c)) continue;
        total += t_.groups[g].objective_f1 ? c.f1() : c.macro_f1();
        ++n;
      }
      const double mean = n ? total / n : 0;
      const bool nearer = std::abs(threshold - layer.logistic_threshold) <
                          std::abs(best_threshold - layer.logistic_threshold);
      if (mean > best + 1e-12 || (std::abs(mean - best) <= 1e-12 && nearer)) best = mean, best_threshold = threshold;
    }
    return best_threshold;
  }

  const MatchTable& t_;
  const PhraseIndex& index_;
  const DecisionParams& written_;
  int c_;
  const LearnOptions& o_;
  const std::vector<size_t>& groups_;
  std::vector<char> other_flagged_;  //!< per report: flagged as written with another positive category of its group
  std::vector<char> bug_;            //!< per report: judged a bug, or in a group whose label does not ask
  std::vector<char> single_;         //!< per rule: gets a per-rule term (counts toward C alone)
  std::vector<char> no_rule_left_out_;  //!< for Sum on the training groups: every rule counts
  //! Subtracted from S when the threshold stays as written (else 0: the intercept absorbs it).
  int64_t written_threshold_ = 0;
};

double MeanOver(const MatchTable& t, const std::vector<size_t>& groups, const std::vector<GroupScore>& scores) {
  double total = 0;
  int n = 0;
  for (size_t g : groups) {
    if (!ObjectiveDefined(t.groups[g], scores[g].confusion)) continue;
    total += scores[g].Metric(t.groups[g].objective_f1);
    ++n;
  }
  return n ? total / n : 0;
}

}  // namespace

std::vector<size_t> LearnGroups(const MatchTable& table, int category, bool* exact) {
  std::vector<size_t> alone, all;
  for (size_t g = 0; g < table.groups.size(); ++g) {
    if (!HasCategory(table.groups[g], category)) continue;
    all.push_back(g);
    if (table.groups[g].positive.size() == 1) alone.push_back(g);
  }
  *exact = alone.size() >= 2;
  return *exact ? alone : all;
}

LearnResult LearnPhrases(const MatchTable& table, const PhraseIndex& index, const DecisionParams& written,
                         int category, const LearnOptions& options) {
  LearnResult result;
  result.category = category;
  result.groups = LearnGroups(table, category, &result.exact);
  Learner learner(table, index, written, category, options, result.groups);
  const size_t n = table.groups.size();
  std::vector<char> all(n, 0);
  for (size_t g : result.groups) all[g] = 1;
  // One lambda grid for every fold, from the fit on all learned groups, so that the folds'
  // figures at one lambda can be averaged.
  const double lambda_max = learner.LambdaMaxOf(all);
  std::vector<double> lambdas;
  // lambda_max itself first: no phrase, the rules as they are, unless a smaller lambda does better.
  for (int k = 0; k < options.lambdas; ++k) lambdas.push_back(lambda_max / std::pow(2.0, k));
  result.path.resize(lambdas.size());
  for (size_t k = 0; k < lambdas.size(); ++k) {
    result.path[k].lambda = lambdas[k];
    result.path[k].held_out.resize(n);
    result.path[k].folds.resize(n);
  }
  for (size_t h : result.groups) {
    std::vector<char> train = all;
    train[h] = 0;
    const auto layers = learner.FitPath(train, lambdas);
    for (size_t k = 0; k < lambdas.size(); ++k) {
      result.path[k].held_out[h] = learner.Score(layers[k], h, true);
      result.path[k].mean_phrases += static_cast<double>(layers[k].phrases.size()) / result.groups.size();
      result.path[k].folds[h] = layers[k];
    }
  }
  LearnedLayer none;
  none.threshold = static_cast<double>(written.threshold[static_cast<size_t>(category)]) / 1e6;
  for (size_t g = 0; g < n; ++g) {
    result.written.push_back(learner.Score(none, g, false));
    result.written_held_out.push_back(learner.Score(none, g, true));
  }
  bool any_passes = false;
  for (size_t k = 0; k < lambdas.size(); ++k) {
    LambdaRun& run = result.path[k];
    run.mean = MeanOver(table, result.groups, run.held_out);
    for (size_t g : result.groups) {
      const auto& group = table.groups[g];
      const GroupScore& before = result.written_held_out[g];
      if (!ObjectiveDefined(group, run.held_out[g].confusion) || !ObjectiveDefined(group, before.confusion)) continue;
      const double drop = before.Metric(group.objective_f1) - run.held_out[g].Metric(group.objective_f1);
      run.worst_drop = std::max(run.worst_drop, drop);
    }
    run.passes = options.max_drop < 0 || run.worst_drop <= options.max_drop + 1e-12;
    // The best mean among the values that pass; on a tie, the larger lambda (fewer phrases).
    if (run.passes && (!any_passes || run.mean > result.path[result.chosen].mean + 1e-12)) result.chosen = k;
    any_passes |= run.passes;
  }
  result.none_passes = !any_passes;
  const std::vector<double> to_chosen(lambdas.begin(), lambdas.begin() + static_cast<long>(result.chosen) + 1);
  result.layer = learner.FitPath(all, to_chosen, &result.vocabulary).back();
  for (size_t g = 0; g < n; ++g) result.in_sample.push_back(learner.Score(result.layer, g, false));
  return result;
}

GroupScore ScoreLayer(const MatchTable& table, const PhraseIndex& index, const DecisionParams& written, int category,
                      const LearnedLayer& layer, size_t group) {
  const LearnOptions options;
  const std::vector<size_t> groups;
  return Learner(table, index, written, category, options, groups).Score(layer, group, false);
}

}  // namespace ghsift
