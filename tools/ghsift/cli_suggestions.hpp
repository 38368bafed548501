#pragma once
// When the command line does not parse, name the unknown subcommand or option and suggest the
// closest valid one ("unknown command 'ingset' (did you mean ingest?)").
#include <string>

#include <CLI/CLI.hpp>

namespace ghsift::cli {

//! A message for the first unknown subcommand or option of `argv`, judged against the deepest
//! subcommand CLI11 recognized; "" when every word is known (CLI11's own message then applies).
std::string ExplainParseError(CLI::App& app, int argc, char** argv);

}  // namespace ghsift::cli
