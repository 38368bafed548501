#pragma once
// Running the built binary from a test, as a user's shell would. Apart from test_support.hpp
// (which brings in the generator) so that tests built without it (GHSIFT_NO_GEN) can use it.
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace ghsift::testing {

struct CommandResult {
  int exit_code = -1;
  std::string output;  //!< stdout, and stderr too unless run with RunCommandStdout
};

//! Runs a shell command line, capturing its standard output only (stderr goes where the test's goes).
inline CommandResult RunCommandStdout(const std::string& command) {
  CommandResult r;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return r;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) r.output.append(buffer, n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

//! Runs a shell command line, capturing its output (stdout and stderr together).
inline CommandResult RunCommand(const std::string& command) { return RunCommandStdout(command + " 2>&1"); }

//! The built ghsift binary, quoted for the shell.
inline std::string Ghsift() { return std::string("'") + GHSIFT_BINARY + "'"; }

}  // namespace ghsift::testing
