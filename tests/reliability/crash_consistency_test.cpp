// Crash consistency and concurrency, end to end with the real binary (a ctest-sized version of
// tools/crash_harness.sh):
//  - an ingest killed at any moment (SIGKILL, SIGINT, SIGTERM) and run again gives exactly the
//    answers of one clean ingest: a file counts fully or not at all;
//  - a second ingest into a store in use is refused, naming the LOCK;
//  - `query` and `stats` work during an ingest and always see a whole number of files.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "test_support.hpp"

extern char** environ;

namespace ghsift {
namespace {

using testing::GenCorpus;
using testing::CommandResult;
using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;
using Clock = std::chrono::steady_clock;

//! A child process running a shell command line (output to `log`).
class Background {
 public:
  explicit Background(const std::string& command) {
    const std::string line = "exec " + command;
    const char* argv[] = {"/bin/sh", "-c", line.c_str(), nullptr};
    if (::posix_spawn(&pid_, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) != 0) pid_ = -1;
  }
  ~Background() {
    if (pid_ > 0 && !reaped_) {
      ::kill(pid_, SIGKILL);
      Wait();
    }
  }
  pid_t pid() const { return pid_; }
  bool Running() {
    if (reaped_) return false;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      reaped_ = true;
      status_ = status;
      return false;
    }
    return true;
  }
  //! The raw wait status.
  int Wait() {
    if (!reaped_) {
      ::waitpid(pid_, &status_, 0);
      reaped_ = true;
    }
    return status_;
  }

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
  int status_ = 0;
};

//! Total bytes of the store's WAL files: > 0 once the first write (the scope) landed.
uint64_t WalBytes(const std::string& store) {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(store, ec)) {
    if (e.path().extension() == ".log") total += e.file_size(ec);
  }
  return total;
}

//! Waits until the ingest `p` has opened `store` and written its scope (its stop handler is
//! installed right after); false if it ended first.
bool WaitUntilStoreWritten(Background& p, const std::string& store) {
  while (WalBytes(store) == 0) {
    if (!p.Running()) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  return true;
}

std::map<std::string, int64_t> ParseStats(const std::string& json) {
  std::map<std::string, int64_t> out;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(json).get(doc) != simdjson::SUCCESS) return out;
  for (auto [key, value] : doc.get_object()) {
    int64_t v = 0;
    if (value.get_int64().get(v) == simdjson::SUCCESS) out[std::string(key)] = v;
  }
  return out;
}

std::map<std::string, int64_t> Stats(const std::string& store) {
  return ParseStats(RunCommand(Ghsift() + " stats --format json --store '" + store + "'").output);
}

//! Every answer the store gives, normalised: events by repo,day,type; issues and PRs by
//! repo,month,category,state; stats without store_bytes and skipped_files (a restart skips
//! what was committed before the kill, by design).
std::string Answers(const std::string& store) {
  const std::string s = " --store '" + store + "' --format csv";
  std::string out = RunCommand(Ghsift() + " query --metric events --by repo,day,type" + s).output;
  out += RunCommand(Ghsift() + " query --metric issues --kind issue --by repo,month,category,state" + s).output;
  out += RunCommand(Ghsift() + " query --metric issues --kind pr --by repo,month,category,state" + s).output;
  auto stats = Stats(store);
  stats.erase("store_bytes");
  stats.erase("skipped_files");
  for (const auto& [k, v] : stats) out += k + "=" + std::to_string(v) + "\n";
  return out;
}

std::string IngestCommand(const std::string& store, const std::string& corpus, const std::string& extra = "") {
  return Ghsift() + " ingest -q --all-repos " + extra + " --store '" + store + "' '" + corpus + "'";
}

TEST(CrashConsistencyTest, KilledIngestRestartedGivesTheCleanAnswers) {
  TempDir dir;
  const int kHours = 4, kEvents = 1500;
  GenCorpus(dir / "corpus", kHours, kEvents, 42, "gz");
  const auto t0 = Clock::now();
  const CommandResult ref = RunCommand(IngestCommand(dir / "reference", dir / "corpus"));
  const double ref_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  ASSERT_EQ(ref.exit_code, 0) << ref.output;
  const std::string reference = Answers(dir / "reference");
  ASSERT_NE(reference.find("files=" + std::to_string(kHours)), std::string::npos) << reference;

  struct Round {
    int signal;
    double fraction;  //!< of the reference duration
  };
  const Round rounds[] = {{SIGKILL, 0.0}, {SIGKILL, 0.3}, {SIGINT, 0.4}, {SIGKILL, 0.7}, {SIGTERM, 0.2}};
  int n = 0;
  for (const Round& round : rounds) {
    const std::string store = dir / ("store-" + std::to_string(n++));
    SCOPED_TRACE("round " + std::to_string(n) + ": signal " + std::to_string(round.signal) + " after " +
                 std::to_string(round.fraction) + " x " + std::to_string(ref_ms) + " ms");
    const std::string log = dir / "run.log";
    // Files committed alone in the first rounds, in one group (all four hours) in the others;
    // every second round adds its commits as table files, the others through the log.
    const std::string commit = std::string(n <= 2 ? " --commit-mib 0" : "") + (n % 2 == 0 ? " --table-file-mib 0" : "");
    Background ingest(IngestCommand(store, dir / "corpus", "--threads " + std::to_string(n % 2 + 1) + commit) +
                      " >'" + log + "' 2>&1");
    ASSERT_GT(ingest.pid(), 0);
    if (round.signal != SIGKILL && !WaitUntilStoreWritten(ingest, store)) {
      ADD_FAILURE() << "ingest ended before it wrote the store";
      continue;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int64_t>(round.fraction * ref_ms * 1000)));
    ::kill(ingest.pid(), round.signal);
    const int status = ingest.Wait();
    const bool finished = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (round.signal == SIGKILL) {
      EXPECT_TRUE(finished || (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)) << status;
    } else if (!finished) {
      // The stop handler ran: a clean exit with 128 + signal and the summary line.
      ASSERT_TRUE(WIFEXITED(status)) << "died by signal " << WTERMSIG(status) << " instead of stopping";
      EXPECT_EQ(WEXITSTATUS(status), 128 + round.signal);
      const CommandResult out = RunCommand("cat '" + log + "'");
      const std::string name = round.signal == SIGINT ? "SIGINT" : "SIGTERM";
      EXPECT_NE(out.output.find("stopped by " + name + ": "), std::string::npos) << out.output;
    }
    // The killed store opens; what it committed are whole files.
    // (A kill while RocksDB creates the store leaves one readers cannot open until the next
    // ingest; InterruptedStoreCreationIsReadable covers that, so it does not fail this round.)
    int64_t committed = 0;
    const auto stats = Stats(store);
    if (stats.count("files")) {
      committed = stats.at("files");
      EXPECT_EQ(stats.count("events") ? stats.at("events") : 0, committed * kEvents);
    }
    const CommandResult again = RunCommand(IngestCommand(store, dir / "corpus"));
    EXPECT_EQ(again.exit_code, 0) << again.output;
    EXPECT_EQ(Answers(store), reference);
    EXPECT_EQ(Stats(store)["skipped_files"], committed);
  }
}

// What a kill between writing the GHSIFT_STORE marker and RocksDB writing CURRENT leaves (a
// window of tens of milliseconds on a fresh store; the crash rounds hit it now and then).
// Nothing was committed, so readers should see an empty store (or get an actionable message),
// not a raw RocksDB error; the next ingest must finish the store.
TEST(CrashConsistencyTest, InterruptedStoreCreationIsReadable) {
  TempDir dir;
  GenCorpus(dir / "corpus", 1, 300, 3, "gz");
  const std::string store = dir / "store";
  ASSERT_EQ(RunCommand(IngestCommand(dir / "model", dir / "corpus")).exit_code, 0);
  std::filesystem::create_directories(store);
  std::filesystem::copy_file(dir / "model/GHSIFT_STORE", store + "/GHSIFT_STORE");
  const CommandResult stats = RunCommand(Ghsift() + " stats --format json --store '" + store + "'");
  EXPECT_EQ(stats.exit_code, 2) << stats.output;
  EXPECT_NE(stats.output.find(store + ": incomplete store (its creation was interrupted"), std::string::npos)
      << stats.output;
  EXPECT_NE(stats.output.find("nothing was committed to it: run ingest again"), std::string::npos) << stats.output;
  const CommandResult again = RunCommand(IngestCommand(store, dir / "corpus"));
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(Answers(store), Answers(dir / "model"));
}

class LiveStoreTest : public ::testing::Test {
 protected:
  static constexpr int kHours = 12, kEvents = 3000;
  static void SetUpTestSuite() {
    corpus_ = new TempDir();
    GenCorpus(*corpus_ / "corpus", kHours, kEvents, 7, "gz");
  }
  static void TearDownTestSuite() {
    delete corpus_;
    corpus_ = nullptr;
  }
  static TempDir* corpus_;
  TempDir dir_;
};
TempDir* LiveStoreTest::corpus_ = nullptr;

TEST_F(LiveStoreTest, SecondIngestIntoTheSameStoreIsRefusedNamingTheLock) {
  const std::string store = dir_ / "store";
  Background first(IngestCommand(store, *corpus_ / "corpus", "--threads 1") + " >/dev/null 2>&1");
  ASSERT_TRUE(WaitUntilStoreWritten(first, store));
  ::kill(first.pid(), SIGSTOP);  // holds the lock for as long as the test needs
  const CommandResult second = RunCommand(IngestCommand(store, *corpus_ / "corpus"));
  ::kill(first.pid(), SIGCONT);
  EXPECT_EQ(second.exit_code, 75) << second.output;  // try again later: it read nothing
  EXPECT_NE(second.output.find(store + "/LOCK"), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("in use by another writer"), std::string::npos) << second.output;
  const int status = first.Wait();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_EQ(Stats(store)["files"], kHours);
}

TEST_F(LiveStoreTest, QueriesDuringAnIngestSeeWholeFiles) {
  const std::string store = dir_ / "store";
  // Each file committed alone, so readers have many states to catch.
  Background ingest(IngestCommand(store, *corpus_ / "corpus", "--threads 1 --commit-mib 0") + " >/dev/null 2>&1");
  ASSERT_TRUE(WaitUntilStoreWritten(ingest, store));
  int observations = 0, stats_failures = 0;
  std::set<int64_t> seen_files;
  auto observe = [&] {
    const CommandResult r = RunCommand(Ghsift() + " stats --format json --store '" + store + "'");
    if (r.exit_code != 0) {
      ++stats_failures;
      ADD_FAILURE() << "stats failed during ingest: " << r.output;
      return;
    }
    auto s = ParseStats(r.output);
    // No bad lines are planted, so whole files mean events == files * events per hour.
    EXPECT_EQ(s["events"], s["files"] * kEvents) << r.output;
    seen_files.insert(s["files"]);
    // The same snapshot rule holds for a query: a day's events sum to whole hours.
    const CommandResult q =
        RunCommand(Ghsift() + " query --metric events --by day --format csv --store '" + store + "'");
    EXPECT_EQ(q.exit_code, 0) << q.output;
    int64_t total = 0;
    for (size_t pos = q.output.find('\n'); pos != std::string::npos && pos + 1 < q.output.size();
         pos = q.output.find('\n', pos + 1)) {
      const size_t comma = q.output.find(',', pos + 1);
      if (comma != std::string::npos) total += std::atoll(q.output.c_str() + comma + 1);
    }
    EXPECT_EQ(total % kEvents, 0) << q.output;
    ++observations;
  };
  while (ingest.Running() && observations < 200) observe();
  // Also while the writer is frozen mid-run (if it is still running): readers never wait for it.
  if (ingest.Running()) {
    ::kill(ingest.pid(), SIGSTOP);
    observe();
    ::kill(ingest.pid(), SIGCONT);
  }
  const int status = ingest.Wait();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  observe();
  EXPECT_EQ(stats_failures, 0);
  EXPECT_GE(observations, 2);
  EXPECT_EQ(*seen_files.rbegin(), kHours);
  std::printf("%d observations during the ingest, %zu distinct file counts\n", observations, seen_files.size());
}

}  // namespace
}  // namespace ghsift
