// ghsift rules eval (--labels FILE... | --suite FILE [--data DIR]) [--rules PATH] [--positive C,...] [--weights]
//                   [--format table|json] [--show fp|fn]
#include <cstdio>
#include <iostream>
#include <sstream>

#include "commands/commands.hpp"
#include "commands/estimate_output.hpp"
#include "commands/labeled_input.hpp"
#include "output.hpp"

namespace ghsift::cli {
namespace {

struct EvalArgs {
  LabeledInputArgs input;
  std::string format = "table";
  std::string show;
  bool weights = false;
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

void PrintMisclassified(const LabeledInput& in, const std::set<std::string>& positive,
                        const std::vector<size_t>& reports, const std::string& which) {
  std::cout << "\n" << (which == "fp" ? "False positives" : "False negatives") << ":\n";
  size_t listed = 0;
  for (size_t i : reports) {
    bool known = false;
    const bool actual = ActualPositive(in.reports[i], positive, &known);
    const auto& cats = in.verdicts[i].categories;
    const bool predicted =
        std::any_of(cats.begin(), cats.end(), [&](const std::string& c) { return positive.count(c) > 0; });
    if (!known || (which == "fp" ? !(predicted && !actual) : !(!predicted && actual))) continue;
    ++listed;
    std::cout << in.reports[i].id << "  " << in.reports[i].title << "\n    rules:";
    for (const auto& r : in.verdicts[i].rules) std::cout << " " << r;
    std::cout << "\n    scores:";
    for (const auto& [c, s] : in.verdicts[i].scores) {
      if (s != 0) std::cout << " " << c << "=" << s;
    }
    std::cout << "\n";
  }
  if (listed == 0) std::cout << "  (none)\n";
}

int RunEval(const EvalArgs& args) {
  Format format;
  if (!ParseFormat(args.format, &format) || format == Format::kCsv) return Fail("--format must be table or json");
  if (!args.show.empty() && args.show != "fp" && args.show != "fn") return Fail("--show must be fp or fn");
  auto input = LoadLabeledInput(args.input);
  if (!input.ok()) return Fail(input.status().message());
  // Leave-one-group-out first: the rule set as written cannot be scored on a group it was not
  // written from, but its thresholds (and with --weights its weights) can be fitted without it.
  FitOptions fit;
  fit.weights = args.weights;
  fit.control_max_rate = input->control_max_rate;
  const DecisionParams written = input->table.ParamsOf(input->database->rules());
  const Estimates estimates = EstimateGroups(input->table, written, fit);
  const std::vector<ScoreColumn> blocks = {{"LOGO", &GroupEstimate::held_out}, {"in-sample", &GroupEstimate::written}};
  if (format == Format::kJson) {
    std::cerr << FittedLayerNote(input->database->rules(), input->table);
    std::cout << "{\"estimates\": ";
    PrintEstimateJson(std::cout, input->table, estimates, blocks);
    std::cout << ",\n\"sets\": [";
  } else {
    std::cout << LogoHeading(input->table, args.weights ? "thresholds and weights" : "thresholds")
              << "in-sample: the rule set as written, scored on each group.\n";
    std::cout << FittedLayerNote(input->database->rules(), input->table) << "\n";
    PrintEstimateTable(std::cout, input->table, estimates, blocks, input->control_max_rate);
    std::cout << "summary: mean over groups of each group's objective: LOGO "
              << MeanText(input->table, estimates, &GroupEstimate::held_out) << ", in-sample "
              << MeanText(input->table, estimates, &GroupEstimate::written) << "\n";
  }
  bool first = true;
  for (const auto& [positive, indices] : input->positive_sets) {
    std::vector<LabeledReport> reports;
    std::vector<ReportVerdict> verdicts;
    for (size_t i : indices) reports.push_back(input->reports[i]), verdicts.push_back(input->verdicts[i]);
    const Evaluation e = Evaluate(reports, verdicts, positive);
    std::string name;
    for (const std::string& c : positive) name += (name.empty() ? "" : ",") + c;
    if (format == Format::kJson) {
      std::cout << (first ? "\n" : ",\n");
      PrintJson(e, name);
    } else {
      std::cout << "\n== rules as written, positive " << name << " ==\n";
      PrintTable(e);
      if (!args.show.empty()) PrintMisclassified(*input, positive, indices, args.show);
    }
    first = false;
  }
  if (format == Format::kJson) std::cout << "]}\n";
  return kExitOk;
}

}  // namespace

void AddRulesEvalCommand(CLI::App& rules, int& exit_code) {
  auto args = std::make_shared<EvalArgs>();
  CLI::App* cmd = rules.add_subcommand("eval", "Precision, recall, F1 and macro-F1 of a rule set on labeled reports");
  AddLabeledInputOptions(*cmd, args->input);
  cmd->add_option("--format", args->format, "table or json")->capture_default_str();
  cmd->add_option("--show", args->show, "List misclassified reports: fp or fn");
  cmd->add_flag("--weights", args->weights, "Fit rule weights too in the leave-one-group-out folds");
  cmd->callback([args, &exit_code] { exit_code = RunEval(*args); });
}

}  // namespace ghsift::cli
