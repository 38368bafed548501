// ghsift rules bench [--rules PATH]... [--baseline PATH]... [--limit N] [--top K] FILE...   (labeled CSV/JSONL or dumps)
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

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
  std::vector<std::string> baseline;  //!< rule layers to compare with (the rules before a change)
  std::vector<std::string> inputs;
  size_t limit = 20000;
  size_t top = 3;
  double seconds = 0.3;
  bool progress = false;
};

//! "45 s", "3 min 10 s", "1 h 05 min": a time left, as precise as it is worth.
std::string Duration(double seconds) {
  const long s = std::lround(std::max(seconds, 0.0));
  char text[32];
  if (s < 60) std::snprintf(text, sizeof text, "%ld s", s);
  else if (s < 3600) std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
  else std::snprintf(text, sizeof text, "%ld h %02ld min", s / 3600, s / 60 % 60);
  return text;
}

//! The bench's progress on stderr: on a terminal one line redrawn (at most 4 times a second);
//! elsewhere (with --progress) a line when a step starts and then every 10 seconds.
class BenchProgressLine {
 public:
  explicit BenchProgressLine(bool terminal) : terminal_(terminal) {}
  ~BenchProgressLine() {
    if (terminal_ && drawn_) std::fprintf(stderr, "\r\033[K");
  }
  void Show(const BenchProgress& p) {
    const auto now = std::chrono::steady_clock::now();
    const bool new_step = !drawn_ || p.step != step_;
    const double since_last = std::chrono::duration<double>(now - last_).count();
    if (!new_step && since_last < (terminal_ ? 0.25 : 10.0)) return;
    const char* what = p.step == BenchProgress::Step::kVerify ? "verifying each rule alone"
                       : p.step == BenchProgress::Step::kTime ? "timing the set and each rule"
                                                              : "timing the set without each costliest rule";
    char line[160];
    std::snprintf(line, sizeof line, "ghsift: rules bench: %s, %zu/%zu; about %s left", what, p.done, p.total,
                  Duration(p.seconds_left).c_str());
    if (terminal_) std::fprintf(stderr, "\r\033[K%s", line);
    else std::fprintf(stderr, "%s\n", line);
    std::fflush(stderr);
    drawn_ = true;
    step_ = p.step;
    last_ = now;
  }

 private:
  bool terminal_;
  bool drawn_ = false;
  BenchProgress::Step step_ = BenchProgress::Step::kVerify;
  std::chrono::steady_clock::time_point last_;
};

bool IsLabeledFile(const std::string& path) {
  return path.ends_with(".csv") || path.ends_with(".jsonl");
}

int RunRulesBench(const RulesBenchArgs& args) {
  auto rules = LoadRuleLayersOrDefault(args.rules);
  if (!rules.ok()) return Fail(rules.status().message());
  // Compiled before the long steps, so that a bad baseline fails at once, in the words
  // `rules eval --baseline` uses.
  std::shared_ptr<const RuleDatabase> baseline;
  if (!args.baseline.empty()) {
    auto loaded = LoadRuleLayers(args.baseline);
    if (!loaded.ok()) return Fail("--baseline: " + loaded.status().message());
    auto compiled = RuleDatabase::Compile(*loaded);
    if (!compiled.ok()) return Fail("--baseline: " + compiled.status().message());
    baseline = *compiled;
  }
  std::vector<LabeledReport> reports;
  for (const std::string& input : args.inputs) {
    auto read = IsLabeledFile(input) ? ReadLabeledReports(input, TextOnly())
                                     : ReadReportsFromDump(input, args.limit - std::min(args.limit, reports.size()));
    if (!read.ok()) return Fail(read.status().message());
    for (auto& r : *read) reports.push_back(std::move(r));
  }
  std::fprintf(stderr, "ghsift: verifying %zu rules one by one against the whole database, then timing...\n",
               rules->rules.size());
  const bool terminal = ::isatty(STDERR_FILENO);
  std::optional<BenchProgressLine> line;
  if (terminal || args.progress) line.emplace(terminal);
  RuleBenchOptions options;
  options.marginal_top = args.top;
  options.min_seconds = args.seconds;
  options.baseline = baseline;
  options.progress = [&](const BenchProgress& p) { if (line) line->Show(p); };
  auto result = BenchRules(*rules, reports, options);
  line.reset();  // the terminal's progress line cleared before the results
  if (!result.ok()) return Fail(result.status().message());
  std::printf("%llu reports, %s of text per pass; matches verified against each rule alone\n",
              static_cast<unsigned long long>(result->reports), HumanBytes(static_cast<double>(result->bytes)).c_str());
  std::printf("whole rule set: %.1f MB/s of report text (one thread)\n", result->mb_per_s);
  if (result->against_baseline) {
    // The question a rule edit asks: does ingest's rule scan get slower? The edited set is
    // compiled as a whole, so it is timed whole, against the set before the edit.
    std::printf("baseline rule set (--baseline): %.1f MB/s; this set %s\n", *result->baseline_mb_per_s,
                DescribeSpeedAgainst(*result->against_baseline).c_str());
  }
  std::printf("\n");
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
                "shown as <=noise; a negative share is a set that timed slower without the rule, beyond the "
                "noise\n",
                kMarginalRepeats);
  }
  return kExitOk;
}

}  // namespace

void AddRulesBenchCommand(CLI::App& command, int& exit_code) {
  auto args = std::make_shared<RulesBenchArgs>();
  CLI::App* cmd = &command;
  AddRulesOption(*cmd, args->rules);
  AddRulesOption(*cmd, args->baseline, "--baseline",
                 "Rule file or directory to time against the rules (the rules before a change; repeat to layer), "
                 "alternately over the same reports");
  cmd->add_option("inputs", args->inputs, "Labeled files (*.csv, *.jsonl) or GH Archive dumps")->required();
  cmd->add_option("--limit", args->limit, "Reports read from dumps at most")
      ->check(PositiveCountCheck())
      ->capture_default_str();
  cmd->add_option("--top", args->top, "Costliest rules whose marginal cost is measured (each compiles the set "
                                      "without it and times both 5 times)")
      ->capture_default_str();
  cmd->add_option("--seconds", args->seconds, "Least time per measurement")->check(NumberCheck(0))->capture_default_str();
  cmd->add_flag("--progress", args->progress,
                "Progress and an estimate of the time left on stderr even when it is no terminal (on a terminal: "
                "always)");
  cmd->callback([args, &exit_code] { exit_code = RunRulesBench(*args); });
}

}  // namespace ghsift::cli
