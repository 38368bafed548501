// ghsift rules bench [--rules PATH]... [--limit N] [--top K] FILE...   (labeled CSV/JSONL or dumps)
#include <cstdio>
#include <iostream>

#include "commands/commands.hpp"
#include "commands/common_options.hpp"
#include "eval/rule_bench.hpp"
#include "output.hpp"
#include "pipelines/input_files.hpp"

namespace ghsift::cli {
namespace {

LabelOptions TextOnly() {
  LabelOptions o;
  o.require_label = false;  // bench reads the text, not the labels
  return o;
}

struct RulesBenchArgs {
  std::vector<std::string> rules;  //!< layers, in order
  std::vector<std::string> inputs;
  size_t limit = 20000;
  size_t top = 3;
  double seconds = 0.3;
};

bool IsLabeledFile(const std::string& path) {
  return path.ends_with(".csv") || path.ends_with(".jsonl");
}

int RunRulesBench(const RulesBenchArgs& args) {
  auto rules = LoadRuleLayersOrDefault(args.rules);
  if (!rules.ok()) return Fail(rules.status().message());
  std::vector<LabeledReport> reports;
  for (const std::string& input : args.inputs) {
    auto read = IsLabeledFile(input) ? ReadLabeledReports(input, TextOnly())
                                     : ReadReportsFromDump(input, args.limit - std::min(args.limit, reports.size()));
    if (!read.ok()) return Fail(read.status().message());
    for (auto& r : *read) reports.push_back(std::move(r));
  }
  std::fprintf(stderr, "ghsift: verifying %zu rules one by one against the whole database, then timing...\n",
               rules->rules.size());
  auto result = BenchRules(*rules, reports, args.top, args.seconds);
  if (!result.ok()) return Fail(result.status().message());
  std::printf("%llu reports, %s of text per pass; matches verified against each rule alone\n",
              static_cast<unsigned long long>(result->reports), HumanBytes(static_cast<double>(result->bytes)).c_str());
  std::printf("whole rule set: %.1f MB/s of report text (one thread)\n\n", result->mb_per_s);
  std::vector<std::vector<std::string>> rows;
  char buf[64];
  for (const RuleCost& c : result->rules) {
    std::snprintf(buf, sizeof buf, "%.1f", c.alone_mb_per_s);
    rows.push_back({c.id, buf, c.marginal ? FormatMarginalShare(*c.marginal) : "-"});
  }
  WriteTable(std::cout, Format::kTable, {"rule (costliest first)", "alone MB/s", "share of full scan"}, rows,
             {false, true, true});
  if (args.top > 0) {
    std::printf("\nshare of full scan: the time the whole set loses without the rule, median of %d alternating "
                "timings each; +- is the spread of timings of one database (noise), and a share within it is "
                "shown as <=noise\n",
                kMarginalRepeats);
  }
  return kExitOk;
}

}  // namespace

void AddRulesBenchCommand(CLI::App& rules, int& exit_code) {
  auto args = std::make_shared<RulesBenchArgs>();
  CLI::App* cmd = rules.add_subcommand("bench", "Scan speed of a rule set and each rule's cost, on labeled reports "
                                                "(CSV/JSONL) or dump files");
  AddRulesOption(*cmd, args->rules);
  cmd->add_option("inputs", args->inputs, "Labeled files (*.csv, *.jsonl) or GH Archive dumps")->required();
  cmd->add_option("--limit", args->limit, "Reports read from dumps at most")
      ->check(PositiveCountCheck())
      ->capture_default_str();
  cmd->add_option("--top", args->top, "Costliest rules whose marginal cost is measured (each compiles the set "
                                      "without it and times both 5 times)")
      ->capture_default_str();
  cmd->add_option("--seconds", args->seconds, "Least time per measurement")->capture_default_str();
  cmd->callback([args, &exit_code] { exit_code = RunRulesBench(*args); });
}

}  // namespace ghsift::cli
