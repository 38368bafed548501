#pragma once
// Each Add*Command registers one subcommand; when it runs, it stores its exit status in
// `exit_code`: 0 success, 1 nothing found (where a search finds nothing), 2 an error.
#include <CLI/CLI.hpp>

namespace ghsift::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitNoHit = 1;
inline constexpr int kExitError = 2;
//! `ingest`: another ingest holds the store; nothing was read, try again later (EX_TEMPFAIL).
inline constexpr int kExitStoreBusy = 75;

void AddIngestCommand(CLI::App& app, int& exit_code);
void AddQueryCommand(CLI::App& app, int& exit_code);
void AddIssuesCommand(CLI::App& app, int& exit_code);
void AddStatsCommand(CLI::App& app, int& exit_code);
void AddRulesCommand(CLI::App& app, int& exit_code);
void AddGenCommand(CLI::App& app, int& exit_code);
void AddRescanCommand(CLI::App& app, int& exit_code);
void AddMergeCommand(CLI::App& app, int& exit_code);
void AddSampleCommand(CLI::App& app, int& exit_code);
void AddReportCommand(CLI::App& app, int& exit_code);

// Subcommands of `ghsift rules`, one file each.
void AddRulesEvalCommand(CLI::App& rules, int& exit_code);
void AddRulesTuneCommand(CLI::App& rules, int& exit_code);
void AddRulesExplainCommand(CLI::App& rules, int& exit_code);
void AddRulesBenchCommand(CLI::App& rules, int& exit_code);
void AddRulesSuggestCommand(CLI::App& rules, int& exit_code);
void AddRulesLearnCommand(CLI::App& rules, int& exit_code);

// Defined by the program that hosts the commands: main.cpp, or the Python module (python/),
// which turns a failure into an exception. Commands write their tables to std::cout.
//! CPU time the process spent before main: loading and relocating the shared libraries.
double CpuSecondsBeforeMain();
//! Prints "ghsift: <message>" to stderr and returns kExitError.
int Fail(const std::string& message);

}  // namespace ghsift::cli
