// ghsift rules eval --labels FILE... [--rules PATH] [--positive C,...] [--format table|json] [--show fp|fn]
#include <cstdio>
#include <iostream>
#include <sstream>

#include "commands/commands.hpp"
#include "commands/labeled_input.hpp"
#include "output.hpp"

namespace ghsift::cli {
namespace {

struct EvalArgs {
  LabeledInputArgs input;
  std::string format = "table";
  std::string show;
};

std::string Fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

std::string ConfusionJson(const Confusion& c) {
  std::ostringstream out;
  out << "{\"tp\": " << c.tp << ", \"fp\": " << c.fp << ", \"fn\": " << c.fn << ", \"tn\": " << c.tn
      << ", \"precision\": " << Fixed(c.precision()) << ", \"recall\": " << Fixed(c.recall())
      << ", \"f1\": " << Fixed(c.f1()) << ", \"macro_f1\": " << Fixed(c.macro_f1()) << "}";
  return out.str();
}

std::vector<std::string> ConfusionRow(const std::string& name, const Confusion& c) {
  return {name,          std::to_string(c.tp), std::to_string(c.fp), std::to_string(c.fn), std::to_string(c.tn),
          Fixed(c.precision()), Fixed(c.recall()), Fixed(c.f1()), Fixed(c.macro_f1())};
}

void PrintJson(const Evaluation& e) {
  const Confusion& o = e.overall;
  std::cout << "{\n  \"tp\": " << o.tp << ",\n  \"fp\": " << o.fp << ",\n  \"fn\": " << o.fn << ",\n  \"tn\": " << o.tn
            << ",\n  \"precision\": " << Fixed(o.precision()) << ",\n  \"recall\": " << Fixed(o.recall())
            << ",\n  \"f1\": " << Fixed(o.f1()) << ",\n  \"macro_f1\": " << Fixed(o.macro_f1())
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
              << ", \"precision\": " << Fixed(h.hits ? static_cast<double>(h.positive_hits) / h.hits : 0) << "}";
    first = false;
  }
  std::cout << "\n  }\n}\n";
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
    WriteTable(std::cout, Format::kTable, columns, rows, numeric);
  }
  rows.clear();
  for (const auto& [category, n] : e.flagged) rows.push_back({category, std::to_string(n)});
  std::cout << "\nReports flagged per category:\n";
  WriteTable(std::cout, Format::kTable, {"category", "flagged"}, rows, {false, true});
  rows.clear();
  for (const auto& [rule, h] : e.per_rule) {
    rows.push_back({rule, std::to_string(h.hits), std::to_string(h.positive_hits),
                    Fixed(h.hits ? static_cast<double>(h.positive_hits) / h.hits : 0)});
  }
  std::cout << "\nPer rule:\n";
  WriteTable(std::cout, Format::kTable, {"rule", "hits", "positive_hits", "precision"}, rows,
             {false, true, true, true});
}

void PrintMisclassified(const LabeledInput& in, const std::string& which) {
  std::cout << "\n" << (which == "fp" ? "False positives" : "False negatives") << ":\n";
  for (size_t i = 0; i < in.reports.size(); ++i) {
    bool known = false;
    const bool actual = ActualPositive(in.reports[i], in.positive, &known);
    const auto& cats = in.verdicts[i].categories;
    const bool predicted =
        std::any_of(cats.begin(), cats.end(), [&](const std::string& c) { return in.positive.count(c) > 0; });
    if (!known || (which == "fp" ? !(predicted && !actual) : !(!predicted && actual))) continue;
    std::cout << in.reports[i].id << "  " << in.reports[i].title << "\n    rules:";
    for (const auto& r : in.verdicts[i].rules) std::cout << " " << r;
    std::cout << "\n    scores:";
    for (const auto& [c, s] : in.verdicts[i].scores) {
      if (s != 0) std::cout << " " << c << "=" << s;
    }
    std::cout << "\n";
  }
}

int RunEval(const EvalArgs& args) {
  Format format;
  if (!ParseFormat(args.format, &format) || format == Format::kCsv) return Fail("--format must be table or json");
  if (!args.show.empty() && args.show != "fp" && args.show != "fn") return Fail("--show must be fp or fn");
  auto input = LoadLabeledInput(args.input);
  if (!input.ok()) return Fail(input.status().message());
  const Evaluation e = Evaluate(input->reports, input->verdicts, input->positive);
  if (format == Format::kJson) {
    PrintJson(e);
  } else {
    PrintTable(e);
  }
  if (!args.show.empty()) PrintMisclassified(*input, args.show);
  return kExitOk;
}

}  // namespace

void AddRulesEvalCommand(CLI::App& rules, int& exit_code) {
  auto args = std::make_shared<EvalArgs>();
  CLI::App* cmd = rules.add_subcommand("eval", "Precision, recall, F1 and macro-F1 of a rule set on labeled reports");
  AddLabeledInputOptions(*cmd, args->input);
  cmd->add_option("--format", args->format, "table or json")->capture_default_str();
  cmd->add_option("--show", args->show, "List misclassified reports: fp or fn");
  cmd->callback([args, &exit_code] { exit_code = RunEval(*args); });
}

}  // namespace ghsift::cli
