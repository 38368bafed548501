// `ghsift ingest --follow` against a real local HTTP server (tests/io/fault_http_server.py) that
// serves generated hours from a directory: an hour "is published" when a file appears there, and
// the follower's clock is a file the test writes (GHSIFT_TEST_CLOCK_FILE, test-only), so hours
// end when the test says. Every wait is bounded and looks for a line the follower printed.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "test_support.hpp"

namespace ghsift::testing {
namespace {

constexpr int kHours = 4;                    // generated hours 2024-01-01-0 .. -3
constexpr int64_t kDayStart = 1704067200;    // 2024-01-01T00:00Z

std::string HourName(int h) { return "2024-01-01-" + std::to_string(h) + ".json.gz"; }
int64_t At(int hour, int minute) { return kDayStart + hour * 3600 + minute * 60; }

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteText(const std::string& path, const std::string& text) {
  const std::string part = path + ".part";  // renamed: a reader never sees half a file
  {
    std::ofstream out(part);
    out << text;
  }
  std::filesystem::rename(part, path);
}

//! StoreAnswers without the counters that depend on how the hours arrived (skips; hours that
//! were missing at the source or failed, which a local ingest never asked for).
std::string ComparableAnswers(const std::string& store) {
  std::string answers = StoreAnswers(store);
  for (const char* key : {"\"skipped_files\"", "\"failed_files\"", "\"missing_at_source\""}) {
    const size_t at = answers.find(key);
    if (at != std::string::npos) answers.erase(at, answers.find('\n', at) - at);
  }
  return answers;
}

//! Polls `path` until it contains `text` (bounded: 60 s).
bool WaitFor(const std::string& path, const std::string& text) {
  for (int i = 0; i < 600; ++i) {
    if (ReadText(path).find(text) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

//! The test server, as in http_ingest_test.cpp: started on a free port, stopped by its id.
class Server {
 public:
  Server(const TempDir& dir, const std::string& hours, const std::vector<std::string>& faults) {
    const std::string port_file = dir / "port";
    log_ = dir / "requests.log";
    std::string command = "python3 '" + std::string(GHSIFT_SOURCE_DIR) + "/tests/io/fault_http_server.py' --dir '" +
                          hours + "' --idle 60 --lifetime 240 --log '" + log_ + "'";
    for (const std::string& f : faults) command += " --fault " + f;
    pid_ = std::atoi(RunCommand(command + " > '" + port_file + "' & echo $!").output.c_str());
    for (int i = 0; i < 200 && port_.empty(); ++i) {  // bounded: 10 s
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      const std::string text = ReadText(port_file);
      if (text.find('\n') != std::string::npos) port_ = text.substr(0, text.find('\n'));
    }
  }
  ~Server() {
    if (pid_ > 0) ::kill(pid_, SIGTERM);
  }
  std::string base() const { return "http://127.0.0.1:" + port_; }
  std::string Requests() const { return ReadText(log_); }
  bool started() const { return !port_.empty(); }

 private:
  std::string log_, port_;
  int pid_ = 0;
};

//! A running `ingest --follow`, its stderr in a file: SIGTERM and its exit status on Stop().
class Follower {
 public:
  Follower(const std::string& clock_file, const std::string& args, const std::string& log)
      : log_(log), pid_file_(log + ".pid"), rc_file_(log + ".rc") {
    // A shell waits for it and writes its exit status; the test signals the follower itself.
    RunCommand("(GHSIFT_TEST_CLOCK_FILE='" + clock_file + "' " + Ghsift() +
               " ingest --follow --all-repos --poll-seconds 1 " + args + " > '" + log + "' 2>&1 & pid=$!; echo $pid > '" +
               pid_file_ + "'; wait $pid; echo $? > '" + rc_file_ + ".part'; mv '" + rc_file_ + ".part' '" +
               rc_file_ + "') > /dev/null 2>&1 &");
    for (int i = 0; i < 200 && pid_ <= 0; ++i) {  // bounded: 10 s
      const std::string text = ReadText(pid_file_);
      if (text.find('\n') != std::string::npos) pid_ = std::atoi(text.c_str());
      if (pid_ <= 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  ~Follower() {
    if (pid_ > 0) Stop();
  }
  //! SIGTERM, then the exit status (-1 when it did not end within 60 s; it is killed then).
  int Stop() {
    if (pid_ <= 0) return -1;
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 600 && ReadText(rc_file_).empty(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    const std::string rc = ReadText(rc_file_);
    if (rc.empty()) ::kill(pid_, SIGKILL);
    pid_ = 0;
    return rc.empty() ? -1 : std::atoi(rc.c_str());
  }
  std::string Output() const { return ReadText(log_); }

 private:
  std::string log_, pid_file_, rc_file_;
  int pid_ = 0;
};

class FollowIngestTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    corpus_ = new TempDir();
    GenCorpus(*corpus_ / "hours", kHours, 1500, 23, "gz");
    const CommandResult r = RunCommand(Ghsift() + " ingest -q --all-repos --store " + (*corpus_ / "local") + " " +
                                       (*corpus_ / "hours"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    local_answers_ = new std::string(ComparableAnswers(*corpus_ / "local"));
  }
  static void TearDownTestSuite() {
    delete corpus_;
    delete local_answers_;
  }
  void Publish(int h) {
    std::filesystem::create_directories(dir_ / "served");
    std::filesystem::copy_file(*corpus_ / ("hours/" + HourName(h)), dir_ / ("served/" + HourName(h) + ".tmp"));
    std::filesystem::rename(dir_ / ("served/" + HourName(h) + ".tmp"), dir_ / ("served/" + HourName(h)));
  }
  void SetClock(int64_t seconds) { WriteText(dir_ / "clock", std::to_string(seconds)); }
  static TempDir* corpus_;
  static std::string* local_answers_;
  TempDir dir_;
};
TempDir* FollowIngestTest::corpus_ = nullptr;
std::string* FollowIngestTest::local_answers_ = nullptr;

// Catch up, see a new hour published and ingested, record a never-published hour as missing
// after the give-up time, stop on SIGTERM with exit 0; the store equals a local ingest of the
// same hours, and reruns (resuming, or from the first hour again) count nothing twice.
TEST_F(FollowIngestTest, CatchesUpFollowsNewHoursAndStopsCleanly) {
  for (int h = 0; h < 3; ++h) Publish(h);
  Server server(dir_, dir_ / "served", {});
  ASSERT_TRUE(server.started());
  const std::string store = dir_ / "store";
  SetClock(At(3, 30));  // hours 0..2 have ended, hour 3 has not
  Follower follower(dir_ / "clock",
                    "--store " + store + " --from 2024-01-01 --give-up-hours 2 --source " + server.base(),
                    dir_ / "follow.log");
  ASSERT_TRUE(WaitFor(dir_ / "follow.log", "waiting for 2024-01-01-3 (ends 2024-01-01T04:00Z)"))
      << follower.Output();
  EXPECT_NE(follower.Output().find("ingested 2024-01-01-0 .. 2024-01-01-2 (3 hours"), std::string::npos)
      << follower.Output();
  EXPECT_EQ(server.Requests().find(HourName(3)), std::string::npos) << "hour 3 was asked for before it ended";

  // Readers work while it runs: the reports of the three hours are there.
  const CommandResult issues = RunCommand(Ghsift() + " issues --exit-zero --limit 0 --format csv --kind all --since "
                                          "2024-01-01 --store " + store);
  EXPECT_EQ(issues.exit_code, 0) << issues.output;
  EXPECT_GT(std::count(issues.output.begin(), issues.output.end(), '\n'), 1) << issues.output;
  const CommandResult stats = RunCommand(Ghsift() + " stats --format json --store " + store);
  EXPECT_NE(stats.output.find("\"files\": 3,"), std::string::npos) << stats.output;

  // Hour 3 ends before it is published: asked for, 404, asked again once it is there.
  SetClock(At(4, 5));
  ASSERT_TRUE(WaitFor(dir_ / "follow.log", "2024-01-01-3 not published yet")) << follower.Output();
  Publish(3);
  SetClock(At(4, 10));
  ASSERT_TRUE(WaitFor(dir_ / "follow.log", "ingested 2024-01-01-3 (1 hour")) << follower.Output();

  // Hour 4 is never published: given up 2 h after it ended, recorded as missing at source.
  SetClock(At(5, 10));
  ASSERT_TRUE(WaitFor(dir_ / "follow.log", "2024-01-01-4 not published yet")) << follower.Output();
  // More than an hour late, it is asked for every quarter of an hour, and the log says so.
  SetClock(At(6, 20));
  ASSERT_TRUE(WaitFor(dir_ / "follow.log", "2024-01-01-4 not published yet; asking again every 15 min (it is more "
                                           "than an hour late) until 2024-01-01T07:00Z"))
      << follower.Output();
  SetClock(At(7, 10));  // hour 4 ended at 05:00: given up; hours 5 and 6 not yet
  ASSERT_TRUE(WaitFor(dir_ / "follow.log", HourName(4) + ": not published at the source 2 h after the hour ended"))
      << follower.Output();
  ASSERT_TRUE(WaitFor(dir_ / "follow.log", "waiting for 2024-01-01-7")) << follower.Output();

  EXPECT_EQ(follower.Stop(), 0) << follower.Output();
  EXPECT_NE(follower.Output().find("follow stopped by SIGTERM at 2024-01-01-5 (the oldest hour not read yet): 4 hours "
                                   "ingested in this run (6,000 events), 1 recorded missing at source"),
            std::string::npos)
      << follower.Output();
  EXPECT_EQ(ComparableAnswers(store), *local_answers_);
  const CommandResult coverage = RunCommand(Ghsift() + " stats --coverage --format json --store " + store +
                                            " --from 2024-01-01 --to 2024-01-01T04");
  EXPECT_NE(coverage.output.find("\"missing_at_source\": [{\"file\": \"" + HourName(4) + "\""), std::string::npos)
      << coverage.output;
  EXPECT_NE(coverage.output.find("\"failed_files\": [],"), std::string::npos) << coverage.output;

  // A rerun without --from resumes where it stopped; hours 0..4 are not asked for again.
  const size_t requests_before = server.Requests().size();
  Follower resumed(dir_ / "clock", "--store " + store + " --give-up-hours 2 --source " + server.base(),
                   dir_ / "resume.log");
  ASSERT_TRUE(WaitFor(dir_ / "resume.log", "waiting for 2024-01-01-7")) << resumed.Output();
  EXPECT_NE(resumed.Output().find("from 2024-01-01-5 into"), std::string::npos) << resumed.Output();
  EXPECT_EQ(resumed.Stop(), 0) << resumed.Output();
  const std::string later = server.Requests().substr(requests_before);
  for (int h = 0; h < 5; ++h) EXPECT_EQ(later.find(HourName(h)), std::string::npos) << later;
  EXPECT_EQ(ComparableAnswers(store), *local_answers_);

  // From the first hour again: the hours held are skipped without a request, nothing counts twice.
  Follower again(dir_ / "clock", "--store " + store + " --from 2024-01-01 --give-up-hours 2 --source " + server.base(),
                 dir_ / "again.log");
  ASSERT_TRUE(WaitFor(dir_ / "again.log", "waiting for 2024-01-01-7")) << again.Output();
  EXPECT_EQ(again.Stop(), 0) << again.Output();
  EXPECT_EQ(again.Output().find(" ingested 2024"), std::string::npos) << again.Output();
  EXPECT_EQ(ComparableAnswers(store), *local_answers_);
}

// SIGTERM while an hour is in transfer: the hour is abandoned whole (nothing of it counted), the
// follower exits 0 naming it as where it stopped, and the next run reads it.
TEST_F(FollowIngestTest, StopDuringATransferAbandonsThatHour) {
  for (int h = 0; h < kHours; ++h) Publish(h);
  const std::string store = dir_ / "store";
  {
    Server server(dir_, dir_ / "served", {HourName(3) + "=stall"});
    ASSERT_TRUE(server.started());
    SetClock(At(4, 10));
    Follower follower(dir_ / "clock", "--commit-mib 0 --store " + store + " --from 2024-01-01 --source " + server.base(),
                      dir_ / "follow.log");
    ASSERT_TRUE(WaitFor(dir_ / "requests.log", HourName(3) + " - 200")) << follower.Output();
    // Hours 0..2 committed (each alone: --commit-mib 0), hour 3 stalled half-way: stop now.
    bool three = false;
    for (int i = 0; i < 600 && !three; ++i) {  // bounded: 60 s
      three = RunCommand(Ghsift() + " stats --format json --store " + store).output.find("\"files\": 3,") !=
              std::string::npos;
      if (!three) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_TRUE(three) << follower.Output();
    EXPECT_EQ(follower.Stop(), 0) << follower.Output();
    EXPECT_NE(follower.Output().find("follow stopped by SIGTERM at 2024-01-01-3 (the oldest hour not read yet; 1 hour "
                                     "was in flight, abandoned with nothing of it counted)"),
              std::string::npos)
        << follower.Output();
  }
  const CommandResult stats = RunCommand(Ghsift() + " stats --format json --store " + store);
  EXPECT_NE(stats.output.find("\"files\": 3,"), std::string::npos) << "the stalled hour was counted: " << stats.output;
  std::filesystem::remove(dir_ / "requests.log");
  std::filesystem::remove(dir_ / "port");
  Server server(dir_, dir_ / "served", {});
  ASSERT_TRUE(server.started());
  Follower rerun(dir_ / "clock", "--store " + store + " --source " + server.base(), dir_ / "rerun.log");
  ASSERT_TRUE(WaitFor(dir_ / "rerun.log", "waiting for 2024-01-01-4")) << rerun.Output();
  EXPECT_EQ(rerun.Stop(), 0) << rerun.Output();
  EXPECT_EQ(ComparableAnswers(store), *local_answers_);
}

// The stop message counts the hours whose transfer was open, not the hours of the round that were
// never opened: with one connection and a stalled hour 1, hours 2 and 3 were waiting their turn.
TEST_F(FollowIngestTest, StopCountsOnlyTheHoursReallyInFlight) {
  for (int h = 0; h < kHours; ++h) Publish(h);
  const std::string store = dir_ / "store";
  Server server(dir_, dir_ / "served", {HourName(1) + "=stall"});
  ASSERT_TRUE(server.started());
  SetClock(At(4, 10));
  Follower follower(dir_ / "clock",
                    "--connections 1 --commit-mib 0 --store " + store + " --from 2024-01-01 --source " + server.base(),
                    dir_ / "follow.log");
  ASSERT_TRUE(WaitFor(dir_ / "requests.log", HourName(1) + " - 200")) << follower.Output();
  bool one = false;
  for (int i = 0; i < 600 && !one; ++i) {  // bounded: 60 s
    one = RunCommand(Ghsift() + " stats --format json --store " + store).output.find("\"files\": 1,") !=
          std::string::npos;
    if (!one) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(one) << follower.Output();
  EXPECT_EQ(follower.Stop(), 0) << follower.Output();
  EXPECT_NE(follower.Output().find("follow stopped by SIGTERM at 2024-01-01-1 (the oldest hour not read yet; 1 hour "
                                   "was in flight, abandoned with nothing of it counted)"),
            std::string::npos)
      << follower.Output();
}

// A source that cannot be reached is said at the start, and the follower never calls itself
// up to date before the source has answered.
TEST_F(FollowIngestTest, AnUnreachableSourceIsSaidAtTheStart) {
  SetClock(At(4, 10));  // hour 4 has not ended: nothing is due, the follower waits at once
  Follower follower(dir_ / "clock",
                    "--store " + (dir_ / "store") + " --from 2024-01-01-4 --source http://127.0.0.1:1",
                    dir_ / "follow.log");
  ASSERT_TRUE(WaitFor(dir_ / "follow.log", "waiting for 2024-01-01-4")) << follower.Output();
  EXPECT_EQ(follower.Stop(), 0) << follower.Output();
  const std::string out = follower.Output();
  EXPECT_NE(out.find("ghsift: follow: cannot reach the source http://127.0.0.1:1: "), std::string::npos) << out;
  EXPECT_NE(out.find("ghsift: follow: the source has not answered yet; waiting for 2024-01-01-4"), std::string::npos)
      << out;
  EXPECT_EQ(out.find("up to date"), std::string::npos) << out;
}

TEST_F(FollowIngestTest, OptionsThatCannotGoWithFollowAreErrors) {
  const std::string base = Ghsift() + " ingest --follow --store " + (dir_ / "store");
  const CommandResult to = RunCommand(base + " --from 2024-01-01 --to 2024-01-02");
  EXPECT_EQ(to.exit_code, 2) << to.output;
  EXPECT_NE(to.output.find("--follow runs until stopped; it takes no --to"), std::string::npos) << to.output;
  const CommandResult files = RunCommand(base + " " + (dir_ / "x.json.gz"));
  EXPECT_EQ(files.exit_code, 2) << files.output;
  EXPECT_NE(files.output.find("--follow reads the hours from --source"), std::string::npos) << files.output;
  const CommandResult source = RunCommand(base + " --source ftp://127.0.0.1/");
  EXPECT_EQ(source.exit_code, 2) << source.output;
  EXPECT_NE(source.output.find("--source must be an http:// or https:// URL"), std::string::npos) << source.output;
  const CommandResult poll = RunCommand(base + " --poll-seconds 0");
  EXPECT_EQ(poll.exit_code, 2) << poll.output;
  EXPECT_NE(poll.output.find("ghsift: --poll-seconds: must be a whole number from 1 to 86400, not '0'"),
            std::string::npos)
      << poll.output;
  // And options that only a download or --follow uses are errors where they would be ignored.
  const std::string local = Ghsift() + " ingest --store " + (dir_ / "store") + " " + (*corpus_ / "hours");
  const CommandResult poll_range = RunCommand(local + " --poll-seconds 5");
  EXPECT_EQ(poll_range.exit_code, 2);
  EXPECT_NE(poll_range.output.find("ghsift: --poll-seconds goes with --follow"), std::string::npos) << poll_range.output;
  const CommandResult save_local = RunCommand(local + " --save-dumps " + (dir_ / "saved"));
  EXPECT_EQ(save_local.exit_code, 2);
  EXPECT_NE(save_local.output.find("ghsift: --save-dumps keeps copies of downloaded hours; these inputs are all "
                                   "local files"),
            std::string::npos)
      << save_local.output;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "saved"));
  EXPECT_NE(RunCommand(base + " --source ftp://127.0.0.1/").output.find("not 'ftp://127.0.0.1/'"), std::string::npos);
}

}  // namespace
}  // namespace ghsift::testing
