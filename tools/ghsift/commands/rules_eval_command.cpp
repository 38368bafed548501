// ghsift rules eval (--labels FILE... | --suite FILE [--data DIR]) [--rules PATH] [--positive C,...] [--weights]
//                   [--reference CATEGORY=FILE]... [--format table|csv|json] [--show fp|fn|changes]
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>

#include "commands/commands.hpp"
#include "commands/common_options.hpp"
#include "commands/estimate_output.hpp"
#include "commands/eval_provenance.hpp"
#include "commands/labeled_input.hpp"
#include "eval/rule_bench.hpp"
#include "output.hpp"

namespace ghsift::cli {
namespace {

struct EvalArgs {
  LabeledInputArgs input;
  std::vector<std::string> baseline;  //!< rule layers to compare with (the rules before a change)
  double gate_drop = 0.02;            //!< a group may fall at most this much for the change to pass
  double speed_seconds = 0.3;         //!< least time of one timing of the scan speeds (0: not timed)
  std::string format = "table";
  std::string show;
  bool weights = false;
  std::vector<std::string> reference;  //!< CATEGORY=FILE word lists (replace the suite's)
};

std::string ConfusionJson(const Confusion& c) {
  std::ostringstream out;
  out << "{\"tp\": " << c.tp << ", \"fp\": " << c.fp << ", \"fn\": " << c.fn << ", \"tn\": " << c.tn
      << ", \"precision\": " << Fixed3(c.precision()) << ", \"recall\": " << Fixed3(c.recall())
      << ", \"f1\": " << Fixed3(c.f1()) << ", \"macro_f1\": " << Fixed3(c.macro_f1()) << "}";
  return out.str();
}

std::vector<std::string> ConfusionRow(const std::string& name, const Confusion& c) {
  return {name,          std::to_string(c.tp), std::to_string(c.fp), std::to_string(c.fn), std::to_string(c.tn),
          Fixed3(c.precision()), Fixed3(c.recall()), Fixed3(c.f1()), Fixed3(c.macro_f1())};
}

void PrintJson(const Evaluation& e, const std::string& positive) {
  const Confusion& o = e.overall;
  std::cout << "{\n  \"positive\": " << JsonString(positive) << ",\n  \"tp\": " << o.tp << ",\n  \"fp\": " << o.fp << ",\n  \"fn\": " << o.fn << ",\n  \"tn\": " << o.tn
            << ",\n  \"precision\": " << Fixed3(o.precision()) << ",\n  \"recall\": " << Fixed3(o.recall())
            << ",\n  \"f1\": " << Fixed3(o.f1()) << ",\n  \"macro_f1\": " << Fixed3(o.macro_f1())
            << ",\n  \"reports\": " << e.reports << ",\n  \"per_group\": {";
  bool first = true;
  for (const auto& [g, c] : e.per_group) {
    std::cout << (first ? "\n    " : ",\n    ") << JsonString(g) << ": " << ConfusionJson(c);
    first = false;
  }
  std::cout << "\n  },\n  \"per_category\": {";
  first = true;
  for (const auto& [category, flagged] : e.flagged) {
    std::cout << (first ? "\n    " : ",\n    ") << JsonString(category) << ": {\"flagged\": " << flagged;
    auto it = e.per_category.find(category);
    if (it != e.per_category.end()) std::cout << ", \"scores\": " << ConfusionJson(it->second);
    std::cout << "}";
    first = false;
  }
  std::cout << "\n  },\n  \"per_rule\": {";
  first = true;
  for (const auto& [rule, h] : e.per_rule) {
    std::cout << (first ? "\n    " : ",\n    ") << JsonString(rule) << ": {\"hits\": " << h.hits
              << ", \"positive_hits\": " << h.positive_hits
              << ", \"precision\": " << Fixed3(h.hits ? static_cast<double>(h.positive_hits) / h.hits : 0) << "}";
    first = false;
  }
  std::cout << "\n  }\n}";
}

void PrintTable(const Evaluation& e) {
  const std::vector<std::string> columns = {"set", "tp", "fp", "fn", "tn", "precision", "recall", "f1", "macro_f1"};
  const std::vector<bool> numeric = {false, true, true, true, true, true, true, true, true};
  std::vector<std::vector<std::string>> rows;
  for (const auto& [g, c] : e.per_group) rows.push_back(ConfusionRow(g, c));
  rows.push_back(ConfusionRow("overall", e.overall));
  std::cout << "Binary label vs flagged with any positive category (" << e.reports << " reports):\n";
  WriteTable(std::cout, Format::kTable, columns, rows, numeric);
  rows.clear();
  for (const auto& [category, c] : e.per_category) rows.push_back(ConfusionRow(category, c));
  if (!rows.empty()) {
    std::cout << "\nPer category:\n";
    std::vector<std::string> by_category = columns;
    by_category[0] = "category";
    WriteTable(std::cout, Format::kTable, by_category, rows, numeric);
  }
  rows.clear();
  for (const auto& [category, n] : e.flagged) rows.push_back({category, std::to_string(n)});
  std::cout << "\nReports flagged per category:\n";
  WriteTable(std::cout, Format::kTable, {"category", "flagged"}, rows, {false, true});
  rows.clear();
  for (const auto& [rule, h] : e.per_rule) {
    rows.push_back({rule, std::to_string(h.hits), std::to_string(h.positive_hits),
                    Fixed3(h.hits ? static_cast<double>(h.positive_hits) / h.hits : 0)});
  }
  std::cout << "\nPer rule:\n";
  WriteTable(std::cout, Format::kTable, {"rule", "hits", "positive_hits", "precision"}, rows,
             {false, true, true, true});
}

void PrintMisclassified(const LabeledInput& in, const Target& target, const std::vector<size_t>& reports,
                        const std::string& which) {
  std::cout << "\n" << (which == "fp" ? "False positives" : "False negatives") << ":\n";
  size_t listed = 0;
  for (size_t i : reports) {
    bool known = false;
    const bool actual = ActualPositive(in.reports[i], target.categories, &known);
    const bool predicted = target.Predicted(in.verdicts[i]);
    if (!known || (which == "fp" ? !(predicted && !actual) : !(!predicted && actual))) continue;
    ++listed;
    std::cout << TerminalSafe(in.reports[i].id) << "  " << TerminalSafe(in.reports[i].text.First(Field::kTitle)) << "\n    rules:";
    for (const auto& r : in.verdicts[i].rules) std::cout << " " << r;
    std::cout << "\n    verdict: " << in.verdicts[i].verdict << "\n    scores:";
    for (const auto& [c, s] : in.verdicts[i].scores) {
      if (s != 0) std::cout << " " << c << "=" << s;
    }
    std::cout << "\n";
  }
  if (listed == 0) std::cout << "  (none)\n";
}

//! The baseline's estimate of the group named as `group` is, or none when the baseline has no such
//! group: the gate and `--show changes` pair groups by name.
const GroupEstimate* BaselineOf(const MatchTable::Group& group, const LabeledInput& before, const Estimates& eb) {
  const auto& groups = before.table.groups;
  const auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.name == group.name; });
  return it == groups.end() ? nullptr : &eb.groups[static_cast<size_t>(it - groups.begin())];
}

//! `--show changes` with --baseline: the reports whose held-out decision the change flips, group
//! by group, so that a gain or a loss the gate reports can be read report by report (a gain of one
//! silent-bug title is one title). Each held-out fold is the group's own (its thresholds fitted on
//! the other groups), before and after.
void PrintChangedReports(const LabeledInput& before, const Estimates& eb, const LabeledInput& after,
                         const Estimates& ea) {
  constexpr size_t kShownPerGroup = 20;
  std::cout << "Reports whose leave-one-group-out decision the change flips:\n";
  size_t changed_total = 0;
  for (size_t g = 0; g < after.table.groups.size(); ++g) {
    const auto& group = after.table.groups[g];
    const GroupEstimate* baseline = BaselineOf(group, before, eb);
    if (baseline == nullptr) continue;
    const auto& a = ea.groups[g].held_out_reports.reports;
    const auto& b = baseline->held_out_reports.reports;
    if (a.size() != b.size()) continue;  // not the same reports: nothing to pair
    size_t changed = 0;
    for (size_t k = 0; k < a.size(); ++k) {
      if (a[k].predicted == b[k].predicted) continue;
      if (++changed > kShownPerGroup) continue;
      const char* what = a[k].positive ? (a[k].predicted ? "found" : "lost") : (a[k].predicted ? "new false flag" : "false flag gone");
      const LabeledReport& report = after.reports[a[k].report];
      std::cout << "  " << TerminalSafe(group.name) << "  " << what << "  " << TerminalSafe(report.id) << "  "
                << TerminalSafe(report.text.First(Field::kTitle)) << "\n";
    }
    if (changed > kShownPerGroup) {
      std::cout << "  " << TerminalSafe(group.name) << "  ... and " << (changed - kShownPerGroup) << " more\n";
    }
    changed_total += changed;
  }
  if (changed_total == 0) std::cout << "  (none)\n";
  std::cout << "\n";
}

//! The gate a change to the rules must pass: the LOGO mean over groups rises and no group falls by
//! more than `max_drop`. Groups are matched by name; a group only one side can score is listed.
//! Beside each change, its paired interval (BootstrapMeanDifference: each replicate draws the same
//! reports for both rule sets): whether the change is more than another sample of the same
//! reports could give. A gain of one report in a group of 41 positives passes the gate and shows
//! an interval that holds 0; a paper should say which it reports. Returns whether the change passes.
bool PrintGate(const LabeledInput& before, const Estimates& eb, const LabeledInput& after, const Estimates& ea,
               double max_drop) {
  std::vector<std::vector<std::string>> rows;
  std::string fallen;
  std::vector<DecidedGroup> after_reports, before_reports;  // the groups both score, paired
  for (size_t g = 0; g < after.table.groups.size(); ++g) {
    const auto& group = after.table.groups[g];
    const GroupScore& a = ea.groups[g].held_out;
    if (!ObjectiveDefined(group, a.confusion)) continue;
    const GroupEstimate* baseline = BaselineOf(group, before, eb);
    const double va = a.Metric(group.objective_f1);
    const std::string objective = group.objective_f1 ? "F1" : "macro-F1";
    if (baseline == nullptr) {
      rows.push_back({group.name, group.positive_name, objective, "n/a", Fixed3(va), "n/a", "n/a"});
      continue;
    }
    const GroupEstimate& b = *baseline;
    const double vb = b.held_out.Metric(group.objective_f1), delta = va - vb;
    if (delta < -max_drop - 1e-9) fallen += (fallen.empty() ? "" : ", ") + TerminalSafe(group.name) + " " + Fixed3(delta);
    after_reports.push_back(ea.groups[g].held_out_reports);
    before_reports.push_back(b.held_out_reports);
    rows.push_back({group.name, group.positive_name, objective, Fixed3(vb), Fixed3(va), SignedFixed3(delta),
                    IntervalText(BootstrapMeanDifference({after_reports.back()}, {before_reports.back()}))});
  }
  const double mb = MeanObjective(before.table, eb, &GroupEstimate::held_out);
  const double ma = MeanObjective(after.table, ea, &GroupEstimate::held_out);
  const std::string mean_interval = IntervalText(BootstrapMeanDifference(after_reports, before_reports));
  rows.push_back({"mean", "", "", Fixed3(mb), Fixed3(ma), SignedFixed3(ma - mb), mean_interval});
  std::cout << "Before (--baseline) and after (--rules), leave-one-group-out, each group's objective; the change's "
               "paired 95% CI (the same resampled reports for both rule sets: a change whose interval holds 0 is "
               "within what another sample of the same size could give):\n";
  WriteTable(std::cout, Format::kTable,
             {"group", "positive", "objective", "before", "after", "change", "change 95% CI"}, rows,
             {false, false, false, true, true, true, true});
  const bool rises = ma > mb + 1e-9;
  const bool pass = rises && fallen.empty();
  std::cout << "gate: " << (pass ? "pass" : "FAIL") << " (the mean " << (rises ? "rises" : "does not rise") << ", "
            << SignedFixed3(ma - mb) << ", paired 95% CI " << mean_interval;
  if (!fallen.empty()) std::cout << "; falling by more than " << Fixed3(max_drop) << ": " << fallen;
  std::cout << ")\n\n";
  return pass;
}

int RunEval(const EvalArgs& args) {
  Format format;
  if (!ParseFormat(args.format, &format)) return Fail(FormatRefusal(args.format));
  if (!args.show.empty() && args.show != "fp" && args.show != "fn" && args.show != "changes") {
    return Fail("--show must be fp, fn or changes");
  }
  if (args.show == "changes" && args.baseline.empty()) return Fail("--show changes compares with --baseline: give it");
  auto input = LoadLabeledInput(args.input);
  if (!input.ok()) return Fail(input.status().message());
  // Leave-one-group-out first: the rule set as written cannot be scored on a group it was not
  // written from, but its thresholds (and with --weights its weights) can be fitted without it.
  FitOptions fit;
  fit.weights = args.weights;
  fit.control_max_rate = input->control_max_rate;
  const DecisionParams written = input->table.ParamsOf(input->database->rules());
  const Estimates estimates = EstimateGroups(input->table, written, fit);
  WarnOfFullyFlaggedGroups(input->table, estimates);
  std::vector<ReferenceWords> lists = input->reference_words;
  if (!args.reference.empty()) lists.clear();
  for (const std::string& text : args.reference) {
    auto list = ParseReferenceWords(text);
    if (!list.ok()) return Fail(list.status().message());
    lists.push_back(*list);
  }
  for (const ReferenceWords& list : lists) {
    // A list no group is scored on would leave its column empty without a word why (a typo).
    const bool used = std::any_of(input->groups.begin(), input->groups.end(),
                                  [&](const GroupDefinition& g) { return g.positive.count(list.category) > 0; });
    if (!used) {
      return Fail("word list for '" + TerminalSafe(list.category) + "' (" + TerminalSafe(list.path) +
                  "): no labeled group is scored on that category");
    }
  }
  ReferenceScores reference;
  if (!lists.empty()) {
    auto scores = ScoreReferenceWords(lists, input->reports, input->groups, input->report_group);
    if (!scores.ok()) return Fail(scores.status().message());
    reference = std::move(*scores);
  }
  // The rules before a change, loaded before anything is printed: the provenance names them.
  std::optional<LabeledInput> before;
  if (!args.baseline.empty()) {
    if (format != Format::kTable) return Fail("--baseline prints a table: use --format table");
    LabeledInputArgs before_args = args.input;
    before_args.rules = args.baseline;
    auto loaded = LoadLabeledInput(before_args);
    if (!loaded.ok()) return Fail("--baseline: " + loaded.status().message());
    before = std::move(loaded).value();
  }
  auto provenance = ProvenanceOf(*input, before ? &before->database->rules() : nullptr, lists);
  if (!provenance.ok()) return Fail(provenance.status().message());
  if (format == Format::kTable) std::cout << TerminalSafe(ProvenanceLine(*provenance)) << "\n";
  if (format == Format::kCsv) std::cerr << TerminalSafe(ProvenanceLine(*provenance)) << "\n";
  bool gate_passed = true;
  if (before) {
    const Estimates before_estimates =
        EstimateGroups(before->table, before->table.ParamsOf(before->database->rules()), fit);
    gate_passed = PrintGate(*before, before_estimates, *input, estimates, args.gate_drop);
    // A change that passes the gate can still slow the rule scan of every ingest: timed beside it.
    if (args.speed_seconds > 0) {
      const TimedPair speed = CompareScanSpeed(before->database, input->database, input->reports, args.speed_seconds);
      std::cout << "scan speed (every field of these reports, one thread): this set, against the baseline, "
                << DescribeSpeedAgainst(speed) << "\n";
    }
    if (args.show == "changes") PrintChangedReports(*before, before_estimates, *input, estimates);
  }
  const std::vector<ScoreColumn> blocks = {{"LOGO", &GroupEstimate::held_out}, {"in-sample", &GroupEstimate::written}};
  if (format == Format::kCsv) {
    // The per-group table alone, for a notebook or a paper; the rest of the report is a table's.
    std::cerr << FittedLayerNote(input->database->rules(), input->table, provenance->data_digest);
    PrintEstimateCsv(std::cout, input->table, estimates, blocks, reference);
    return kExitOk;
  }
  if (format == Format::kJson) {
    std::cerr << FittedLayerNote(input->database->rules(), input->table, provenance->data_digest);
    std::cout << "{\"provenance\": ";
    PrintProvenanceJson(std::cout, *provenance);
    std::cout << ",\n\"estimates\": ";
    PrintEstimateJson(std::cout, input->table, estimates, blocks, reference);
    std::cout << ",\n\"sets\": [";
  } else {
    std::cout << LogoHeading(input->table, args.weights ? "thresholds and weights" : "thresholds")
              << "in-sample: the rule set as written, scored on each group.\n";
    if (!lists.empty()) {
      std::cout << "word list: a report is flagged when a word of its category's list is in its title or body (no "
                   "weights, thresholds or verdict):";
      for (const ReferenceWords& list : lists) std::cout << " " << list.category << " " << TerminalSafe(list.path);
      std::cout << ".\n";
    }
    std::cout << FittedLayerNote(input->database->rules(), input->table, provenance->data_digest) << "\n";
    PrintEstimateTable(std::cout, input->table, estimates, blocks, input->control_max_rate, reference);
    const std::string logo_mean = MeanText(input->table, estimates, &GroupEstimate::held_out);
    std::cout << "summary: mean over groups of each group's objective: LOGO " << logo_mean
              << (logo_mean.starts_with("n/a") ? "" : " (95% CI " + IntervalText(estimates.held_out_mean_interval) + ")")
              << ", in-sample "
              << MeanText(input->table, estimates, &GroupEstimate::written);
    if (!logo_mean.starts_with("n/a")) {
      std::cout << ", constant (all or none flagged, the better) " << Fixed3(MeanConstant(input->table, estimates));
    }
    std::cout << "\n";
    if (!reference.empty()) std::cout << "summary: " << ReferenceSummary(input->table, estimates, reference) << "\n";
  }
  bool first = true;
  for (const auto& [target, indices] : input->targets) {
    std::vector<LabeledReport> reports;
    std::vector<ReportVerdict> verdicts;
    for (size_t i : indices) reports.push_back(input->reports[i]), verdicts.push_back(input->verdicts[i]);
    const Evaluation e = Evaluate(reports, verdicts, target);
    const std::string name = target.Name();
    if (format == Format::kJson) {
      std::cout << (first ? "\n" : ",\n");
      PrintJson(e, name);
    } else {
      std::cout << "\n== rules as written, positive " << name << " ==\n";
      PrintTable(e);
      if (args.show == "fp" || args.show == "fn") PrintMisclassified(*input, target, indices, args.show);
    }
    first = false;
  }
  if (format == Format::kJson) std::cout << "]}\n";
  // A failed gate is a result, not an error: exit 1, as a search that finds nothing.
  return gate_passed ? kExitOk : kExitCheckFailed;
}

}  // namespace

void AddRulesEvalCommand(CLI::App& command, int& exit_code) {
  auto args = std::make_shared<EvalArgs>();
  CLI::App* cmd = &command;
  AddLabeledInputOptions(*cmd, args->input);
  cmd->add_option("--format", args->format,
                  "table, json, or csv (one row per group: the leave-one-group-out and in-sample figures, the "
                  "word list's, the constant answer's)")
      ->capture_default_str();
  cmd->add_option("--show", args->show,
                  "List reports: fp or fn (misclassified as written), or changes (with --baseline: those whose "
                  "leave-one-group-out decision the change flips)");
  cmd->add_flag("--weights", args->weights, "Fit rule weights too in the leave-one-group-out folds");
  cmd->add_option("--reference", args->reference,
                  "CATEGORY=FILE: a word list (one word or phrase a line) scored beside the rules, flagging a report "
                  "whose title or body holds one of its words; repeat for other categories; replaces the suite's "
                  "reference_words");
  AddRulesOption(*cmd, args->baseline, "--baseline",
                 "Rules to compare with (the set before a change; repeat for layers): prints each group's "
                 "leave-one-group-out figure before and after and the gate (the mean rises, no group falls by "
                 "more than --gate-drop); exit status 1 when the gate fails");
  cmd->add_option("--speed-seconds", args->speed_seconds,
                  "With --baseline: least time of each of the " + std::to_string(kMarginalRepeats) +
                      " alternating timings of both sets' scan speed over these reports (0: not timed)")
      ->check(NumberCheck(0))
      ->capture_default_str();
  cmd->add_option("--gate-drop", args->gate_drop, "With --baseline: how much one group may fall")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->callback([args, &exit_code] { exit_code = RunEval(*args); });
}

}  // namespace ghsift::cli
