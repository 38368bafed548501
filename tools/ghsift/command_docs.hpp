#pragma once
// The man page and the shell completions, written from the App the command table builds: the
// commands from the table (command_table.hpp), their options from CLI11, so neither can name an
// option that does not exist or miss one that does. The build runs `ghsift man` and
// `ghsift completions bash|zsh` and installs what they print.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace ghsift::cli {

//! The commands a user sees under `root`, depth first in table order (groups before their
//! subcommands); hidden ones left out.
std::vector<const CLI::App*> VisibleCommands(const CLI::App& root);
//! The options a user can give `command` (not its positionals), `--help` included.
std::vector<const CLI::Option*> VisibleOptions(const CLI::App& command);

//! ghsift(1) in roff: NAME, SYNOPSIS, DESCRIPTION, a section per command (its summary, options
//! and an example), EXIT STATUS, ENVIRONMENT. Every source line is at most 80 columns, and the
//! page renders within 80.
std::string ManPage(const CLI::App& root);
//! A bash completion script: commands, then each command's options.
std::string BashCompletion(const CLI::App& root);
//! A zsh completion script (#compdef ghsift): the same, with descriptions.
std::string ZshCompletion(const CLI::App& root);

}  // namespace ghsift::cli
