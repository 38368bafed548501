#pragma once
// When the command line does not parse, name the unknown subcommand or option and suggest the
// closest valid one ("unknown command 'ingset' (did you mean ingest?)").
#include <string>

#include <CLI/CLI.hpp>

namespace ghsift::cli {

//! A message for the first unknown subcommand or option of `argv`, judged against the deepest
//! subcommand CLI11 recognized; "" when every word is known (CLI11's own message then applies).
std::string ExplainParseError(CLI::App& app, int argc, char** argv);

//! What ghsift says when a command line does not parse (the command and the Python module alike):
//! the unknown word with the closest valid one when there is one, else CLI11's message in ghsift's
//! words, with the command it concerns and where its help is.
std::string ParseErrorMessage(CLI::App& app, const CLI::ParseError& e, int argc, char** argv);

}  // namespace ghsift::cli
