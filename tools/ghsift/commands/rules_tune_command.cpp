// ghsift rules tune (--labels FILE... | --suite FILE [--data DIR]) [--rules PATH] [--weights] [--write OVERLAY.yaml]
#include <ctime>
#include <limits>
#include <fstream>
#include <iostream>

#include "commands/commands.hpp"
#include "commands/common_options.hpp"
#include "commands/estimate_output.hpp"
#include "commands/eval_provenance.hpp"
#include "output.hpp"
#include "commands/labeled_input.hpp"
#include "eval/rule_overlay.hpp"

namespace ghsift::cli {
namespace {

struct TuneArgs {
  LabeledInputArgs input;
  FitOptions fit;
  std::string write;
};

void PrintChanges(const RuleOverlay& overlay, const RuleSet& rules) {
  const size_t changed = overlay.thresholds.size() + overlay.weights.size();
  std::cout << "Fitted on every group: " << Counted(overlay.thresholds.size(), "threshold") << " and "
            << Counted(overlay.weights.size(), "rule weight") << (changed == 1 ? " differs" : " differ")
            << " from the rule set as written\n";
  for (const auto& [c, t] : overlay.thresholds) {
    std::cout << "  threshold " << c << ": " << rules.ThresholdOf(c) << " -> " << t << "\n";
  }
  for (const Rule& r : rules.rules) {
    if (const auto it = overlay.weights.find(r.id); it != overlay.weights.end()) {
      std::cout << "  weight " << r.id << ": " << r.weight << " -> " << it->second << "\n";
    }
  }
}

int RunTune(const TuneArgs& args) {
  auto input = LoadLabeledInput(args.input);
  if (!input.ok()) return Fail(input.status().message());
  auto provenance = ProvenanceOf(*input);
  if (!provenance.ok()) return Fail(provenance.status().message());
  std::cout << TerminalSafe(ProvenanceLine(*provenance)) << "\n";
  FitOptions fit = args.fit;
  fit.control_max_rate = input->control_max_rate;
  const RuleSet& rules = input->database->rules();
  const DecisionParams written = input->table.ParamsOf(rules);
  const Estimates e = EstimateGroups(input->table, written, fit);
  WarnOfFullyFlaggedGroups(input->table, e);  // a fit there would chase what cannot be measured
  const std::string what = fit.weights ? "thresholds and weights" : "thresholds";
  std::cout << LogoHeading(input->table, what) << "in-sample: " << what << " fitted on every group, scored on each (optimistic).\n"
            << "as written: the rule set's own values.\n\n";
  PrintEstimateTable(std::cout, input->table, e,
                     {{"LOGO", &GroupEstimate::held_out},
                      {"in-sample", &GroupEstimate::in_sample, false},
                      {"as written", &GroupEstimate::written, false}},
                     input->control_max_rate);
  const double logo = MeanObjective(input->table, e, &GroupEstimate::held_out);
  const double in_sample = MeanObjective(input->table, e, &GroupEstimate::in_sample);
  const double as_written = MeanObjective(input->table, e, &GroupEstimate::written);
  std::cout << "summary: mean over groups of each group's objective: LOGO "
            << MeanText(input->table, e, &GroupEstimate::held_out) << ", in-sample "
            << MeanText(input->table, e, &GroupEstimate::in_sample) << ", as written "
            << MeanText(input->table, e, &GroupEstimate::written) << "\n\n";
  const RuleOverlay overlay = OverlayOf(input->table, written, e.fitted);
  PrintChanges(overlay, rules);
  if (!args.write.empty()) {
    std::string groups;
    FittedLayer fitted{args.write, {}, logo};
    StampFitted(fitted, *provenance);
    for (const auto& g : input->table.groups) {
      groups += (groups.empty() ? "" : ", ") + g.name;
      fitted.groups.push_back(g.name);
    }
    const std::string comment =
        "Overlay fitted by `ghsift rules tune" + std::string(fit.weights ? " --weights" : "") + "` (" + what +
        ", grid " + Fixed3(fit.step) + ", L1 " + Fixed3(fit.l1) + ") on the groups: " + groups +
        ".\nLeave-one-group-out estimate (mean of each group's objective): " + Fixed3(logo) + " (in-sample " +
        Fixed3(in_sample) + ", rule set as written " + Fixed3(as_written) +
        ").\nLoad it after the rule set it was fitted on: later --rules layers override weights and thresholds by id.";
    std::ofstream out(args.write);
    out << FormatOverlayYaml(overlay, comment, &fitted);
    if (!out) return Fail(Status::IoErrorFromErrno(args.write + ": cannot write").message());
    std::cout << "wrote " << args.write << "\n";
  }
  return kExitOk;
}

}  // namespace

void AddRulesTuneCommand(CLI::App& command, int& exit_code) {
  auto args = std::make_shared<TuneArgs>();
  CLI::App* cmd = &command;
  AddLabeledInputOptions(*cmd, args->input);
  cmd->add_flag("--weights", args->fit.weights, "Fit each rule's weight as well as each category's threshold");
  // A grid step of 0 or less would try no value and "fit" nothing; a largest threshold of 0 or
  // less would flag every report.
  cmd->add_option("--step", args->fit.step, "Grid of weights and thresholds")
      ->check(NumberCheck(0, std::numeric_limits<double>::infinity(), true))
      ->capture_default_str();
  cmd->add_option("--max", args->fit.max_threshold, "Largest threshold tried")
      ->check(NumberCheck(0, std::numeric_limits<double>::infinity(), true))
      ->capture_default_str();
  cmd->add_option("--l1", args->fit.l1, "Objective cost per unit of change from a written value")
      ->check(NumberCheck(0))
      ->capture_default_str();
  cmd->add_option("--write", args->write, "Write the changed weights and thresholds as an overlay YAML");
  cmd->callback([args, &exit_code] { exit_code = RunTune(*args); });
}

}  // namespace ghsift::cli
