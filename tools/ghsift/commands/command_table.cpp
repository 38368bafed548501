#include "commands/command_table.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "commands/commands.hpp"

namespace ghsift::cli {

namespace {

// A group: its subcommands are rows of their own.
void AddRulesGroup(CLI::App& command, int&) { command.require_subcommand(1); }

const std::vector<CommandRow>& Rows() {
  static const std::vector<CommandRow> rows = {
      {.path = "ingest",
       .summary = "Read GH Archive dumps (.json.gz, .json.zst, .json) into a store",
       .add = AddIngestCommand,
       .example = "ghsift ingest --store ./store --from 2024-01-01 --to 2024-01-07",
       .exit_status = "2 also when some file failed (the others were ingested); 75 when another ingest "
                      "holds the store (nothing was read; try again later); 130 or 143 when stopped by "
                      "SIGINT or SIGTERM (0 with --follow, which ends so)"},
      {.path = "query",
       .summary = "Count reports or events in a store, grouped by dimensions",
       .add = AddQueryCommand,
       .example = "ghsift query --store ./store --by repo,month --category silent",
       .in_python = true},
      {.path = "issues",
       .summary = "List flagged reports (a problem category), newest first, with their facets",
       .add = AddIssuesCommand,
       .example = "ghsift issues --store ./store --category performance --limit 20",
       .exit_status = "1 when no report matches (0 with --exit-zero)",
       .in_python = true},
      {.path = "stats",
       .summary = "What a store holds (files, events, bad lines, bytes, size) and how it was built (scope, "
                  "rule set, keep-text, the ingest options to reuse)",
       .add = AddStatsCommand,
       .example = "ghsift stats --store ./store --coverage --from 2024-01"},
      {.path = "rules", .summary = "Check, evaluate, explain and benchmark rule sets", .add = AddRulesGroup},
      {.path = "rules check",
       .summary = "Validate and compile a rule set",
       .add = AddRulesCheckCommand,
       .example = "ghsift rules check --rules mine.yaml"},
      {.path = "rules eval",
       .summary = "Precision, recall, F1 and macro-F1 of a rule set on labeled reports",
       .add = AddRulesEvalCommand,
       .example = "ghsift rules eval --labels labeled.csv --positive performance",
       .exit_status = "1 when the --baseline gate fails",
       .in_python = true},
      {.path = "rules tune",
       .summary = "Fit category thresholds (and with --weights rule weights), with a leave-one-group-out "
                  "estimate; write them as an overlay",
       .add = AddRulesTuneCommand,
       .example = "ghsift rules tune --labels labeled.csv --write overlay.yaml"},
      {.path = "rules explain",
       .summary = "Show which rules match a report, where, and the category scores",
       .add = AddRulesExplainCommand,
       .example = "ghsift rules explain --store ./store --issue owner/repo#123"},
      {.path = "rules bench",
       .summary = "Scan speed of a rule set and each rule's cost, on labeled reports (CSV/JSONL) or dump files",
       .add = AddRulesBenchCommand,
       .example = "ghsift rules bench --top 10 2024-01-01-15.json.gz"},
      {.path = "rules suggest",
       .summary = "Phrases (word 1-3-grams) that separate positive reports from negative ones, as "
                  "ready-to-paste rule lines",
       .add = AddRulesSuggestCommand,
       .example = "ghsift rules suggest --labels labeled.csv --positive silent"},
      {.path = "rules learn",
       .summary = "Learn phrase rules (L1 logistic regression over word 1-3-grams, regularization chosen by "
                  "leave-one-group-out); write them as a layer",
       .add = AddRulesLearnCommand,
       .example = "ghsift rules learn --labels a.csv --positive silent --write mine.yaml",
       .exit_status = "1 when no lambda keeps every group within --max-drop (nothing is learned)"},
      {.path = "rescan",
       .summary = "Re-apply a (changed) rule set to the report text the store kept (every event's with "
                  "--keep-text, else the latest text of flagged reports), updating every aggregate",
       .add = AddRescanCommand,
       .example = "ghsift rescan --store ./store --rules mine.yaml"},
      {.path = "merge",
       .summary = "Add partial stores (ingest --partial) to a store, each atomically",
       .add = AddMergeCommand,
       .example = "ghsift merge --store ./store part-1 part-2"},
      {.path = "backup",
       .summary = "Back a store up (incrementally: only table files no earlier backup holds are copied), "
                  "or list the backups of a directory",
       .add = AddBackupCommand,
       .example = "ghsift backup --store ./store --to /mnt/backups/ghsift --keep 7",
       .exit_status = "75 when an ingest holds the store (nothing was written; try again after it); 1 when "
                      "--list --check finds a damaged backup"},
      {.path = "restore",
       .summary = "Write a backup (the newest, or --backup ID) as a new store, whole or not at all",
       .add = AddRestoreCommand,
       .example = "ghsift restore --from /mnt/backups/ghsift --store ./store-restored"},
#ifdef GHSIFT_WITH_GEN
      {.path = "gen",
       .summary = "Generate GH Archive-format hourly dumps with a truth file",
       .add = AddGenCommand,
       .example = "ghsift gen --out ./hours --hours 24 --events-per-hour 1000 --seed 1"},
#endif
      {.path = "sample",
       .summary = "Draw a reproducible (stratified) sample of flagged reports to label",
       .add = AddSampleCommand,
       .example = "ghsift sample --store ./store --category silent --n 100 --seed 7",
       .exit_status = "1 when no report is drawn",
       .in_python = true},
      {.path = "report",
       .summary = "Write an HTML and Markdown report (with CSV tables) of a store",
       .add = AddReportCommand,
       .example = "ghsift report --store ./store --out ./report --from 2020-01"},
      {.path = "completions",
       .summary = "Print the bash or zsh completion script of this ghsift",
       .add = AddCompletionsCommand,
       .example = "ghsift completions zsh > ~/.zfunc/_ghsift"},
      {.path = "man",
       .summary = "Print the ghsift(1) man page (roff)",
       .add = AddManCommand,
       .example = "ghsift man > ghsift.1",
       .hidden = true},
  };
  return rows;
}

}  // namespace

std::span<const CommandRow> Commands() { return Rows(); }

const CommandRow* FindCommand(std::string_view path) {
  for (const CommandRow& row : Rows()) {
    if (row.path == path) return &row;
  }
  return nullptr;
}

std::vector<std::string> CommandWords(std::string_view path) {
  std::vector<std::string> words;
  while (!path.empty()) {
    const size_t space = path.find(' ');
    if (space != 0) words.emplace_back(path.substr(0, space));
    path = space == std::string_view::npos ? std::string_view() : path.substr(space + 1);
  }
  return words;
}

namespace {

//! The App of `path` under `root`, or null when it was not added.
CLI::App* FindApp(CLI::App& root, std::string_view path) {
  CLI::App* at = &root;
  for (const std::string& word : CommandWords(path)) {
    if (at == nullptr) break;
    CLI::App* next = nullptr;
    for (CLI::App* sub : at->get_subcommands([](CLI::App*) { return true; })) {
      if (sub->get_name() == word) next = sub;
    }
    at = next;
  }
  return at;
}

}  // namespace

CLI::App& AddCommand(CLI::App& root, const CommandRow& row, int& exit_code) {
  if (CLI::App* added = FindApp(root, row.path)) return *added;
  CLI::App* parent = &root;
  const size_t last = row.path.rfind(' ');
  if (last != std::string_view::npos) {
    const CommandRow* group = FindCommand(row.path.substr(0, last));
    if (group == nullptr) throw std::logic_error("command table: no row for the group of '" + std::string(row.path) + "'");
    parent = &AddCommand(root, *group, exit_code);
  }
  const std::string name(row.path.substr(last == std::string_view::npos ? 0 : last + 1));
  CLI::App* command = parent->add_subcommand(name, std::string(row.summary));
  if (row.hidden) command->group("");
  if (!row.exit_status.empty()) command->footer("Exit status: 0 success; " + std::string(row.exit_status) + "; 2 an error.");
  if (row.add != nullptr) row.add(*command, exit_code);
  return *command;
}

void AddCommands(CLI::App& root, int& exit_code) {
  for (const CommandRow& row : Rows()) AddCommand(root, row, exit_code);
}

std::string CommandPath(const CLI::App& command) {
  std::string path;
  for (const CLI::App* at = &command; at != nullptr && at->get_parent() != nullptr; at = at->get_parent()) {
    path = at->get_name() + (path.empty() ? "" : " " + path);
  }
  return path;
}

}  // namespace ghsift::cli
