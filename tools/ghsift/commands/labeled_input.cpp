#include "commands/labeled_input.hpp"

#include <sstream>

#include "commands/common_options.hpp"

namespace ghsift::cli {

void AddLabeledInputOptions(CLI::App& cmd, LabeledInputArgs& args) {
  cmd.add_option("--labels", args.labels, "Labeled reports: MHNurf CSV (*.csv) or JSONL files")->required();
  AddRulesOption(cmd, args.rules);
  cmd.add_option("--positive", args.positive, "Categories whose union predicts the binary label")
      ->capture_default_str();
  cmd.add_option("--label-key", args.label_key, "Integer field holding the binary label")->capture_default_str();
  cmd.add_option("--issue-dir", args.issue_dir, "Directory of GitHub API issue objects NUMBER.json giving bodies");
}

Result<LabeledInput> LoadLabeledInput(const LabeledInputArgs& args) {
  LabeledInput input;
  // Per-rule databases: after a rule edit only that rule compiles (the rule-editing loop).
  auto db = LoadRules(args.rules, RuleDatabase::Mode::kFlag, RuleDatabase::Layout::kPerRule);
  if (!db.ok()) return db.status();
  input.database = *db;
  LabelOptions options{args.label_key, args.issue_dir};
  for (const std::string& file : args.labels) {
    auto reports = ReadLabeledReports(file, options);
    if (!reports.ok()) return reports.status();
    for (auto& r : *reports) input.reports.push_back(std::move(r));
  }
  std::stringstream list(args.positive);
  std::string item;
  while (std::getline(list, item, ',')) {
    if (!item.empty()) input.positive.insert(item);
  }
  const auto categories = input.database->rules().Categories();
  for (const std::string& c : input.positive) {
    if (std::find(categories.begin(), categories.end(), c) == categories.end()) {
      return Status::InvalidArgument("--positive: no rule has category '" + c + "'");
    }
  }
  input.verdicts = JudgeReports(input.database, input.reports);
  return input;
}

}  // namespace ghsift::cli
