// `ingest --mpi` under mpirun on localhost: the merged store answers every query exactly like a
// single-process ingest, also when a rank is killed mid-run and the command is run again.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "pipelines/input_files.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::CommandResult;
using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;


bool MpiReady() {
  if (RunCommand("command -v mpirun").exit_code != 0) return false;
  return RunCommand(Ghsift() + " ingest --mpi --store /nonexistent/x /dev/null").output.find("built without MPI") ==
         std::string::npos;
}

// Under AddressSanitizer, OpenMPI's plugins (dlopen'ed, unloaded again at MPI_Finalize) leak a
// few kB that LeakSanitizer reports from "<unknown module>" frames, which no suppression can
// name: leak checking is off for the MPI ranks only (tools/lsan.supp says the same).
#if defined(__SANITIZE_ADDRESS__)
const char* kMpirun = "env LSAN_OPTIONS=detect_leaks=0 mpirun --oversubscribe --allow-run-as-root -np 3 ";
#else
const char* kMpirun = "mpirun --oversubscribe --allow-run-as-root -np 3 ";
#endif

//! What RunBounded returns for a command it had to stop (the command's own status is lost then:
//! timeout(1) exits 124, or 137 when it needed SIGKILL, as mpirun does when a rank was killed).
constexpr int kTimedOut = -2;

//! Runs `command` for at most `seconds` (then SIGTERM, and SIGKILL 10 s later), its output in
//! `log` rather than a pipe: a process the command leaves behind cannot hold the test's read open.
//! After a timeout the output ends with the ghsift and MPI processes the kills left running.
CommandResult RunBounded(const std::string& command, const std::string& log, int seconds) {
  const auto start = std::chrono::steady_clock::now();
  CommandResult r = RunCommand("timeout -k 10 " + std::to_string(seconds) + " " + command + " > '" + log + "' 2>&1");
  std::ifstream in(log, std::ios::binary);
  r.output.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (r.exit_code == 124 || std::chrono::steady_clock::now() - start >= std::chrono::seconds(seconds)) {
    r.exit_code = kTimedOut;
    r.output += "\n[stopped after " + std::to_string(seconds) + " s; processes left:]\n" +
                RunCommand("ps -C ghsift,mpirun,orted,prte -o pid,ppid,stat,etime,args").output;
  }
  return r;
}

//! SIGKILLs the ghsift processes of the run whose command line names `store` (another test's
//! ranks may be running at the same time) that run MPI rank `rank`, or every rank when `rank` is
//! -1 (found through their environment). Returns how many it killed.
int KillRanks(const std::string& store, int rank) {
  const std::string wanted = "OMPI_COMM_WORLD_RANK=" + std::to_string(rank);
  auto read_all = [](const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  auto has_entry = [](const std::string& text, const std::string& entry) {
    for (size_t at = 0; at < text.size();) {
      const size_t end = text.find('\0', at);
      if (text.compare(at, end - at, entry) == 0) return true;
      at = end == std::string::npos ? text.size() : end + 1;
    }
    return false;
  };
  int killed = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    std::ifstream comm(entry.path() / "comm");
    std::string name;
    if (!(comm >> name) || name != "ghsift") continue;
    if (!has_entry(read_all(entry.path() / "cmdline"), store)) continue;
    if (rank >= 0 && !has_entry(read_all(entry.path() / "environ"), wanted)) continue;
    if (::kill(std::stoi(entry.path().filename().string()), SIGKILL) == 0) ++killed;
  }
  return killed;
}

TEST(MpiIngestTest, ThreeRanksEqualOneProcess) {
  if (!MpiReady()) GTEST_SKIP() << "mpirun or an MPI build of ghsift is missing (tools/setup.sh installs OpenMPI)";
  TempDir dir;
  testing::Generate(dir / "corpus", 6, 1500, 51, "gz", 1);
  const std::string files = dir / "corpus";
  ASSERT_EQ(RunCommand(Ghsift() + " ingest -q --all-repos --store " + (dir / "single") + " " + files).exit_code, 0);
  auto r = RunBounded(std::string(kMpirun) + Ghsift() + " ingest --mpi --all-repos --store " + (dir / "mpi") + " " +
                      files, dir / "mpi.log", 300);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("2 ranks ingested 6 files"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "mpi.partials"));
  EXPECT_EQ(testing::StoreAnswers(dir / "mpi"), testing::StoreAnswers(dir / "single"));
}

TEST(MpiIngestTest, KilledRankThenRerunCountsEverythingOnce) {
  if (!MpiReady()) GTEST_SKIP() << "mpirun or an MPI build of ghsift is missing (tools/setup.sh installs OpenMPI)";
  TempDir dir;
  testing::Generate(dir / "corpus", 10, 3000, 52, "gz", 1);
  const std::string files = dir / "corpus";
  ASSERT_EQ(RunCommand(Ghsift() + " ingest -q --all-repos --store " + (dir / "single") + " " + files).exit_code, 0);
  const std::string command = std::string(kMpirun) + Ghsift() + " ingest --mpi --threads 1 --all-repos --store " +
                              (dir / "mpi") + " " + files;
  // Ending the job once a rank has died is OpenMPI's part, not ghsift's, and Debian 12's mpirun
  // sometimes hangs in its own shutdown after killing every rank (README, Distributed ingest): if
  // it has not ended a minute after the kill, the test ends it as a user would and checks what it
  // is about, the rerun.
  CommandResult first;
  std::thread run([&] { first = RunBounded(command, dir / "first.log", 60); });
  // Wait until rank 1 has a partial store, let it commit a file or two, then kill it.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!std::filesystem::exists(dir / "mpi.partials/rank-1/GHSIFT_STORE") &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const bool killed = KillRanks(dir / "mpi", 1) > 0;
  run.join();
  if (first.exit_code == kTimedOut) {
    std::fprintf(stderr, "note: mpirun had not ended 60 s after rank 1 was killed:\n%s\n", first.output.c_str());
  }
  KillRanks(dir / "mpi", -1);  // whatever the first run left running, as after a crash
  auto r = RunBounded(command, dir / "rerun.log", 300);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(testing::StoreAnswers(dir / "mpi"), testing::StoreAnswers(dir / "single")) << (killed ? "after a kill" : "no rank was killed");
  EXPECT_TRUE(killed) << "the run ended before rank 1 could be killed";
}

}  // namespace
}  // namespace ghsift
