#pragma once
// Options shared by `rules eval` and `rules tune`: labeled files, rules, positive categories.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "eval/evaluation.hpp"

namespace ghsift::cli {

struct LabeledInputArgs {
  std::vector<std::string> labels;  //!< files
  std::vector<std::string> rules;  //!< layers, in order
  std::string positive = "performance,accuracy";
  std::string label_key = "class";
  std::string issue_dir;
};

void AddLabeledInputOptions(CLI::App& cmd, LabeledInputArgs& args);

struct LabeledInput {
  std::shared_ptr<const RuleDatabase> database;
  std::vector<LabeledReport> reports;
  std::vector<ReportVerdict> verdicts;
  std::set<std::string> positive;
};

//! Loads rules and reports and judges every report; the Status names what failed.
Result<LabeledInput> LoadLabeledInput(const LabeledInputArgs& args);

}  // namespace ghsift::cli
