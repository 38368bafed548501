#pragma once
// Every subcommand of ghsift, one row each: the binary (main.cpp), the Python module (python/),
// the man page and the shell completions (`ghsift man`, `ghsift completions`, written at build
// time from the App the table builds) and a test of the README all read this table. A new
// subcommand is one row here and its Add function in commands/<name>_command.cpp.
#include <CLI/CLI.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ghsift::cli {

//! Adds a command's options, positionals and callback to `command`, which the table has already
//! named and described; when it runs, it stores its exit status in `exit_code`.
using AddCommandFn = void (*)(CLI::App& command, int& exit_code);

struct CommandRow {
  //! The words after `ghsift` ("ingest", "rules eval"); a row's parent ("rules") comes before it.
  std::string_view path = {};
  //! One sentence: `--help`, the man page's section and the completions' description.
  std::string_view summary = {};
  AddCommandFn add = nullptr;
  //! A command line the man page shows (one line, at most 68 columns); empty for a group.
  std::string_view example = {};
  //! What the exit status says beyond 0 (success) and 2 (an error); empty when nothing more.
  std::string_view exit_status = {};
  //! The Python module runs it (its `--format csv` is a table) as `ghsift.<path>`.
  bool in_python = false;
  //! Left out of help, the man page, the completions and the README (build-time tools).
  bool hidden = false;
};

//! Every command, parents before their subcommands, in the order help lists them.
std::span<const CommandRow> Commands();
//! The row whose path is `path`, or null.
const CommandRow* FindCommand(std::string_view path);
//! A command's path as the words a command line gives ("rules eval" -> {"rules", "eval"}).
std::vector<std::string> CommandWords(std::string_view path);
//! Adds the row's command (and the groups above it, when missing) under `root`; returns it.
CLI::App& AddCommand(CLI::App& root, const CommandRow& row, int& exit_code);
//! Adds every command of the table under `root`.
void AddCommands(CLI::App& root, int& exit_code);
//! The row of a command of an App the table built ("ghsift rules eval" -> "rules eval").
std::string CommandPath(const CLI::App& command);

}  // namespace ghsift::cli
