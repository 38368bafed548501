// The follower (pipelines/follow) on its own clock: RunFollow asks a real local HTTP server
// (tests/io/fault_http_server.py) for generated hours while the test moves time forward in the
// follower's waits, publishing an hour or asking it to stop at set moments. So the hours end, are
// late, are given up on or stall exactly when the test says, with no wait in real time.
#include "pipelines/follow.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <thread>

#include "fault_server.hpp"
#include "pipelines/store_scope.hpp"
#include "rules/rule_set.hpp"
#include "test_support.hpp"

namespace ghsift::testing {
namespace {

constexpr int kHours = 4;                  // generated hours 2024-01-01-0 .. -3
constexpr int64_t kDayStart = 1704067200;  // 2024-01-01T00:00Z
constexpr int64_t kFirstHour = kDayStart / 3600;

std::string HourName(int h) { return "2024-01-01-" + std::to_string(h) + ".json.gz"; }
int64_t At(int hour, int minute) { return kDayStart + hour * 3600 + minute * 60; }

//! The follower's clock. A wait moves it forward, to the end of the wait or to the next
//! scheduled action if that comes first, and runs the actions that are due.
class TestClock {
 public:
  explicit TestClock(int64_t start) : now_(start) {}
  int64_t Now() const { return now_; }
  void At(int64_t when, std::function<void()> action) { actions_.emplace(when, std::move(action)); }
  void Sleep(int64_t seconds) {
    const int64_t until = now_ + seconds;
    while (!actions_.empty() && actions_.begin()->first <= until) {
      now_ = std::max(now_, actions_.begin()->first);
      auto action = std::move(actions_.begin()->second);
      actions_.erase(actions_.begin());
      action();
    }
    now_ = std::max(now_, until);
  }

 private:
  int64_t now_;
  std::multimap<int64_t, std::function<void()>> actions_;
};

//! What the follower said and warned, in order.
struct Lines {
  std::string text;
  bool Has(const std::string& part) const { return text.find(part) != std::string::npos; }
};

class FollowTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    corpus_ = new TempDir();
    GenCorpus(*corpus_ / "hours", kHours, 1500, 23, "gz");
    const CommandResult r = RunCommand(Ghsift() + " ingest -q --all-repos --rules " + Rules() + " --store " +
                                       (*corpus_ / "local") + " " + (*corpus_ / "hours"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    local_answers_ = new std::string(StoreAnswers(*corpus_ / "local", false));
  }
  static void TearDownTestSuite() {
    delete corpus_;
    delete local_answers_;
  }
  static std::string Rules() { return std::string(GHSIFT_SOURCE_DIR) + "/rules"; }

  void Publish(int h) {
    std::filesystem::create_directories(dir_ / "served");
    std::filesystem::copy_file(*corpus_ / ("hours/" + HourName(h)), dir_ / ("served/" + HourName(h) + ".tmp"));
    std::filesystem::rename(dir_ / ("served/" + HourName(h) + ".tmp"), dir_ / ("served/" + HourName(h)));
  }

  struct Run {
    Result<FollowSummary> summary = Status::Cancelled("not run");
    Lines lines;
  };
  //! Opens the store, follows from `first_hour` on `clock` until `stop` is set, closes the store.
  Run Follow(const FaultServer& server, TestClock& clock, std::atomic<bool>& stop, int64_t first_hour,
             IngestOptions options = {}, std::optional<BackupPolicy> backup = {}) {
    Run run;
    auto store = Store::Open(dir_ / "store", StoreMode::kReadWrite);
    auto rules = LoadRuleSet(Rules());
    EXPECT_TRUE(store.ok() && rules.ok());
    if (!store.ok() || !rules.ok()) return run;
    auto db = RuleDatabase::Compile(*rules);
    EXPECT_TRUE(db.ok() && CheckStoreScope(**store, *rules, RepoFilter::All()).ok());
    if (!db.ok()) return run;
    options.threads = 2;
    options.stop = &stop;
    IngestPipeline pipeline(**store, *db, RepoFilter::All(), options);
    FollowOptions follow;
    follow.base_url = server.base();
    follow.first_hour = first_hour;
    follow.poll_seconds = 60;
    follow.give_up_seconds = 2 * 3600;
    follow.now = [&clock] { return clock.Now(); };
    follow.sleep = [&clock](int64_t seconds) { clock.Sleep(seconds); };
    follow.stop = &stop;
    follow.say = [&run](const std::string& line) { run.lines.text += line + "\n"; };
    follow.warn = follow.say;
    follow.backup = backup;
    opened_store_ = store->get();
    run.summary = RunFollow(**store, pipeline, follow);
    opened_store_ = nullptr;
    return run;
  }
  //! The files the store being followed into holds (read while the follower runs).
  int FilesHeld() const {
    int held = 0;
    for (int h = 0; h < kHours; ++h) {
      const auto found = opened_store_.load()->FindFile(HourName(h));
      held += found.ok() && found->has_value() ? 1 : 0;
    }
    return held;
  }

  static TempDir* corpus_;
  static std::string* local_answers_;
  TempDir dir_;
  std::atomic<Store*> opened_store_{nullptr};
};
TempDir* FollowTest::corpus_ = nullptr;
std::string* FollowTest::local_answers_ = nullptr;

// Catch up, see a new hour published and ingested, record a never-published hour as missing
// after the give-up time; the store equals a local ingest of the same hours, and reruns
// (resuming, or from the first hour again) count nothing twice.
TEST_F(FollowTest, CatchesUpFollowsNewHoursAndGivesUpOnAMissingOne) {
  for (int h = 0; h < 3; ++h) Publish(h);
  FaultServer server(dir_, dir_ / "served", {}, "", 60, 240);
  ASSERT_TRUE(server.started());
  TestClock clock(At(3, 30));  // hours 0..2 have ended, hour 3 has not
  std::atomic<bool> stop{false};
  bool asked_early = true;
  clock.At(At(3, 59), [&] { asked_early = server.Requests().find(HourName(3)) != std::string::npos; });
  clock.At(At(4, 10), [&] { Publish(3); });  // published 10 minutes after it ended
  clock.At(At(7, 10), [&] { stop = true; });   // hour 4 ended at 05:00: given up at 07:00
  const Run run = Follow(server, clock, stop, kFirstHour);
  ASSERT_TRUE(run.summary.ok()) << run.summary.status().message();
  EXPECT_FALSE(asked_early) << "hour 3 was asked for before it ended";
  for (const std::string& line : std::vector<std::string>{
           "waiting for 2024-01-01-3 (ends 2024-01-01T04:00Z)", "ingested 2024-01-01-0 .. 2024-01-01-2 (3 hours",
        "2024-01-01-3 not published yet; asking again every 1 min until 2024-01-01T06:00Z",
        "ingested 2024-01-01-3 (1 hour, 1,500 events)",
        "2024-01-01-4 not published yet; asking again every 15 min (it is more than an hour late) until "
        "2024-01-01T07:00Z",
        HourName(4) + ": not published at the source 2 h after the hour ended; recorded as missing",
        "waiting for 2024-01-01-7"}) {
    EXPECT_TRUE(run.lines.Has(line)) << line << "\n" << run.lines.text;
  }
  EXPECT_EQ(run.summary->hours_ingested, 4u);
  EXPECT_EQ(run.summary->events, 6000u);
  EXPECT_EQ(run.summary->hours_missing, 1u);
  EXPECT_EQ(run.summary->hours_failed, 0u);
  EXPECT_EQ(run.summary->hours_abandoned, 0u);
  EXPECT_EQ(run.summary->next_hour, kFirstHour + 5);  // hours 5 and 6 are due, not published yet
  EXPECT_EQ(StoreAnswers(dir_ / "store", false), *local_answers_);
  const CommandResult coverage = RunCommand(Ghsift() + " stats --coverage --format json --store " + (dir_ / "store") +
                                            " --from 2024-01-01 --to 2024-01-01T04");
  EXPECT_NE(coverage.output.find("\"missing_at_source\": [{\"file\": \"" + HourName(4) + "\""), std::string::npos)
      << coverage.output;
  EXPECT_NE(coverage.output.find("\"failed_files\": [],"), std::string::npos) << coverage.output;

  // Where a follow without --from starts: where this one stopped.
  {
    auto store = Store::Open(dir_ / "store", StoreMode::kRead);
    ASSERT_TRUE(store.ok());
    EXPECT_EQ(DefaultFollowStart(**store, clock.Now()).value(), kFirstHour + 5);
  }
  // Resuming there asks for none of hours 0..4 again.
  const size_t requests_before = server.Requests().size();
  stop = false;
  clock.At(clock.Now() + 30, [&] { stop = true; });
  const Run resumed = Follow(server, clock, stop, kFirstHour + 5);
  ASSERT_TRUE(resumed.summary.ok());
  const std::string later = server.Requests().substr(requests_before);
  for (int h = 0; h < 5; ++h) EXPECT_EQ(later.find(HourName(h)), std::string::npos) << later;
  // From the first hour again: the hours held are skipped without a request, nothing counts twice.
  stop = false;
  clock.At(clock.Now() + 30, [&] { stop = true; });
  const Run again = Follow(server, clock, stop, kFirstHour);
  ASSERT_TRUE(again.summary.ok());
  EXPECT_EQ(again.summary->hours_ingested, 0u) << again.lines.text;
  for (int h = 0; h < 4; ++h) {
    EXPECT_EQ(server.Requests().substr(requests_before).find(HourName(h)), std::string::npos) << HourName(h);
  }
  EXPECT_EQ(StoreAnswers(dir_ / "store", false), *local_answers_);
}

// With a backup policy, a round that committed is followed by a backup when one is due by the
// follower's clock: after the first round, none after another round of the same 2-hour period
// (02:00-04:00), one after a round of the next period. Each backup is the store as its round left
// it.
TEST_F(FollowTest, BacksUpAfterARoundsCommitsOncePerPeriod) {
  for (int h = 0; h < 2; ++h) Publish(h);
  FaultServer server(dir_, dir_ / "served", {}, "", 60, 240);
  ASSERT_TRUE(server.started());
  TestClock clock(At(3, 30));
  std::atomic<bool> stop{false};
  const BackupPolicy policy{.dir = dir_ / "backups", .every_seconds = 2 * 3600};
  std::filesystem::create_directory(policy.dir);  // made once by the operator: a follower does not
  std::string after_first_round;  // the store's answers when the first round's backup was made
  clock.At(At(3, 40), [&] { after_first_round = StoreAnswers(dir_ / "store", false); });
  clock.At(At(3, 50), [&] { Publish(2); });  // the first backup's period: none
  clock.At(At(4, 40), [&] { Publish(3); });  // the next period (04:00-06:00): one
  clock.At(At(4, 50), [&] { stop = true; });
  const Run run = Follow(server, clock, stop, kFirstHour, {}, policy);
  ASSERT_TRUE(run.summary.ok()) << run.summary.status().message();
  EXPECT_TRUE(run.lines.Has("ghsift: follow: backup 1 into " + policy.dir + ": ")) << run.lines.text;
  EXPECT_TRUE(run.lines.Has("ghsift: follow: backup 2 into " + policy.dir + ": ")) << run.lines.text;
  EXPECT_FALSE(run.lines.Has("backup 3")) << run.lines.text;
  EXPECT_TRUE(run.lines.Has("ingested 2024-01-01-2 (1 hour")) << run.lines.text;  // a round with no backup

  const auto backups = ListBackups(policy.dir);
  ASSERT_TRUE(backups.ok()) << backups.status().message();
  ASSERT_EQ(backups->size(), 2u);
  EXPECT_EQ((*backups)[0].description,
            (BackupDescription{{"events", "3000"}, {"files", "2"}, {"newest_hour", "2024-01-01T01:00:00Z"}}));
  EXPECT_EQ((*backups)[1].description,
            (BackupDescription{{"events", "6000"}, {"files", "4"}, {"newest_hour", "2024-01-01T03:00:00Z"}}));
  // The first backup is the store as the first round left it.
  const auto restored = RestoreBackup(policy.dir, 1, dir_ / "restored");
  ASSERT_TRUE(restored.ok()) << restored.status().message();
  EXPECT_EQ(StoreAnswers(dir_ / "restored", false), after_first_round);
}

//! Sets `stop` once `ready` holds (bounded: 60 s), from its own thread.
std::thread StopWhen(std::atomic<bool>& stop, std::function<bool()> ready) {
  return std::thread([&stop, ready = std::move(ready)] {
    for (int i = 0; i < 600 && !ready(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop = true;
  });
}

// A stop while an hour is in transfer: the hour is abandoned whole (nothing of it counted), the
// follower names it as where it stopped, and the next run reads it.
// A store that a range ingest or the cron script wrote (no follower's resume mark): the follower
// starts at the oldest hour of the day up to the store's newest that the store lacks (a failed
// hour, or one not published when it was asked for), not after the newest one, which would leave
// it behind for good; a store that lacks none is followed from the hour after its newest.
TEST_F(FollowTest, AStoreOfAnotherIngestIsFollowedFromItsLastDaysGap) {
  const auto ingest = [&](const std::string& store, std::vector<int> hours) {
    std::string files;
    for (int h : hours) files += " " + (*corpus_ / ("hours/" + HourName(h)));
    const CommandResult r =
        RunCommand(Ghsift() + " ingest -q --all-repos --rules " + Rules() + " --store " + store + files);
    ASSERT_EQ(r.exit_code, 0) << r.output;
  };
  const auto start = [&](const std::string& path) {
    auto store = Store::Open(path, StoreMode::kRead);
    EXPECT_TRUE(store.ok());
    return DefaultFollowStart(**store, kFirstHour * 3600 + 10 * 3600).value();
  };
  ingest(dir_ / "gap", {0, 1, 3});
  EXPECT_EQ(start(dir_ / "gap"), kFirstHour + 2);
  ingest(dir_ / "whole", {1, 2, 3});  // hour 0, before the store's first, was never asked for
  EXPECT_EQ(start(dir_ / "whole"), kFirstHour + 4);
}

TEST_F(FollowTest, StopDuringATransferAbandonsThatHour) {
  for (int h = 0; h < kHours; ++h) Publish(h);
  {
    FaultServer server(dir_, dir_ / "served", {HourName(3) + "=stall"}, "", 60, 240);
    ASSERT_TRUE(server.started());
    TestClock clock(At(4, 10));
    std::atomic<bool> stop{false};
    IngestOptions options;
    options.commit_group_bytes = 0;  // each hour committed alone
    // Hours 0..2 committed, hour 3 stalled half-way: stop now.
    std::thread stopper = StopWhen(stop, [&] {
      return server.Requests().find(HourName(3) + " - 200") != std::string::npos && opened_store_ != nullptr &&
             FilesHeld() == 3;
    });
    const Run run = Follow(server, clock, stop, kFirstHour, options);
    stopper.join();
    ASSERT_TRUE(run.summary.ok()) << run.summary.status().message();
    EXPECT_EQ(run.summary->hours_ingested, 3u) << run.lines.text;
    EXPECT_EQ(run.summary->hours_abandoned, 1u) << run.lines.text;
    EXPECT_EQ(run.summary->next_hour, kFirstHour + 3);
  }
  std::filesystem::remove(dir_ / "requests.log");
  std::filesystem::remove(dir_ / "port");
  FaultServer server(dir_, dir_ / "served", {}, "", 60, 240);
  ASSERT_TRUE(server.started());
  TestClock clock(At(4, 10));
  std::atomic<bool> stop{false};
  clock.At(At(4, 11), [&] { stop = true; });
  const Run rerun = Follow(server, clock, stop, kFirstHour + 3);
  ASSERT_TRUE(rerun.summary.ok());
  EXPECT_EQ(rerun.summary->hours_ingested, 1u) << rerun.lines.text;
  EXPECT_EQ(StoreAnswers(dir_ / "store", false), *local_answers_);
}

// Only the hours whose transfer was open are in flight, not those of the round never opened:
// with one connection and a stalled hour 1, hours 2 and 3 were waiting their turn.
TEST_F(FollowTest, StopCountsOnlyTheHoursReallyInFlight) {
  for (int h = 0; h < kHours; ++h) Publish(h);
  FaultServer server(dir_, dir_ / "served", {HourName(1) + "=stall"}, "", 60, 240);
  ASSERT_TRUE(server.started());
  TestClock clock(At(4, 10));
  std::atomic<bool> stop{false};
  IngestOptions options;
  options.commit_group_bytes = 0;
  options.max_open_files = 1;
  std::thread stopper = StopWhen(stop, [&] {
    return server.Requests().find(HourName(1) + " - 200") != std::string::npos && opened_store_ != nullptr &&
           FilesHeld() == 1;
  });
  const Run run = Follow(server, clock, stop, kFirstHour, options);
  stopper.join();
  ASSERT_TRUE(run.summary.ok());
  EXPECT_EQ(run.summary->hours_abandoned, 1u) << run.lines.text;
  EXPECT_EQ(run.summary->next_hour, kFirstHour + 1);
}

}  // namespace
}  // namespace ghsift::testing
