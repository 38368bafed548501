// ghsift rules tune --labels FILE... [--rules PATH] [--positive C,...] [--write FILE]
#include <cstdio>
#include <fstream>
#include <iostream>

#include "commands/commands.hpp"
#include "commands/labeled_input.hpp"
#include "eval/threshold_tuner.hpp"

namespace ghsift::cli {
namespace {

struct TuneArgs {
  LabeledInputArgs input;
  double step = 0.25;
  double max = 3.0;
  std::string write;
};

std::string Thresholds(const std::map<std::string, double>& t) {
  std::string out;
  char buf[64];
  for (const auto& [c, v] : t) {
    std::snprintf(buf, sizeof buf, "%s%s=%.2f", out.empty() ? "" : " ", c.c_str(), v);
    out += buf;
  }
  return out;
}

int RunTune(const TuneArgs& args) {
  auto input = LoadLabeledInput(args.input);
  if (!input.ok()) return Fail(input.status().message());
  const TuneResult r = TuneThresholds(input->reports, input->verdicts, input->positive,
                                      input->database->rules().thresholds, args.step, args.max);
  std::printf("current thresholds: macro-F1 %.3f on %zu reports\n", r.baseline_macro_f1, input->reports.size());
  std::printf("best thresholds:    %s  macro-F1 %.3f (fitted on all reports: optimistic)\n",
              Thresholds(r.thresholds).c_str(), r.macro_f1);
  if (!r.held_out.empty()) {
    std::printf("leave-one-group-out (thresholds fitted on the other groups, scored on the held-out one):\n");
    double sum = 0;
    for (const auto& [group, result] : r.held_out) {
      std::printf("  %-20s %s  macro-F1 %.3f\n", group.c_str(), Thresholds(result.first).c_str(), result.second);
      sum += result.second;
    }
    std::printf("  %-20s macro-F1 %.3f (mean over held-out groups)\n", "mean", sum / r.held_out.size());
  }
  if (!args.write.empty()) {
    std::ofstream out(args.write);
    out << "# Category thresholds proposed by `ghsift rules tune`; use instead of the thresholds in the\n"
           "# rule set's own files (a category's threshold may be defined once).\ncategories:\n";
    for (const auto& [c, v] : r.thresholds) out << "  " << c << ": {threshold: " << v << "}\n";
    if (!out) return Fail(args.write + ": cannot write");
    std::printf("wrote %s\n", args.write.c_str());
  }
  return kExitOk;
}

}  // namespace

void AddRulesTuneCommand(CLI::App& rules, int& exit_code) {
  auto args = std::make_shared<TuneArgs>();
  CLI::App* cmd = rules.add_subcommand("tune", "Propose category thresholds that maximize macro-F1, with a "
                                               "leave-one-framework-out estimate");
  AddLabeledInputOptions(*cmd, args->input);
  cmd->add_option("--step", args->step, "Threshold grid step")->capture_default_str();
  cmd->add_option("--max", args->max, "Largest threshold tried")->capture_default_str();
  cmd->add_option("--write", args->write, "Write the proposed thresholds as a YAML categories file");
  cmd->callback([args, &exit_code] { exit_code = RunTune(*args); });
}

}  // namespace ghsift::cli
