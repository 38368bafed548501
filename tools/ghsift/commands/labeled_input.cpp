#include "commands/labeled_input.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "commands/common_options.hpp"
#include "common/closest_name.hpp"
#include "eval/labeled_suite.hpp"
#include "output.hpp"

namespace ghsift::cli {
namespace {

// The sets to read: those of the suite, or one per --labels file sharing the command line's options.
Result<LabeledSuite> SetsOf(const LabeledInputArgs& args) {
  if (!args.suite.empty()) return LoadLabeledSuite(args.suite, args.data);
  LabeledSuite suite;
  for (const std::string& file : args.labels) {
    LabeledSet set;
    set.path = file;
    set.group = GroupNameOfFile(file);
    set.positive = SplitList(args.positive);
    set.label_key = args.label_key;
    set.issue_dir = args.issue_dir;
    set.objective_f1 = args.objective == "f1";
    set.bug_only = args.verdict == "bug";
    set.group_by_repo = args.group_by == "repo";
    suite.sets.push_back(std::move(set));
  }
  return suite;
}

}  // namespace

void AddLabeledInputOptions(CLI::App& cmd, LabeledInputArgs& args) {
  auto* labels = cmd.add_option("--labels", args.labels, "Labeled reports: MHNurf CSV (*.csv) or JSONL files");
  auto* suite = cmd.add_option("--suite", args.suite, "Suite YAML listing labeled sets (e.g. tools/labeled_suite.yaml)");
  labels->excludes(suite);
  cmd.add_option("--data", args.data, "Directory the suite's paths are relative to")->capture_default_str();
  AddRulesOption(cmd, args.rules);
  const auto given = [&args](const char* name) {
    return [&args, name](const std::string&) { args.labels_only_given.push_back(name); };
  };
  cmd.add_option("--positive", args.positive,
                 "Categories whose union predicts the binary label (--labels); without it, a sample or issues "
                 "export is scored as what its rows were drawn as (its categories column)")
      ->capture_default_str()
      ->each(given("--positive"));
  cmd.add_option("--label-key", args.label_key, "Field holding the binary label, 0 or 1 (--labels)")
      ->capture_default_str()
      ->each(given("--label-key"));
  cmd.add_option("--verdict", args.verdict,
                 "What the labels mean (--labels): any = the report speaks of a positive category; bug = it "
                 "does and is a bug (not a question, feature request, docs, install or crash report)")
      ->check(CLI::IsMember({"any", "bug"}))
      ->capture_default_str()
      ->each(given("--verdict"));
  cmd.add_option("--group-by", args.group_by, "Groups held out one at a time: file (each labels file) or repo")
      ->check(CLI::IsMember({"file", "repo"}))
      ->capture_default_str();
  cmd.add_option("--objective", args.objective, "What fitting maximizes per group (--labels): macro-f1 or f1")
      ->check(CLI::IsMember({"macro-f1", "f1"}))
      ->capture_default_str()
      ->each(given("--objective"));
  cmd.add_option("--issue-dir", args.issue_dir, "Directory of GitHub API issue objects NUMBER.json giving bodies (--labels)")
      ->each(given("--issue-dir"));
}

Result<std::string> OneCategory(const std::string& positive, const std::string& command, const std::string& why,
                                std::string (*hint)(const std::set<std::string>& categories)) {
  const std::vector<std::string> listed = SplitList(positive);
  const std::set<std::string> categories(listed.begin(), listed.end());
  if (categories.empty()) return Status::InvalidArgument(command + ": --positive names one category");
  if (categories.size() == 1) return *categories.begin();
  return Status::InvalidArgument(command + ": --positive " + Target{categories, false}.Name() +
                                 " is a union label, as rules eval scores it, but " + why + ": give --positive " +
                                 JoinChoices(categories) + (hint == nullptr ? "" : " (" + hint(categories) + ")"));
}

Result<LabeledInput> LoadLabeledInput(const LabeledInputArgs& args) {
  if (args.labels.empty() && args.suite.empty()) return Status::InvalidArgument("give --labels FILE... or --suite FILE");
  for (const std::string& option : args.labels_only_given) {
    if (args.suite.empty() || (option == "--positive" && args.suite_takes_positive)) continue;
    return Status::InvalidArgument(option + " goes with --labels; a suite gives it per set (" + args.suite + ")");
  }
  auto suite = SetsOf(args);
  if (!suite.ok()) return suite.status();
  LabeledInput input;
  input.control_max_rate = suite->control_max_rate;
  input.reference_words = suite->reference_words;
  // Per-rule databases: after a rule edit only that rule compiles (the rule-editing loop).
  auto db = LoadRules(args.rules, RuleDatabase::Mode::kFlag, RuleDatabase::Layout::kPerRule);
  if (!db.ok()) return db.status();
  input.database = *db;
  const auto categories = input.database->rules().Categories();
  const auto has_rule = [&](const std::string& c) {
    return std::find(categories.begin(), categories.end(), c) != categories.end();
  };
  std::map<std::string, size_t> group_index;
  for (const LabeledSet& set : suite->sets) {
    for (const std::string& c : set.positive) {
      if (!has_rule(c)) {
        return Status::InvalidArgument(set.path + ": positive category '" + c + "': no rule has it; the rules' "
                                       "categories: " + JoinNames(categories, 20));
      }
    }
    LabelOptions options{set.label_key, set.issue_dir};
    for (const std::string& source : {set.path, set.issue_dir}) {
      if (!source.empty() && std::find(input.sources.begin(), input.sources.end(), source) == input.sources.end()) {
        input.sources.push_back(source);
      }
    }
    auto reports = ReadLabeledReports(set.path, options);
    if (!reports.ok() && !args.suite.empty() && !std::filesystem::exists(set.path)) {
      return Status::IoError(reports.status().message() + "; the suite's paths are read below --data " + args.data +
                             ", from the current directory");
    }
    if (!reports.ok()) return reports.status();
    // Rows not labeled yet (a sample being labeled) are left out of every figure, and said so.
    std::vector<size_t> unlabeled;
    std::erase_if(*reports, [&](const LabeledReport& r) {
      if (r.labeled()) return false;
      unlabeled.push_back(r.line);
      return true;
    });
    if (!unlabeled.empty()) {
      std::string where;
      for (size_t i = 0; i < unlabeled.size() && i < 10; ++i) where += (i ? ", " : "") + std::to_string(unlabeled[i]);
      if (unlabeled.size() > 10) where += ", ...";
      std::fprintf(stderr, "ghsift: %s: %zu of %zu records have no label (line%s %s): left out\n",
                   TerminalSafe(set.path).c_str(),
                   unlabeled.size(), unlabeled.size() + reports->size(), unlabeled.size() == 1 ? "" : "s",
                   where.c_str());
    }
    const bool by_repo = set.group_by_repo || args.group_by == "repo";
    if (by_repo && !reports->empty() &&
        std::all_of(reports->begin(), reports->end(), [](const LabeledReport& r) { return r.group.empty(); })) {
      return Status::InvalidArgument(set.path + ": grouped by repo, but no record names its repository (a "
                                     "'Repository' column in CSV, a 'repo' field in JSONL)");
    }
    std::set<std::string> positive(set.positive.begin(), set.positive.end());
    // A `sample` or `issues` export names what each row was drawn as (its categories column): the
    // class a labeler filled answers that, so without --positive that is the target, not the
    // default union, and the command says so.
    const auto& given = args.labels_only_given;
    const bool positive_given = std::find(given.begin(), given.end(), "--positive") != given.end();
    const auto is_export = [](const LabeledReport& r) { return r.exported_as.has_value(); };
    if (args.suite.empty() && !positive_given && !reports->empty() &&
        std::all_of(reports->begin(), reports->end(), is_export)) {
      std::set<std::string> exported;
      for (const LabeledReport& r : *reports) exported.insert(r.exported_as->begin(), r.exported_as->end());
      for (const std::string& c : exported) {
        if (!has_rule(c)) {
          return Status::InvalidArgument(set.path + ": its '" + std::string(kExportedCategoriesKey) +
                                         "' column names '" + c + "', which no rule has; give --positive");
        }
      }
      if (!exported.empty() && exported != positive) {
        positive = exported;
        std::fprintf(stderr, "ghsift: %s: scored as %s, what its rows were drawn as (its '%s' column); --positive "
                             "names another target\n",
                     TerminalSafe(set.path).c_str(), TerminalSafe(Target{positive, set.bug_only}.Name()).c_str(),
                     std::string(kExportedCategoriesKey).c_str());
      }
    }
    for (auto& r : *reports) {
      const std::string name = by_repo && !r.group.empty() ? set.group_prefix + r.group : set.group;
      auto [it, fresh] = group_index.emplace(name, input.groups.size());
      if (fresh) {
        input.groups.push_back(
            {name, positive, {set.controls.begin(), set.controls.end()}, set.objective_f1, set.bug_only});
      } else if (input.groups[it->second].positive != positive || input.groups[it->second].bug_only != set.bug_only) {
        const GroupDefinition& earlier = input.groups[it->second];
        return Status::InvalidArgument(set.path + ": group '" + name + "' is already used with another target (" +
                                       Target{earlier.positive, earlier.bug_only}.Name() + ")");
      }
      input.report_group.push_back(static_cast<int>(it->second));
      r.group = name;
      input.reports.push_back(std::move(r));
    }
  }
  if (input.reports.empty()) {
    std::string files;
    for (const LabeledSet& set : suite->sets) files += (files.empty() ? "" : ", ") + set.path;
    return Status::InvalidArgument(files + ": no labeled report to score");
  }
  input.verdicts = JudgeReports(input.database, input.reports);
  input.table = BuildMatchTable(input.database->rules(), input.reports, input.verdicts, input.groups, input.report_group);
  for (size_t i = 0; i < input.reports.size(); ++i) {
    const GroupDefinition& group = input.groups[static_cast<size_t>(input.report_group[i])];
    const Target target{group.positive, group.bug_only};
    auto it = std::find_if(input.targets.begin(), input.targets.end(), [&](const auto& s) { return s.first == target; });
    if (it == input.targets.end()) it = input.targets.insert(it, {target, {}});
    it->second.push_back(i);
  }
  return input;
}

}  // namespace ghsift::cli
