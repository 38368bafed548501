#pragma once
// The local HTTP server the download tests read from (tests/io/fault_http_server.py): it serves
// the files of a directory, with faults on named files (reset, error500, stall, ...), and logs
// every request. Started on a free port; it stops itself after `idle` quiet seconds, and is
// killed by its process id when the test ends first. The idle time is long because it counts
// from the start: a first ghsift that compiles the rules cold on a loaded machine (a fresh clone's
// test run beside a build) asked 15 s after the start and found no server.
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace ghsift::testing {

class FaultServer {
 public:
  //! Its port file and request log go in `dir`; `extra` adds server options (--tls, --rate-mbps).
  FaultServer(const TempDir& dir, const std::string& served, const std::vector<std::string>& faults,
              const std::string& extra = "", int idle_seconds = 60, int lifetime_seconds = 120) {
    const std::string port_file = dir / "port";
    log_ = dir / "requests.log";
    std::string command = "python3 '" + std::string(GHSIFT_SOURCE_DIR) + "/tests/io/fault_http_server.py' --dir '" +
                          served + "' --idle " + std::to_string(idle_seconds) + " --lifetime " +
                          std::to_string(lifetime_seconds) + " --log '" + log_ + "' " + extra;
    for (const std::string& f : faults) command += " --fault " + f;
    pid_ = std::atoi(RunCommand(command + " > '" + port_file + "' & echo $!").output.c_str());
    for (int i = 0; i < 200 && port_.empty(); ++i) {  // bounded: 10 s
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      const std::string text = ReadText(port_file);
      if (text.find('\n') != std::string::npos) port_ = text.substr(0, text.find('\n'));
    }
  }
  ~FaultServer() {
    if (pid_ > 0) ::kill(pid_, SIGTERM);
  }
  FaultServer(const FaultServer&) = delete;
  FaultServer& operator=(const FaultServer&) = delete;

  std::string base(const std::string& scheme = "http") const { return scheme + "://127.0.0.1:" + port_; }
  //! The request log: one line per request, "FILE - STATUS ...".
  std::string Requests() const { return ReadText(log_); }
  bool started() const { return !port_.empty(); }

 private:
  std::string log_, port_;
  int pid_ = 0;
};

}  // namespace ghsift::testing
