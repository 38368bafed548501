// `ghsift ingest --follow` as a user runs it: the real clock, a signal to stop, the exit status
// and the lines it prints. The follower's schedule (hours ending, late, given up, stalled) is
// tested on its own clock in tests/pipelines/follow_test.cpp; here the hour followed is one that
// has not ended yet, so nothing depends on when the test runs. Every wait is bounded and looks
// for a line the follower printed.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <thread>

#include "fault_server.hpp"
#include "io/archive_hours.hpp"
#include "test_support.hpp"

namespace ghsift::testing {
namespace {

//! Polls `path` until it contains `text` (bounded: 60 s).
bool WaitFor(const std::string& path, const std::string& text) {
  for (int i = 0; i < 600; ++i) {
    if (ReadText(path).find(text) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

//! A running `ingest --follow`, its stderr in a file: SIGTERM and its exit status on Stop().
class Follower {
 public:
  Follower(const std::string& args, const std::string& log)
      : log_(log), pid_file_(log + ".pid"), rc_file_(log + ".rc") {
    // A shell waits for it and writes its exit status; the test signals the follower itself.
    RunCommand("(" + Ghsift() + " ingest --follow --all-repos --poll-seconds 1 " + args + " > '" + log +
               "' 2>&1 & pid=$!; echo $pid > '" + pid_file_ + "'; wait $pid; echo $? > '" + rc_file_ + ".part'; mv '" +
               rc_file_ + ".part' '" + rc_file_ + "') > /dev/null 2>&1 &");
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

//! An hour that ends more than an hour from now: a follower started there only waits.
std::string HourNotEndedSoon() { return FormatHour(std::time(nullptr) / 3600 + 2); }

class FollowIngestTest : public ::testing::Test {
 protected:
  TempDir dir_;
};

// Waiting for an hour that has not ended, the follower stops on SIGTERM with exit status 0 and
// says where the next run resumes.
TEST_F(FollowIngestTest, SigtermEndsTheWaitCleanly) {
  std::filesystem::create_directories(dir_ / "served");
  FaultServer server(dir_, dir_ / "served", {});
  ASSERT_TRUE(server.started());
  const std::string hour = HourNotEndedSoon();
  Follower follower("--store " + (dir_ / "store") + " --from " + hour + " --source " + server.base(),
                    dir_ / "follow.log");
  ASSERT_TRUE(WaitFor(dir_ / "follow.log", "up to date; waiting for " + hour)) << follower.Output();
  EXPECT_EQ(follower.Stop(), 0) << follower.Output();
  EXPECT_NE(follower.Output().find("ghsift: follow stopped by SIGTERM at " + hour +
                                   " (the oldest hour not read yet): 0 hours ingested in this run (0 events), 0 "
                                   "recorded missing at source, 0 given up as failed; `ingest --follow` without "
                                   "--from resumes there"),
            std::string::npos)
      << follower.Output();
  const CommandResult stats = RunCommand(Ghsift() + " stats --format json --store " + (dir_ / "store"));
  EXPECT_NE(stats.output.find("\"files\": 0,"), std::string::npos) << stats.output;
}

// A source that cannot be reached is said at the start, and the follower never calls itself
// up to date before the source has answered.
TEST_F(FollowIngestTest, AnUnreachableSourceIsSaidAtTheStart) {
  const std::string hour = HourNotEndedSoon();
  Follower follower("--store " + (dir_ / "store") + " --from " + hour + " --source http://127.0.0.1:1",
                    dir_ / "follow.log");
  ASSERT_TRUE(WaitFor(dir_ / "follow.log", "waiting for " + hour)) << follower.Output();
  EXPECT_EQ(follower.Stop(), 0) << follower.Output();
  const std::string out = follower.Output();
  EXPECT_NE(out.find("ghsift: follow: cannot reach the source http://127.0.0.1:1: "), std::string::npos) << out;
  EXPECT_NE(out.find("ghsift: follow: the source has not answered yet; waiting for " + hour), std::string::npos)
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
  const std::string local = Ghsift() + " ingest --store " + (dir_ / "store") + " '" + GHSIFT_SOURCE_DIR +
                            "/tests/data/sample/2024-03-05-14.json.gz'";
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
