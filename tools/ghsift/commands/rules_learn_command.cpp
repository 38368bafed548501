// ghsift rules learn (--labels FILE... | --suite FILE [--data DIR]) --positive C [--rules PATH]...
//                    [--fields title,body] [--min-groups N] [--min-reports N] [--lambdas N] [--keep-rule-weights]
//                    [--threshold written|fit|model] [--max-drop D] [--write LAYER.yaml]
//
// Learns phrase rules for category C (engine/eval/phrase_learner.hpp has the model and why), prints
// first the leave-one-group-out (LOGO) figure of every group at the chosen regularization beside
// the rules as written, then the LOGO table of every lambda tried, and writes the kept phrases as
// an ordinary rule layer. Then it checks what it wrote: each fold's layer and the written file
// are loaded on top of the rules, compiled by Hyperscan and scored as `rules eval` scores, and
// those figures are printed beside the ones the fit computed.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands/commands.hpp"
#include "commands/common_options.hpp"
#include "commands/estimate_output.hpp"
#include "commands/eval_provenance.hpp"
#include "commands/labeled_input.hpp"
#include "eval/phrase_learner.hpp"
#include "eval/phrase_miner.hpp"
#include "eval/rule_overlay.hpp"
#include "output.hpp"

namespace ghsift::cli {
namespace {

struct LearnArgs {
  LabeledInputArgs input;
  std::string fields = "title,body";
  int max_words = 3;
  LearnOptions learn;
  bool keep_rule_weights = false;
  std::string threshold = "written";
  std::string write;
};

std::string Number2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v == 0 ? 0.0 : v);  // no "-0.00"
  return buf;
}

// Rule ids allow [a-z0-9._-]: words are joined by '-', and a word's '_' becomes '.' (so that
// "foo_bar" and "foo bar" stay two ids).
std::string RuleIdOf(const std::string& category, const std::string& phrase) {
  std::string id = "learned." + category + ".";
  for (char c : phrase) id += c == ' ' ? '-' : c == '_' ? '.' : c;
  return id;
}

struct LayerText {
  std::string header;  //!< comment lines, each starting "# "
  std::string fields;  //!< "title, body"
};

// The layer as YAML: the phrase rules, the weight overrides, the threshold and what it was fitted on.
std::string LayerYaml(const LearnedLayer& layer, const PhraseIndex& index, const MatchTable& table,
                      const std::string& category, const LayerText& text, const FittedLayer& fitted) {
  std::ostringstream out;
  out << text.header << "rules:" << (layer.phrases.empty() && layer.rule_weights.empty() ? " []\n" : "\n");
  for (const auto& [phrase, weight] : layer.phrases) {
    out << "  - {id: " << RuleIdOf(category, index.phrases[phrase]) << ", tag: " << category
        << "/learned, pattern: '" << PhrasePattern(index.phrases[phrase]) << "', fields: [" << text.fields
        << "], flags: [caseless], weight: " << Number2(weight) << "}\n";
  }
  for (const auto& [rule, weight] : layer.rule_weights) {
    out << "  - {id: " << table.rule_ids[rule] << ", weight: " << Number2(weight) << "}\n";
  }
  out << "categories:\n  " << category << ": {threshold: " << Number2(layer.threshold) << "}\n";
  out << FittedYaml(fitted, Fixed3(fitted.logo));
  return out.str();
}

double Objective(const MatchTable& table, size_t g, const GroupScore& s) {
  return s.Metric(table.groups[g].objective_f1);
}

std::string ObjectiveCell(const MatchTable& table, size_t g, const GroupScore& s) {
  return ObjectiveDefined(table.groups[g], s.confusion) ? Fixed3(Objective(table, g, s)) : "n/a";
}

double MeanOfWritten(const MatchTable& table, const std::vector<size_t>& groups, const std::vector<GroupScore>& s) {
  double total = 0;
  int n = 0;
  for (size_t g : groups) {
    if (ObjectiveDefined(table.groups[g], s[g].confusion)) total += Objective(table, g, s[g]), ++n;
  }
  return n ? total / n : 0;
}

// Scores the groups `which` with `rules` through Hyperscan and the decision, as `rules eval` does.
Result<std::vector<GroupScore>> ScoreThroughEngine(const RuleSet& rules, const LabeledInput& in,
                                                   const std::vector<size_t>& which) {
  auto db = RuleDatabase::Compile(rules, RuleDatabase::Mode::kFlag, RuleDatabase::Layout::kPerRule);
  if (!db.ok()) return db.status();
  const MatchTable& t = in.table;
  std::vector<LabeledReport> reports;
  std::vector<size_t> of;
  for (size_t g : which) {
    for (uint32_t i : t.groups[g].reports) reports.push_back(in.reports[i]), of.push_back(i);
  }
  const auto verdicts = JudgeReports(*db, reports);
  std::vector<GroupScore> scores(t.groups.size());
  for (size_t g : which) scores[g].control_flags.assign(t.groups[g].controls.size(), 0);
  for (size_t k = 0; k < reports.size(); ++k) {
    const size_t i = of[k];
    const size_t g = static_cast<size_t>(t.group[i]);
    const auto& flagged = verdicts[k].categories;
    const auto has = [&](int c) {
      return std::find(flagged.begin(), flagged.end(), t.categories[static_cast<size_t>(c)]) != flagged.end();
    };
    GroupScore& s = scores[g];
    ++s.reports;
    Target target;
    for (int c : t.groups[g].positive) target.categories.insert(t.categories[static_cast<size_t>(c)]);
    target.bug_only = t.groups[g].bug_only;
    if (t.label[i] >= 0) s.confusion.Add(target.Predicted(verdicts[k]), t.label[i] == 1);
    const bool counted = !target.bug_only || verdicts[k].verdict == "bug";  // as ScoreGroup counts controls
    for (size_t c = 0; c < t.groups[g].controls.size(); ++c) s.control_flags[c] += counted && has(t.groups[g].controls[c]);
  }
  return scores;
}

// The comment on top of the layer: what it was learned from, the model, how its numbers map onto
// the decision, and the estimate.
std::string HeaderOf(const LearnArgs& args, const std::string& category, const std::string& groups,
                     const std::string& fields, const LearnResult& result, double as_written) {
  const LearnedLayer& layer = result.layer;
  const LambdaRun& chosen = result.path[result.chosen];
  char lambda[32];
  std::snprintf(lambda, sizeof lambda, "%.6f", chosen.lambda);
  const std::string t = Number2(layer.threshold);
  std::string threshold_line;
  switch (args.learn.threshold) {
    case LearnOptions::Threshold::kWritten:
      threshold_line = "the threshold stays as written (" + t + "): the model has no free intercept (b = -a*" + t +
                       "), so a report\nwithout a learned phrase is decided as before.";
      break;
    case LearnOptions::Threshold::kModel:
      threshold_line = "the threshold is -b/a on the grid: " + t + ".";
      break;
    case LearnOptions::Threshold::kFit:
      threshold_line = "the threshold is the multiple of 0.05 that maximizes the groups' mean objective with the\n"
                       "rounded weights (nearest to -b/a on a tie): " + t + ".";
      break;
  }
  std::string text =
      "Learned by `ghsift rules learn --positive " + category + "` from the groups: " + groups + ".\n" +
      "Model: L1-regularized logistic regression over word 1-" + std::to_string(args.max_words) + "-grams of " + fields +
      " (each in >= " + std::to_string(args.learn.vocabulary.min_reports) + " reports of >= " +
      std::to_string(args.learn.vocabulary.min_groups) + " groups),\nthe rules' summed written weight S, and " +
      (args.learn.rule_weights ? "each hit of a rule of " + category + " alone" : "no per-rule term") +
      "; every group weighs the same.\nlambda = " + lambda + ", chosen by leave-one-group-out among " +
      std::to_string(result.path.size()) + " values.\n" +
      "Mapping: logit = b + a*S + sum_j w_j*phrase_j + sum_r u_r*hit_r with a = " + Fixed3(layer.scale) +
      " > 0, so logit >= 0 is the\nghsift decision S + sum_j (w_j/a)*phrase_j + sum_r (u_r/a)*hit_r >= -b/a (= " +
      Fixed3(layer.logistic_threshold) + "): a phrase rule's weight\nis w_j/a and a rule's override its written "
      "weight + u_r/a (L1 keeps most at the written weight), rounded to 0.05;\n" + threshold_line + "\n" +
      "A report is flagged " + category + " when the summed weight of the distinct matched rules of " + category +
      " (those of the\nrules it is loaded on, and these) reaches " + t + ".\n" +
      "Leave-one-group-out estimate (mean of each group's objective): " + Fixed3(chosen.mean) + "; the rules as "
      "written: " + Fixed3(as_written) + ".\nLoad it after the rules it was learned on: ghsift rules eval --rules "
      "rules/ --rules THIS.yaml ...";
  std::string out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) out += "# " + line + "\n";
  return out;
}

int RunLearn(LearnArgs args) {
  Result<std::string> one =
      OneCategory(args.input.positive, "rules learn", "a learned layer holds one category's phrases and weights");
  if (!one.ok()) return Fail(one.status().message());
  const std::string category = *one;
  args.input.positive = category;
  FieldMask fields = 0;
  std::string field_list;
  for (const std::string& name : SplitList(args.fields)) {
    const auto field = FieldFromName(name);
    if (!field || !IsProse(Spec(*field))) {
      return Fail("--fields: '" + name + "' is not one of " + FieldNames(IsProse));
    }
    fields |= MaskOf(*field);
  }
  for (int f = 0; f < kFieldCount; ++f) {
    if (fields & MaskOf(static_cast<Field>(f))) {
      field_list += (field_list.empty() ? "" : ", ") + std::string(FieldName(static_cast<Field>(f)));
    }
  }
  if (fields == 0) return Fail("--fields: give at least one of " + FieldNames(IsProse));
  args.learn.rule_weights = !args.keep_rule_weights;
  args.learn.threshold = args.threshold == "fit"     ? LearnOptions::Threshold::kFit
                         : args.threshold == "model" ? LearnOptions::Threshold::kModel
                                                     : LearnOptions::Threshold::kWritten;
  args.input.suite_takes_positive = true;
  auto input = LoadLabeledInput(args.input);
  if (!input.ok()) return Fail(input.status().message());
  auto provenance = ProvenanceOf(*input);
  if (!provenance.ok()) return Fail(provenance.status().message());
  std::cout << TerminalSafe(ProvenanceLine(*provenance)) << "\n";
  const MatchTable& table = input->table;
  const int c = table.CategoryIndex(category);
  if (c < 0) return Fail("--positive: no rule has category '" + category + "'");
  bool exact = false;
  const std::vector<size_t> groups = LearnGroups(table, c, &exact);
  if (groups.size() < 2) {
    return Fail("rules learn: " + std::to_string(groups.size()) + " group(s) labeled for " + category +
                "; leave-one-group-out needs two or more");
  }
  // Per group, the fields both its classes have text in.
  std::vector<FieldMask> group_fields(table.groups.size(), fields);
  std::string fields_note;
  for (size_t g = 0; g < table.groups.size(); ++g) {
    std::vector<const LabeledReport*> positives, negatives;
    for (uint32_t i : table.groups[g].reports) {
      if (table.label[i] >= 0) (table.label[i] ? positives : negatives).push_back(&input->reports[i]);
    }
    group_fields[g] = FieldsBothClassesHave(positives, negatives, fields);
    // Said only where it loses something: a field none of the group's reports has is no loss.
    FieldMask present = 0;
    for (uint32_t i : table.groups[g].reports) present |= FieldsBothClassesHave({&input->reports[i]}, {}, fields);
    const FieldMask lost = fields & present & static_cast<FieldMask>(~group_fields[g]);
    if (lost == 0 || !std::count(groups.begin(), groups.end(), g)) continue;
    std::string left_out;
    for (int f = 0; f < kFieldCount; ++f) {
      const FieldMask m = MaskOf(static_cast<Field>(f));
      if (lost & m) left_out += (left_out.empty() ? "" : ", ") + std::string(FieldName(static_cast<Field>(f)));
    }
    fields_note += "Group " + TerminalSafe(table.groups[g].name) + ": " + left_out + " left out of its phrases (fewer than half of "
                   "its positives or of its negatives have it: the phrases would tell which reports have the field).\n";
  }
  // What the rules will find (every field given) is scored; what both classes have is learned from.
  std::vector<std::vector<std::string>> report_phrases, learnable;
  for (size_t i = 0; i < input->reports.size(); ++i) {
    const FieldMask mask = group_fields[static_cast<size_t>(table.group[i])];
    report_phrases.push_back(TextPhrases(FieldTexts(input->reports[i], fields), args.max_words));
    learnable.push_back(mask == fields ? report_phrases.back()
                                       : TextPhrases(FieldTexts(input->reports[i], mask), args.max_words));
  }
  const PhraseIndex index = IndexPhrases(report_phrases, &learnable);
  report_phrases.clear(), learnable.clear();
  const RuleSet& rules = input->database->rules();
  const DecisionParams written = table.ParamsOf(rules);
  const LearnResult result = LearnPhrases(table, index, written, c, args.learn);
  const LambdaRun& chosen = result.path[result.chosen];

  std::string names;
  std::vector<std::string> group_names;
  for (size_t g : groups) {
    names += (names.empty() ? "" : ", ") + TerminalSafe(table.groups[g].name);
    group_names.push_back(table.groups[g].name);
  }
  std::cout << "Phrase rules for " << category << " learned from " << Counted(groups.size(), "group") << " (" << names
            << (exact ? "; labeled for " + category + " alone" : "; no two groups are labeled for " + category +
                                                                   " alone, so groups whose label is a union are used: "
                                                                   "their phrases of the other categories count too")
            << "). Phrases: word 1-" << args.max_words << "-grams of " << field_list << " in at least "
            << args.learn.vocabulary.min_reports << " reports of at least " << args.learn.vocabulary.min_groups
            << " training groups, chosen again in every fold.\n"
            << fields_note
            << (static_cast<int64_t>(groups.size()) - 1 < args.learn.vocabulary.min_groups
                    ? "A fold trains on " + Counted(groups.size() - 1, "group") + ", fewer than --min-groups " +
                          std::to_string(args.learn.vocabulary.min_groups) +
                          ": no phrase can be learned in it (only the rules' weights), so the LOGO figures say "
                          "nothing of phrases. More groups labeled for " + category + " are needed.\n"
                    : "")
            << "LOGO: the phrases and their weights (with --threshold fit or model, the threshold too) fitted on the "
               "other groups, scored on the held-out group; as written: the rules alone. Both leave out of a group's figure "
               "the rules written from its reports (written_from), as rules eval's LOGO does.\n\n";

  // First: every group's LOGO figure at the chosen lambda, beside the rules as written.
  {
    std::vector<std::vector<std::string>> rows;
    double before = 0, after = 0;
    int n = 0;
    for (size_t g : groups) {
      const GroupScore& w = result.written_held_out[g];
      const GroupScore& h = chosen.held_out[g];
      const Confusion& cw = w.confusion;
      const bool defined = ObjectiveDefined(table.groups[g], h.confusion);
      rows.push_back({table.groups[g].name, std::to_string(cw.tp + cw.fp + cw.fn + cw.tn), std::to_string(cw.tp + cw.fn),
                      table.groups[g].objective_f1 ? "F1" : "macro-F1", ObjectiveCell(table, g, w),
                      Fixed3(h.confusion.precision()), Fixed3(h.confusion.recall()), ObjectiveCell(table, g, h),
                      defined ? Fixed3(Objective(table, g, h) - Objective(table, g, w)) : "n/a"});
      if (defined) before += Objective(table, g, w), after += Objective(table, g, h), ++n;
    }
    std::cout << "LOGO at the chosen lambda " << chosen.lambda << " (" << Fixed3(chosen.mean_phrases)
              << " phrases per fold on average):\n";
    WriteTable(std::cout, Format::kTable,
               {"group", "reports", "positives", "objective", "as written", "LOGO prec", "LOGO recall", "LOGO", "change"},
               rows, {false, true, true, false, true, true, true, true, true});
    std::cout << "mean over " << Counted(n, "group") << ": as written " << Fixed3(n ? before / n : 0) << ", LOGO "
              << Fixed3(n ? after / n : 0) << "\n\n";
  }
  // Then the path: each lambda's held-out objective per group.
  {
    std::vector<std::string> columns = {"lambda", "phrases/fold"};
    std::vector<bool> numeric = {true, true};
    for (size_t g : groups) columns.push_back(table.groups[g].name), numeric.push_back(true);
    columns.push_back("mean LOGO"), numeric.push_back(true);
    columns.push_back("worst fall"), numeric.push_back(true);
    columns.push_back(""), numeric.push_back(false);
    std::vector<std::vector<std::string>> rows;
    for (size_t k = 0; k < result.path.size(); ++k) {
      const LambdaRun& run = result.path[k];
      char lambda[32];
      std::snprintf(lambda, sizeof lambda, "%.6f", run.lambda);
      std::vector<std::string> row = {lambda, Fixed3(run.mean_phrases)};
      for (size_t g : groups) row.push_back(ObjectiveCell(table, g, run.held_out[g]));
      row.push_back(Fixed3(run.mean));
      row.push_back(Fixed3(run.worst_drop) + (run.passes ? "" : " (over)"));
      row.push_back(k == result.chosen && !result.none_passes ? "<- chosen" : "");
      rows.push_back(std::move(row));
    }
    std::cout << "Lambda path (L1 strength; each group's objective held out; worst fall: the most a group's figure "
                 "falls below the rules as written"
              << (args.learn.max_drop >= 0 ? ", at most " + Fixed3(args.learn.max_drop) + " (--max-drop)" : "")
              << "):\n";
    WriteTable(std::cout, Format::kTable, columns, rows, numeric);
    std::cout << "\n";
  }
  if (result.none_passes) {
    std::cout << "No lambda keeps every group within " << Fixed3(args.learn.max_drop)
              << " of the rules as written: nothing is learned" << (args.write.empty() ? "" : ", nothing written")
              << ".\n";
    return kExitNoHit;
  }
  const LearnedLayer& layer = result.layer;
  std::cout << "Fitted on every learned group at lambda " << chosen.lambda << ": " << Counted(layer.phrases.size(), "phrase")
            << " of " << result.vocabulary << " kept, " << Counted(layer.rule_weights.size(), "rule weight")
            << " changed; scale a = " << Fixed3(layer.scale) << " logit per unit of written weight; threshold "
            << Number2(layer.threshold) << " (the model's -b/a: " << Fixed3(layer.logistic_threshold) << ", as written "
            << Number2(static_cast<double>(written.threshold[static_cast<size_t>(c)]) / 1e6) << ")\n";
  for (const auto& [phrase, weight] : layer.phrases) std::cout << "  " << Number2(weight) << "  " << index.phrases[phrase] << "\n";
  for (const auto& [rule, weight] : layer.rule_weights) {
    std::cout << "  weight " << table.rule_ids[rule] << ": " << Number2(static_cast<double>(written.weight[rule]) / 1e6)
              << " -> " << Number2(weight) << "\n";
  }

  const std::string header = HeaderOf(args, category, names, field_list, result, MeanOfWritten(table, groups, result.written_held_out));
  const LayerText text{header, field_list};
  FittedLayer fitted{args.write, group_names, chosen.mean};
  StampFitted(fitted, *provenance);
  const std::string yaml = LayerYaml(layer, index, table, category, text, fitted);
  if (!args.write.empty()) {
    std::ofstream out(args.write, std::ios::binary);
    out << yaml;
    out.close();
    if (!out) return Fail(Status::IoErrorFromErrno(args.write + ": cannot write").message());
    std::cout << "wrote " << args.write << "\n";
  }

  // What was written is what was measured: each fold's layer, and the layer written, loaded on
  // top of the rules and scored through Hyperscan.
  std::cout << "\nChecked through the engine (each layer loaded on top of the rules, compiled, scanned, decided):\n";
  std::vector<std::vector<std::string>> rows;
  double engine_logo = 0;
  int n = 0;
  size_t differ = 0;
  for (size_t g : groups) {
    RuleSet fold = rules;
    const std::string fold_yaml = LayerYaml(chosen.folds[g], index, table, category, {"", field_list}, FittedLayer{});
    if (Status s = ParseRuleYaml(fold_yaml, "fold without " + table.groups[g].name, fold); !s.ok()) return Fail(s.message());
    // As the fit scored it: without the rules written from the held-out group's reports.
    for (Rule& rule : fold.rules) {
      if (std::count(rule.written_from.begin(), rule.written_from.end(), table.groups[g].name)) rule.weight = 0;
    }
    auto scores = ScoreThroughEngine(fold, *input, {g});
    if (!scores.ok()) return Fail(scores.status().message());
    const GroupScore& e = (*scores)[g];
    const GroupScore& a = chosen.held_out[g];
    differ += e.confusion.tp != a.confusion.tp || e.confusion.fp != a.confusion.fp || e.confusion.fn != a.confusion.fn;
    if (ObjectiveDefined(table.groups[g], e.confusion)) engine_logo += Objective(table, g, e), ++n;
    rows.push_back({table.groups[g].name, "LOGO", ObjectiveCell(table, g, a), ObjectiveCell(table, g, e)});
  }
  std::vector<size_t> touched;  // learned groups, and groups that list the category as a control
  for (size_t g = 0; g < table.groups.size(); ++g) {
    const auto& controls = table.groups[g].controls;
    if (std::count(groups.begin(), groups.end(), g) || std::count(controls.begin(), controls.end(), c)) touched.push_back(g);
  }
  RuleSet layered = rules;
  if (!args.write.empty()) {
    std::vector<std::string> layers = args.input.rules;
    if (layers.empty()) layers.push_back(DefaultRulesPath());
    layers.push_back(args.write);
    auto loaded = LoadRuleLayers(layers);
    if (!loaded.ok()) return Fail(loaded.status().message());
    layered = std::move(*loaded);
  } else if (Status s = ParseRuleYaml(yaml, "learned layer", layered); !s.ok()) {
    return Fail(s.message());
  }
  auto in_sample = ScoreThroughEngine(layered, *input, touched);
  if (!in_sample.ok()) return Fail(in_sample.status().message());
  for (size_t g : groups) {
    const GroupScore& e = (*in_sample)[g];
    const GroupScore& a = result.in_sample[g];
    differ += e.confusion.tp != a.confusion.tp || e.confusion.fp != a.confusion.fp || e.confusion.fn != a.confusion.fn;
    rows.push_back({table.groups[g].name, "in-sample (the layer written)", ObjectiveCell(table, g, a), ObjectiveCell(table, g, e)});
  }
  WriteTable(std::cout, Format::kTable, {"group", "figure", "fit", "engine"}, rows, {false, false, true, true});
  std::cout << "mean LOGO through the engine: " << Fixed3(n ? engine_logo / n : 0) << " (the fit: " << Fixed3(chosen.mean)
            << ")" << (differ ? "; " + Counted(differ, "figure") + " differ: a phrase is read otherwise by the "
                                                                   "tokenizer and by its pattern"
                              : "; every figure agrees")
            << "\n";
  for (size_t g : touched) {
    const auto& controls = table.groups[g].controls;
    for (size_t k = 0; k < controls.size(); ++k) {
      if (controls[k] != c) continue;
      std::cout << "negative control " << TerminalSafe(table.groups[g].name) << ": share flagged " << category << " "
                << Fixed3(result.written[g].ControlRate(k)) << " as written, " << Fixed3((*in_sample)[g].ControlRate(k))
                << " with the layer (at most " << Fixed3(input->control_max_rate) << "; not used in fitting)\n";
    }
  }
  return kExitOk;
}

}  // namespace

void AddRulesLearnCommand(CLI::App& command, int& exit_code) {
  auto args = std::make_shared<LearnArgs>();
  args->input.positive.clear();  // one category, named by the user
  CLI::App* cmd = &command;
  AddLabeledInputOptions(*cmd, args->input);
  cmd->add_option("--fields", args->fields, "Fields whose words make phrases: " + FieldNames(IsProse) + " (comma-separated)")
      ->capture_default_str();
  cmd->add_option("--max-words", args->max_words, "Longest phrase, in words")
      ->check(CountCheck(1, 5))
      ->capture_default_str();
  cmd->add_option("--min-groups", args->learn.vocabulary.min_groups, "Training groups a phrase must occur in")
      ->check(PositiveCountCheck())
      ->capture_default_str();
  cmd->add_option("--min-reports", args->learn.vocabulary.min_reports, "Training reports a phrase must occur in")
      ->check(PositiveCountCheck())
      ->capture_default_str();
  cmd->add_option("--lambdas", args->learn.lambdas, "Values of lambda tried: lambda_max, lambda_max/2, /4, ...")
      ->check(CountCheck(1, 30))
      ->capture_default_str();
  cmd->add_flag("--keep-rule-weights", args->keep_rule_weights,
                "Learn phrases only: every existing rule keeps its written weight");
  cmd->add_option("--threshold", args->threshold,
                  "written: the rules' own (the layer only adds phrases); fit: the grid value that maximizes the "
                  "training groups' mean objective; model: the logistic model's own -b/a")
      ->check(CLI::IsMember({"written", "fit", "model"}))
      ->capture_default_str();
  cmd->add_option("--max-drop", args->learn.max_drop,
                  "Choose lambda only among the values with which no group's LOGO figure falls more than this "
                  "below the rules as written (e.g. 0.02); no such value: nothing is written, exit 1")
      ->check(NumberCheck(0));
  cmd->add_option("--write", args->write, "Write the learned phrase rules as a layer YAML");
  cmd->callback([args, &exit_code] { exit_code = RunLearn(*args); });
}

}  // namespace ghsift::cli
