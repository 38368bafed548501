#pragma once
// The subcommands' Add functions (the table of them is command_table.hpp). When a command runs,
// it stores its exit status in `exit_code`: 0 success, 1 nothing found (where a search finds
// nothing) or a check that did not pass, 2 an error.
#include <CLI/CLI.hpp>

#include "common/status.hpp"

namespace ghsift::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitNoHit = 1;
//! `rules eval --baseline`'s gate, `stats --coverage --check`: the answer was given, and it says no.
inline constexpr int kExitCheckFailed = 1;
inline constexpr int kExitError = 2;
//! `ingest`, `merge`, `rescan`, `backup`: another process writes the store (or the partial to merge);
//! nothing was done, try again later (EX_TEMPFAIL).
inline constexpr int kExitStoreBusy = 75;

// Each adds its options and callback to `command`, named and described by its row of the
// command table (command_table.cpp), one file each.
void AddIngestCommand(CLI::App& command, int& exit_code);
void AddQueryCommand(CLI::App& command, int& exit_code);
void AddIssuesCommand(CLI::App& command, int& exit_code);
void AddStatsCommand(CLI::App& command, int& exit_code);
void AddGenCommand(CLI::App& command, int& exit_code);
void AddRescanCommand(CLI::App& command, int& exit_code);
void AddMergeCommand(CLI::App& command, int& exit_code);
void AddBackupCommand(CLI::App& command, int& exit_code);
void AddRestoreCommand(CLI::App& command, int& exit_code);
void AddSampleCommand(CLI::App& command, int& exit_code);
void AddReportCommand(CLI::App& command, int& exit_code);
void AddRulesCheckCommand(CLI::App& command, int& exit_code);
void AddRulesEvalCommand(CLI::App& command, int& exit_code);
void AddRulesTuneCommand(CLI::App& command, int& exit_code);
void AddRulesExplainCommand(CLI::App& command, int& exit_code);
void AddRulesBenchCommand(CLI::App& command, int& exit_code);
void AddRulesSuggestCommand(CLI::App& command, int& exit_code);
void AddRulesLearnCommand(CLI::App& command, int& exit_code);
//! `completions bash|zsh` and the hidden `man`: written from the App the table builds.
void AddCompletionsCommand(CLI::App& command, int& exit_code);
void AddManCommand(CLI::App& command, int& exit_code);

// Defined by the program that hosts the commands: main.cpp, or the Python module (python/),
// which turns a failure into an exception. Commands write their tables to std::cout.
//! CPU time the process spent before main: loading and relocating the shared libraries.
double CpuSecondsBeforeMain();
//! Prints "ghsift: <message>" to stderr and returns kExitError.
int Fail(const std::string& message);
//! Fail for a store that did not open: kExitStoreBusy when another process writes it.
inline int FailOpening(const Status& status) {
  const int code = Fail(status.message());
  return status.code() == StatusCode::kAlreadyExists ? kExitStoreBusy : code;
}

}  // namespace ghsift::cli
