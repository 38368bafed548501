// ghsift: parse the command line, dispatch, report. Exceptions stop here.
#include <algorithm>
#include <csignal>
#include <ctime>
#include <cstdio>
#include <exception>
#include <iostream>

#include "cli_suggestions.hpp"
#include "commands/command_table.hpp"
#include "commands/commands.hpp"
#include "output.hpp"
#include "version.hpp"

namespace ghsift::cli {

namespace {
double g_cpu_seconds_before_main = 0;
}  // namespace

double CpuSecondsBeforeMain() { return g_cpu_seconds_before_main; }

int Fail(const std::string& message) {
  // A message can quote what it read (a server's page, a record, a name): shown safely, each of
  // its lines.
  std::string shown;
  for (size_t at = 0; at <= message.size();) {
    const size_t end = std::min(message.find('\n', at), message.size());
    shown += (at ? "\n" : "") + TerminalSafe(std::string_view(message).substr(at, end - at));
    at = end + 1;
  }
  std::fprintf(stderr, "ghsift: %s\n", shown.c_str());
  return kExitError;
}



}  // namespace ghsift::cli

int main(int argc, char** argv) {
  {
    timespec cpu{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
    ghsift::cli::g_cpu_seconds_before_main = static_cast<double>(cpu.tv_sec) + cpu.tv_nsec * 1e-9;
  }
  // A closed pipe (`ghsift issues | head`) is a normal end, not an error.
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App app{"ghsift: finds the GitHub issue reports that speak of performance problems, accuracy problems and "
               "silent bugs, in GH Archive dumps"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "ghsift " + std::string(ghsift::cli::GhsiftVersion()));
  int exit_code = 0;
  using namespace ghsift::cli;
  AddCommands(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    return Fail(ParseErrorMessage(app, e, argc, argv));
  } catch (const std::exception& e) {
    return Fail(e.what());
  }
  std::cout.flush();
  return exit_code;
}
