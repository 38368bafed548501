// `ghsift ingest` over HTTP against a real local server (tests/io/fault_http_server.py on
// 127.0.0.1) that injects faults: every run must leave the store equal to an ingest of the same
// hours from disk, exactly once.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>
#include <vector>

#include "common/time_range.hpp"
#include "eval/labeled_report.hpp"
#include "io/http_source.hpp"
#include "query/coverage.hpp"
#include "fault_server.hpp"
#include "test_support.hpp"

namespace ghsift::testing {
namespace {

constexpr int kHours = 4;  // generated hours 2024-01-01-0 .. -3

std::string HourName(int h) { return "2024-01-01-" + std::to_string(h) + ".json.gz"; }

//! StoreAnswers without the skipped_files counter (a run that skipped an hour differs only there).
std::string AnswersWithoutSkips(const std::string& store) {
  std::string answers = StoreAnswers(store);
  const size_t at = answers.find("\"skipped_files\"");
  if (at != std::string::npos) answers.erase(at, answers.find('\n', at) - at);
  return answers;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class HttpIngestTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    corpus_ = new TempDir();
    GenCorpus(*corpus_ / "hours", kHours, 1500, 17, "gz");
    const CommandResult r = RunCommand(Ghsift() + " ingest -q --all-repos --store " + (*corpus_ / "local") + " " +
                                       (*corpus_ / "hours"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    local_answers_ = new std::string(AnswersWithoutSkips(*corpus_ / "local"));
  }
  static void TearDownTestSuite() {
    delete corpus_;
    delete local_answers_;
  }
  std::string hours() const { return *corpus_ / "hours"; }
  CommandResult IngestRange(const FaultServer& server, const std::string& store, const std::string& extra = "") {
    return RunCommand(Ghsift() + " ingest -q --all-repos --store " + store + " --from 2024-01-01 --to 2024-01-01-" +
                      std::to_string(kHours - 1) + " --source " + server.base() + " " + extra);
  }
  static TempDir* corpus_;
  static std::string* local_answers_;
  TempDir dir_;
};
TempDir* HttpIngestTest::corpus_ = nullptr;
std::string* HttpIngestTest::local_answers_ = nullptr;

TEST_F(HttpIngestTest, FaultsAreRetriedAndTheStoreEqualsALocalIngest) {
  FaultServer server(dir_, hours(),
                     {HourName(0) + "=reset", HourName(1) + "=error500", HourName(2) + "=short+norange",
                      HourName(3) + "=trickle"});
  ASSERT_TRUE(server.started());
  const CommandResult r = IngestRange(server, dir_ / "store");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(AnswersWithoutSkips(dir_ / "store"), *local_answers_);
  const std::string log = server.Requests();
  // The reset hour was resumed with a Range request; the 500 was followed by a whole body; the
  // short hour on a server without ranges was restarted from its first byte.
  EXPECT_NE(log.find(HourName(0) + " bytes="), std::string::npos) << log;
  EXPECT_NE(log.find(HourName(1) + " - 500"), std::string::npos) << log;
  EXPECT_NE(log.find(HourName(1) + " - 200"), std::string::npos) << log;
  const size_t restart = log.find(HourName(2) + " bytes=");
  ASSERT_NE(restart, std::string::npos) << log;
  EXPECT_NE(log.substr(restart, log.find('\n', restart) - restart).find(" 200 "), std::string::npos) << log;
  EXPECT_NE(log.find("ghsift/"), std::string::npos) << "user agent names ghsift: " << log;
}

// A body sent without a Content-Length ends where the connection closes, so a cut one looks
// whole to the transfer; the decoder finds its stream unfinished, and the rest is asked for as
// for any cut transfer: a Range request, or the whole body again (its first bytes compared and
// dropped) from a server without ranges. The store equals a local ingest, and the saved copies
// are the served bytes.
TEST_F(HttpIngestTest, ABodyWithoutLengthCutShortIsReadOn) {
  FaultServer server(dir_, hours(),
                     {HourName(0) + "=nolength+short", HourName(1) + "=nolength+short+norange",
                      HourName(2) + "=nolength"});
  ASSERT_TRUE(server.started());
  const std::string saved = dir_ / "saved";
  const CommandResult r = IngestRange(server, dir_ / "store", "--save-dumps " + saved);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(AnswersWithoutSkips(dir_ / "store"), *local_answers_);
  const std::string log = server.Requests();
  EXPECT_EQ(Count(log, HourName(0) + " "), 2u) << log;
  EXPECT_NE(log.find(HourName(0) + " bytes="), std::string::npos) << log;
  EXPECT_NE(log.find(" 206 "), std::string::npos) << log;
  const size_t restart = log.find(HourName(1) + " bytes=");
  ASSERT_NE(restart, std::string::npos) << log;
  EXPECT_NE(log.substr(restart, log.find('\n', restart) - restart).find(" 200 "), std::string::npos) << log;
  EXPECT_EQ(Count(log, HourName(2) + " "), 1u) << "a whole body is not asked for again: " << log;
  for (int h = 0; h < kHours; ++h) {
    EXPECT_EQ(ReadText(saved + "/" + HourName(h)), ReadText(hours() + "/" + HourName(h))) << HourName(h);
    EXPECT_FALSE(std::filesystem::exists(saved + "/" + HourName(h) + ".part")) << HourName(h);
  }
}

// A body without length cut on every try fails its hour once the retries are spent, saying so;
// nothing of it is stored. A stream cut short at the source still fails without retries when
// its Content-Length vouched for the body, and after one Range request (answered 416: nothing
// after it) when none did.
TEST_F(HttpIngestTest, ABodyWithoutLengthCutOnEveryTryFailsItsHour) {
  const std::string served = dir_ / "served";
  std::filesystem::create_directories(served);
  for (int h : {0, 3}) std::filesystem::copy_file(hours() + "/" + HourName(h), served + "/" + HourName(h));
  for (int h : {1, 2}) {
    const std::string whole = ReadText(hours() + "/" + HourName(h));
    std::ofstream(served + "/" + HourName(h), std::ios::binary) << whole.substr(0, whole.size() / 2);
  }
  FaultServer server(dir_, served, {HourName(0) + "=nolength+shortever", HourName(2) + "=nolength"});
  ASSERT_TRUE(server.started());
  const CommandResult r = IngestRange(server, dir_ / "store", "--retries 2");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("ghsift: " + server.base() + "/" + HourName(0) +
                          ": the body (sent without a Content-Length) ended before its compressed stream did after 3 "
                          "attempts (nothing of this file was counted)\n"),
            std::string::npos)
      << r.output;
  for (int h : {1, 2}) {
    EXPECT_NE(r.output.find("ghsift: " + server.base() + "/" + HourName(h) +
                            ": truncated gzip stream (unexpected end of file) (nothing of this file was counted)\n"),
              std::string::npos)
        << r.output;
  }
  const std::string log = server.Requests();
  EXPECT_EQ(Count(log, HourName(0) + " "), 3u) << log;
  EXPECT_EQ(Count(log, HourName(0) + " bytes="), 2u) << log;
  EXPECT_EQ(Count(log, HourName(1) + " "), 1u) << log;
  EXPECT_EQ(Count(log, HourName(2) + " "), 2u) << log;
  EXPECT_NE(log.find(HourName(2) + " bytes=" + std::to_string(ReadText(served + "/" + HourName(2)).size()) + "- 416"),
            std::string::npos)
      << log;
  // The store holds hour 3 alone, as a local ingest of it does.
  const CommandResult local = RunCommand(Ghsift() + " ingest -q --all-repos --store " + (dir_ / "local") + " " +
                                         hours() + "/" + HourName(3));
  ASSERT_EQ(local.exit_code, 0) << local.output;
  EXPECT_EQ(StoreAnswers(dir_ / "store", false), StoreAnswers(dir_ / "local", false));
  const CommandResult stats = RunCommand(Ghsift() + " stats --format json --store " + (dir_ / "store"));
  EXPECT_NE(stats.output.find("\"files\": 1,"), std::string::npos) << stats.output;
}

TEST_F(HttpIngestTest, ConnectionsTransfersRunAtOnceWhateverTheThreads) {
  // Every answer waits a second before its status line, like a distant server: with one thread
  // and --connections 3, three hours must still be asked for together.
  FaultServer server(dir_, hours(), {}, "--latency-ms 1000 --peak-file '" + (dir_ / "peak") + "'");
  ASSERT_TRUE(server.started());
  const CommandResult r = IngestRange(server, dir_ / "store", "--threads 1 --connections 3");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(AnswersWithoutSkips(dir_ / "store"), *local_answers_);
  EXPECT_EQ(ReadText(dir_ / "peak"), "3\n") << server.Requests();
}

TEST_F(HttpIngestTest, AnHourWhoseBytesHaveNotArrivedDoesNotHoldTheOthers) {
  // The first hour's body starts 8 s after its headers. With one thread and four connections,
  // the other hours have arrived meanwhile: they are read and committed first, not after it.
  FaultServer server(dir_, hours(), {HourName(0) + "=late"});
  ASSERT_TRUE(server.started());
  const CommandResult r = IngestRange(server, dir_ / "store", "--threads 1 --connections 4");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(AnswersWithoutSkips(dir_ / "store"), *local_answers_);
  const CommandResult files = RunCommand(Ghsift() + " stats --store " + (dir_ / "store") + " --files --format csv");
  ASSERT_EQ(files.exit_code, 0) << files.output;
  std::map<std::string, std::string> ingested_at;  // file -> its ISO time, whole seconds
  std::istringstream lines(files.output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("2024-", 0) != 0) continue;
    // file,status,events,bad_lines,report_events_without_number,bytes,decoded_bytes,ingested_at,reason
    std::vector<std::string> fields;
    std::istringstream row(line);
    for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
    ASSERT_GE(fields.size(), 8u) << line;
    ingested_at[fields[0]] = fields[7];
  }
  ASSERT_EQ(ingested_at.size(), static_cast<size_t>(kHours)) << files.output;
  for (int h = 1; h < kHours; ++h) {
    EXPECT_LT(ingested_at[HourName(h)], ingested_at[HourName(0)]) << files.output;
  }
}

// --commit-seconds holds while no file finishes: the hours that arrived are committed (and
// shown by a reader) while the late hour's body is still 8 s away, not when it arrives.
TEST_F(HttpIngestTest, CommitSecondsHoldWhileAnHourIsStillDownloading) {
  FaultServer server(dir_, hours(), {HourName(0) + "=late"});
  ASSERT_TRUE(server.started());
  const std::string store = dir_ / "store", done = dir_ / "done";
  RunCommand("(" + Ghsift() + " ingest -q --all-repos --store " + store + " --from 2024-01-01 --to 2024-01-01-" +
             std::to_string(kHours - 1) + " --source " + server.base() +
             " --threads 1 --connections 4 --commit-seconds 1; echo $? > '" + done + "') > /dev/null 2>&1 &");
  bool seen = false, ended_first = false;
  const auto start = std::chrono::steady_clock::now();
  while (!seen && std::chrono::steady_clock::now() - start < std::chrono::seconds(7)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ended_first = std::filesystem::exists(done);
    const CommandResult stats = RunCommand(Ghsift() + " stats --format json --store " + store + " 2>/dev/null");
    seen = stats.output.find("\"files\": " + std::to_string(kHours - 1) + ",") != std::string::npos;
  }
  EXPECT_TRUE(seen) << "the hours that arrived were not committed while the late one was read";
  EXPECT_FALSE(ended_first) << "the run ended before the late hour's body could have arrived";
  for (int i = 0; i < 300 && !std::filesystem::exists(done); ++i) {  // bounded: 30 s
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(ReadText(done), "0\n");
  EXPECT_EQ(AnswersWithoutSkips(store), *local_answers_);
}

TEST_F(HttpIngestTest, MissingHourIsRecordedApartFromFailures) {
  FaultServer server(dir_, hours(), {HourName(2) + "=missing"});
  ASSERT_TRUE(server.started());
  const CommandResult r = IngestRange(server, dir_ / "store");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  // Quiet (as from cron), one line says the hour is given up on, recorded as missing at the source;
  // a later run that meets it again says nothing.
  EXPECT_EQ(r.output, "ghsift: 1 hour not published at the source --give-up-hours after it ended: given up on and "
                      "recorded as missing (`ghsift stats --coverage` lists them): " + HourName(2) + "\n");
  EXPECT_EQ(IngestRange(server, dir_ / "store").output, "");
  const CommandResult loud = RunCommand(Ghsift() + " ingest --all-repos --store " + (dir_ / "store") +
                                        " --from 2024-01-01 --to 2024-01-01-3 --source " + server.base());
  EXPECT_EQ(loud.exit_code, 0) << loud.output;
  EXPECT_NE(loud.output.find(server.base() + "/" + HourName(2) + ": not published at the source"), std::string::npos)
      << loud.output;
  EXPECT_NE(loud.output.find(server.base() + "/" + HourName(0) + ": skipped, already ingested"), std::string::npos)
      << loud.output;
  const CommandResult c = RunCommand(Ghsift() + " stats --coverage --format json --store " + (dir_ / "store") +
                                     " --from 2024-01-01 --to 2024-01-01T03");
  EXPECT_NE(c.output.find("\"failed_files\": [],"), std::string::npos) << c.output;
  EXPECT_NE(c.output.find("\"missing_at_source\": [{\"file\": \"" + HourName(2) + "\""), std::string::npos)
      << c.output;
  EXPECT_NE(c.output.find("\"missing_hours\": [\"2024-01-01-2\"]"), std::string::npos) << c.output;
  // The archive's own gap is no hour a run could fill: --check passes.
  const CommandResult check = RunCommand(Ghsift() + " stats --coverage --check --store " + (dir_ / "store") +
                                         " --from 2024-01-01 --to 2024-01-01T03");
  EXPECT_EQ(check.exit_code, 0) << check.output;
  // stats counts it apart from failures, and --files gives it its own status, in time order.
  const CommandResult stats = RunCommand(Ghsift() + " stats --store " + (dir_ / "store"));
  EXPECT_NE(stats.output.find("failed_files                         0\n"), std::string::npos) << stats.output;
  EXPECT_NE(stats.output.find("missing_at_source                    1\n"), std::string::npos) << stats.output;
  const CommandResult files = RunCommand(Ghsift() + " stats --files --format csv --store " + (dir_ / "store"));
  std::vector<std::string> status;
  for (const auto& record : ParseCsv(files.output)) {
    if (record.size() > 1) status.push_back(record[0] + " " + record[1]);
  }
  EXPECT_EQ(status, (std::vector<std::string>{"file status", HourName(0) + " ingested", HourName(1) + " ingested",
                                              HourName(2) + " missing at source", HourName(3) + " ingested"}))
      << files.output;
  const CommandResult json = RunCommand(Ghsift() + " stats --files --format json --store " + (dir_ / "store"));
  EXPECT_NE(json.output.find("\"status\": \"missing at source\", \"events\": null,"), std::string::npos) << json.output;
  EXPECT_EQ(json.output.find("\"events\": \""), std::string::npos) << "numbers are numbers: " << json.output;
}

TEST_F(HttpIngestTest, RedirectLoopAndExhaustedRetriesFailTheirHourOnly) {
  FaultServer server(dir_, hours(), {HourName(0) + "=loop", HourName(1) + "=error500"});
  ASSERT_TRUE(server.started());
  const CommandResult r = IngestRange(server, dir_ / "store", "--retries 0");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(server.base() + "/" + HourName(0) + ": "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("redirect"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(server.base() + "/" + HourName(1) + ": HTTP 500 after 1 attempt"), std::string::npos)
      << r.output;
  // The other hours are in; a second run (the 500 was a one-off) finishes the job, the loop stays.
  const CommandResult again = IngestRange(server, dir_ / "store");
  EXPECT_EQ(again.exit_code, 2) << again.output;
  const CommandResult stats = RunCommand(Ghsift() + " stats --format json --store " + (dir_ / "store"));
  EXPECT_NE(stats.output.find("\"files\": 3"), std::string::npos) << stats.output;
}

TEST_F(HttpIngestTest, KilledMidTransferThenRerunCountsEveryHourOnce) {
  std::vector<std::string> faults;
  for (int h = 0; h < kHours; ++h) faults.push_back(HourName(h) + "=trickle");
  FaultServer server(dir_, hours(), faults);
  ASSERT_TRUE(server.started());
  const std::string store = dir_ / "store";
  const std::string command = Ghsift() + " ingest -q --all-repos --commit-mib 0 --connections 2 --store " + store +
                              " --from 2024-01-01 --to 2024-01-01-3 --source " + server.base();
  // kill -9 while hours are in transfer (each trickles for about half a second).
  RunCommand(command + " & pid=$!; sleep 0.8; kill -9 $pid; wait $pid");
  const CommandResult rerun = RunCommand(command);
  ASSERT_EQ(rerun.exit_code, 0) << rerun.output;
  EXPECT_EQ(AnswersWithoutSkips(store), *local_answers_);
}

TEST_F(HttpIngestTest, AnHourIsOneEntryWhetherReadFromDiskOrDownloaded) {
  FaultServer server(dir_, hours(), {});
  ASSERT_TRUE(server.started());
  const std::string store = dir_ / "store";
  ASSERT_EQ(RunCommand(Ghsift() + " ingest -q --all-repos --store " + store + " " + hours() + "/" + HourName(0))
                .exit_code,
            0);
  const CommandResult r = IngestRange(server, store, "--save-dumps " + (dir_ / "saved"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(server.Requests().find(HourName(0)), std::string::npos) << "hour 0 was not downloaded again";
  EXPECT_EQ(AnswersWithoutSkips(store), *local_answers_);
  // The saved copies are the served bytes, and ingesting them again skips them all.
  for (int h = 1; h < kHours; ++h) {
    EXPECT_EQ(ReadText(dir_ / ("saved/" + HourName(h))), ReadText(hours() + "/" + HourName(h)));
  }
  const CommandResult disk = RunCommand(Ghsift() + " ingest --all-repos --store " + store + " " + (dir_ / "saved"));
  EXPECT_EQ(disk.exit_code, 0) << disk.output;
  EXPECT_NE(disk.output.find("ingested 0 files (3 skipped"), std::string::npos) << disk.output;
}

// An hour whose body arrives whole but does not decode (a gzip cut short at the source) fails,
// and its --save-dumps copy is set aside: under the hour's name, the next run from disk would
// read it as the hour.
TEST_F(HttpIngestTest, ASavedCopyOfAHourThatFailedIsSetAside) {
  const std::string served = dir_ / "served";
  std::filesystem::create_directories(served);
  std::filesystem::copy_file(hours() + "/" + HourName(0), served + "/" + HourName(0));
  const std::string whole = ReadText(hours() + "/" + HourName(1));
  std::ofstream(served + "/" + HourName(1), std::ios::binary) << whole.substr(0, whole.size() / 2);
  // Hour 2's transfer is cut, and an earlier run's good copy of it is kept as it is.
  std::filesystem::copy_file(hours() + "/" + HourName(2), served + "/" + HourName(2));
  FaultServer server(dir_, served, {HourName(2) + "=reset"});
  ASSERT_TRUE(server.started());
  const std::string saved = dir_ / "saved";
  std::filesystem::create_directories(saved);
  std::filesystem::copy_file(hours() + "/" + HourName(2), saved + "/" + HourName(2));
  std::filesystem::last_write_time(saved + "/" + HourName(2),
                                   std::filesystem::file_time_type::clock::now() - std::chrono::hours(1));
  const CommandResult r = RunCommand(Ghsift() + " ingest -q --all-repos --store " + (dir_ / "store") +
                                     " --retries 0 --from 2024-01-01-0 --to 2024-01-01-2 --save-dumps " + saved +
                                     " --source " + server.base());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("(its saved copy is kept as " + saved + "/" + HourName(1) + ".failed)"), std::string::npos)
      << r.output;
  EXPECT_TRUE(std::filesystem::exists(saved + "/" + HourName(0)));
  EXPECT_FALSE(std::filesystem::exists(saved + "/" + HourName(1)));
  EXPECT_EQ(ReadText(saved + "/" + HourName(1) + ".failed"), whole.substr(0, whole.size() / 2));
  EXPECT_NE(r.output.find(HourName(2)), std::string::npos) << r.output;  // it failed, and is named
  EXPECT_EQ(ReadText(saved + "/" + HourName(2)), ReadText(hours() + "/" + HourName(2)));
  EXPECT_FALSE(std::filesystem::exists(saved + "/" + HourName(2) + ".failed"));
}

TEST_F(HttpIngestTest, OnlyHttpAndHttpsSources) {
  const CommandResult r = RunCommand(Ghsift() + " ingest -q --all-repos --store " + (dir_ / "store") +
                                     " --from 2024-01-01 --source ftp://127.0.0.1/");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--source must be an http:// or https:// URL"), std::string::npos) << r.output;
}

// With the source down, a quiet run (cron's) names the first three hours that failed alike and says
// the rest in one line, though the failures' messages differ in their numbers ("after 0 ms"); the
// store records each failure, and a later quiet run says only the failures not on record.
TEST_F(HttpIngestTest, AQuietRunSaysALongRunOfAlikeFailuresInOneLine) {
  // Every hour asked for at once (--connections), so that none is left unasked when the source
  // gives nothing (ASourceThatGivesNothingIsNotAskedForEveryHour).
  const CommandResult r = RunCommand(Ghsift() + " ingest -q --all-repos --retries 0 --connections 16 --source "
                                     "http://127.0.0.1:9 --store " + (dir_ / "store") +
                                     " --from 2024-01-01T00 --to 2024-01-01T09");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(Count(r.output, "\n"), 4u) << r.output;
  for (int h = 0; h < 3; ++h) {
    EXPECT_NE(r.output.find("ghsift: http://127.0.0.1:9/" + HourName(h) + ": Failed to connect"), std::string::npos)
        << r.output;
  }
  EXPECT_NE(r.output.find("ghsift: 7 more files failed alike, the first http://127.0.0.1:9/" + HourName(3) +
                          ", the last http://127.0.0.1:9/" + HourName(9) +
                          " (nothing of them was counted; `ghsift stats --coverage` lists each)\n"),
            std::string::npos)
      << r.output;
  const CommandResult coverage =
      RunCommand(Ghsift() + " stats --store " + (dir_ / "store") + " --coverage --from 2024-01-01T00 --to 2024-01-01T09");
  EXPECT_EQ(Count(coverage.output, "\nfailed "), 10u) << coverage.output;
  // Failing again as on record, the hours are not said again (cron mails what is new); an hour
  // failing for the first time is.
  const CommandResult again = RunCommand(Ghsift() + " ingest -q --all-repos --retries 0 --connections 16 --source "
                                         "http://127.0.0.1:9 --store " + (dir_ / "store") +
                                         " --from 2024-01-01T00 --to 2024-01-01T10");
  EXPECT_EQ(again.exit_code, 2) << again.output;
  EXPECT_TRUE(again.output.starts_with("ghsift: http://127.0.0.1:9/" + HourName(10) + ": Failed to connect to "))
      << again.output;
  EXPECT_TRUE(again.output.ends_with(" after 1 attempt (nothing of this file was counted)\n")) << again.output;
  EXPECT_EQ(Count(again.output, "\n"), 1u) << again.output;
  // Run by hand at a terminal, the failures left unsaid are counted in one line.
  const CommandResult by_hand = RunCommand("script -qec \"" + Ghsift() + " ingest -q --all-repos --retries 0 "
                                           "--connections 16 --source http://127.0.0.1:9 --store " + (dir_ / "store") +
                                           " --from 2024-01-01T00 --to 2024-01-01T10\" /dev/null");
  EXPECT_NE(by_hand.output.find("ghsift: 11 files failed again as on record from an earlier run, not said again under "
                                "--quiet (`ghsift stats --coverage` lists them)"),
            std::string::npos)
      << by_hand.output;
}

// With the source down, a catch-up of a week would spend its retries on every hour (about 11
// minutes a run). After 3 hours in a row gave nothing, the others are not asked for, said in one
// line, and the next run asks for them again; an answer (here a 404) starts the count again.
TEST_F(HttpIngestTest, ASourceThatGivesNothingIsNotAskedForEveryHour) {
  const std::string options = " --retries 0 --connections 1";  // one at a time: the order is the range's
  {
    FaultServer down(dir_, hours(), {HourName(0) + "=loop", HourName(1) + "=loop", HourName(2) + "=loop"});
    ASSERT_TRUE(down.started());
    const CommandResult r = IngestRange(down, dir_ / "store", options);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_EQ(Count(r.output, "(nothing of this file was counted)\n"), 3u) << r.output;
    EXPECT_TRUE(r.output.ends_with("ghsift: the source gave nothing for 3 files in a row (each after its --retries), "
                                   "so 1 more was not asked for: " + down.base() + "/" + HourName(3) +
                                   " (nothing of them was counted; the next run asks for them again)\n"))
        << r.output;
    EXPECT_EQ(down.Requests().find(HourName(3)), std::string::npos) << down.Requests();
    const CommandResult loud = RunCommand(Ghsift() + " ingest --all-repos --store " + (dir_ / "store") +
                                          " --from 2024-01-01 --to 2024-01-01-3 --source " + down.base() + options);
    EXPECT_NE(loud.output.find("(0 skipped, 3 failed, 1 not asked for)"), std::string::npos) << loud.output;
  }
  {
    // A 404 between failures is an answer: every hour is asked for.
    TempDir other;
    FaultServer flaky(other, hours(),
                      {HourName(0) + "=loop", HourName(1) + "=loop", HourName(2) + "=missing", HourName(3) + "=loop"});
    ASSERT_TRUE(flaky.started());
    const CommandResult r = IngestRange(flaky, other / "store", options);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_EQ(Count(r.output, "(nothing of this file was counted)\n"), 3u) << r.output;
    EXPECT_EQ(r.output.find("not asked"), std::string::npos) << r.output;
  }
  {
    // --source-down-after 0 asks for every hour; with --follow (its own pace) it is refused.
    TempDir other;
    const std::string base = Ghsift() + " ingest -q --all-repos --source http://127.0.0.1:9 --store " + (other / "store");
    const CommandResult every =
        RunCommand(base + options + " --source-down-after 0 --from 2024-01-01T00 --to 2024-01-01T05");
    EXPECT_EQ(every.exit_code, 2) << every.output;
    EXPECT_NE(every.output.find("ghsift: 3 more files failed alike"), std::string::npos) << every.output;
    EXPECT_EQ(every.output.find("not asked"), std::string::npos) << every.output;
    const CommandResult follow = RunCommand(base + " --follow --source-down-after 2");
    EXPECT_EQ(follow.exit_code, 2) << follow.output;
    EXPECT_NE(follow.output.find("--source-down-after goes with a range or URLs"), std::string::npos) << follow.output;
  }
  // The source back, the next run asks for every hour the store lacks, the one not asked for too.
  FaultServer up(dir_, hours(), {});
  ASSERT_TRUE(up.started());
  {
    // One server down is no reason to stop asking another.
    TempDir other;
    std::string urls;
    const auto next_day = [](int h) { return "2024-01-02-" + std::to_string(h) + ".json.gz"; };
    for (int h = 0; h < kHours; ++h) urls += " http://127.0.0.1:9/" + next_day(h);
    for (int h = 0; h < kHours; ++h) urls += " " + up.base() + "/" + HourName(h);
    const CommandResult r =
        RunCommand(Ghsift() + " ingest --all-repos --store " + (other / "store") + options + urls);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("so 1 more was not asked for: http://127.0.0.1:9/" + next_day(kHours - 1) + " "),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("ghsift: ingested 4 files (0 skipped, 3 failed, 1 not asked for)"), std::string::npos)
        << r.output;
  }
  const CommandResult r = IngestRange(up, dir_ / "store", options);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(AnswersWithoutSkips(dir_ / "store"), *local_answers_);
}

// --from/--to take the one time syntax (and the archive's own YYYY-MM-DD-H): the hours asked for,
// each tried once against a closed loopback port, name exactly the range.
TEST_F(HttpIngestTest, RangesTakeTheOneTimeSyntax) {
  const std::string base = Ghsift() + " ingest -q --all-repos --retries 0 --source http://127.0.0.1:9 --store " +
                           (dir_ / "store");
  // Each range into a store of its own: a quiet run does not say again a failure on record.
  int runs = 0;
  const auto ask = [&](const std::string& range) { return RunCommand(base + std::to_string(runs++) + range); };
  const auto hours_named = [](const std::string& output) {
    std::vector<std::string> hours;
    for (size_t at = output.find("127.0.0.1:9/"); at != std::string::npos; at = output.find("127.0.0.1:9/", at + 1)) {
      const std::string name = output.substr(at + 12, output.find(".json.gz", at) - at - 12);
      if (hours.empty() || hours.back() != name) hours.push_back(name);
    }
    return hours;
  };
  const CommandResult iso = ask(" --from 2024-01-01T22 --to 2024-01-02T01");
  EXPECT_EQ(iso.exit_code, 2) << iso.output;
  EXPECT_EQ(hours_named(iso.output),
            (std::vector<std::string>{"2024-01-01-22", "2024-01-01-23", "2024-01-02-0", "2024-01-02-1"}))
      << iso.output;
  // Timeline-era files are named by the US-Pacific hour: UTC 08:00-09:00 of 2013-02-15 (PST) is
  // in the files named 0 and 1 of that day, UTC 22:00 of 2012-04-11 (PDT) in the one named 15.
  const CommandResult timeline = ask(" --from 2013-02-15T08 --to 2013-02-15T09");
  EXPECT_EQ(hours_named(timeline.output), (std::vector<std::string>{"2013-02-15-0", "2013-02-15-1"}))
      << timeline.output;
  const CommandResult pdt = ask(" --from 2012-04-11T22 --to 2012-04-11T22");
  EXPECT_EQ(hours_named(pdt.output), (std::vector<std::string>{"2012-04-11-15"})) << pdt.output;
  const CommandResult archive = ask(" --from 2024-01-01-23 --to 2024-01-01-23");
  EXPECT_EQ(hours_named(archive.output), (std::vector<std::string>{"2024-01-01-23"})) << archive.output;
  // A file's own name names that file, a Pacific-named one too (it was read as a UTC hour).
  const CommandResult pacific = ask(" --from 2013-02-15-0 --to 2013-02-15-1");
  EXPECT_EQ(hours_named(pacific.output), (std::vector<std::string>{"2013-02-15-0", "2013-02-15-1"}))
      << pacific.output;
  // The last Pacific-named files cover the same UTC hours as the first of 2015: named, they are read.
  const CommandResult boundary = ask(" --from 2014-12-31-22 --to 2014-12-31-23");
  EXPECT_EQ(hours_named(boundary.output), (std::vector<std::string>{"2014-12-31-22", "2014-12-31-23"}))
      << boundary.output;
  // Hours that have not ended have no file yet: not asked for, and the cut is said.
  const int64_t now = NowSeconds();
  const std::string newest = FormatHour(now / 3600 - 1);
  std::string loud = base;  // the note is not printed with -q
  loud.erase(loud.find(" -q "), 3);
  const CommandResult future = RunCommand(loud + " --from " + FormatHour(now / 3600 - 2) + " --to " +
                                          FormatHour(now / 3600 + 5));
  if (NowSeconds() / 3600 == now / 3600) {  // the hour did not turn during the run
    EXPECT_EQ(hours_named(future.output), (std::vector<std::string>{FormatHour(now / 3600 - 2), newest}))
        << future.output;
    EXPECT_NE(future.output.find("ghsift: reading up to " + newest + " UTC, the newest hour that has ended"),
              std::string::npos)
        << future.output;
  }
  const CommandResult later = ask(" --from " + FormatHour(now / 3600 + 2));
  EXPECT_EQ(later.exit_code, 2);
  EXPECT_NE(later.output.find("that hour has not ended yet"), std::string::npos) << later.output;
  const CommandResult reversed = ask(" --from 2024-01-02 --to 2024-01-01");
  EXPECT_EQ(reversed.exit_code, 2);
  EXPECT_NE(reversed.output.find("--to 2024-01-01 is before --from 2024-01-02"), std::string::npos) << reversed.output;
  const CommandResult bad = ask(" --from 2024-13");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("--from '2024-13' is not a time"), std::string::npos) << bad.output;
}

// A transfer that stops sending is cut after --stall-seconds without a byte, and said so.
TEST_F(HttpIngestTest, AStalledTransferFailsAsStalled) {
  FaultServer server(dir_, hours(), {HourName(0) + "=stall"});
  ASSERT_TRUE(server.started());
  const CommandResult r = RunCommand(Ghsift() + " ingest -q --all-repos --store " + (dir_ / "store") +
                                     " --retries 0 --stall-seconds 1 " + server.base() + "/" + HourName(0));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(server.base() + "/" + HourName(0) + ": stalled: no byte for 1 s after 1 attempt"),
            std::string::npos)
      << r.output;
}

// The size cap holds against a server that sends more than it: announced (a Content-Length over
// the cap) or not (a body without length that never ends). The hour fails at once, is not
// retried, and the other hours are ingested.
TEST_F(HttpIngestTest, SizeCapStopsAServerThatSendsMore) {
  FaultServer server(dir_, hours(), {HourName(0) + "=endless", HourName(1) + "=biglength"});
  ASSERT_TRUE(server.started());
  const CommandResult r = IngestRange(server, dir_ / "store", "--max-hour-mib 1 --retries 3");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  for (int h : {0, 1}) {
    EXPECT_NE(r.output.find(server.base() + "/" + HourName(h) +
                            ": larger than the size cap of 1.0 MiB (--max-hour-mib) after 1 attempt"),
              std::string::npos)
        << r.output;
  }
  const std::string log = server.Requests();
  EXPECT_EQ(Count(log, HourName(0) + " "), 1u) << log;
  EXPECT_EQ(Count(log, HourName(1) + " "), 1u) << log;
  const CommandResult stats = RunCommand(Ghsift() + " stats --format json --store " + (dir_ / "store"));
  EXPECT_NE(stats.output.find("\"files\": 2,"), std::string::npos) << stats.output;
}

// Redirects are followed within http and https only: one to ftp:// or file:// fails its hour
// (not retried), one to another path of the same server is followed.
TEST_F(HttpIngestTest, RedirectToAnotherSchemeIsRefused) {
  FaultServer server(dir_, hours(), {HourName(0) + "=toftp", HourName(1) + "=tofile", HourName(2) + "=moved"});
  ASSERT_TRUE(server.started());
  const CommandResult r = IngestRange(server, dir_ / "store", "--retries 3");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  for (int h : {0, 1}) {
    const size_t at = r.output.find(server.base() + "/" + HourName(h) + ": ");
    ASSERT_NE(at, std::string::npos) << r.output;
    const std::string line = r.output.substr(at, r.output.find('\n', at) - at);
    EXPECT_NE(line.find(h == 0 ? "\"ftp\"" : "\"file\""), std::string::npos) << line;
    EXPECT_NE(line.find("after 1 attempt"), std::string::npos) << line;
  }
  const std::string log = server.Requests();
  EXPECT_EQ(Count(log, HourName(0) + " "), 1u) << log;
  EXPECT_NE(log.find(HourName(2) + " - 302"), std::string::npos) << log;
  EXPECT_NE(log.find(HourName(2) + " - 200"), std::string::npos) << log;
  const CommandResult stats = RunCommand(Ghsift() + " stats --format json --store " + (dir_ / "store"));
  EXPECT_NE(stats.output.find("\"files\": 2,"), std::string::npos) << stats.output;
}

// TLS certificates are verified and there is no switch to turn that off: a server whose
// certificate no trusted authority signed fails its hours; the same server read with its
// certificate trusted (HttpOptions::ca_file, which only tests set) serves the hour's bytes.
TEST_F(HttpIngestTest, TlsIsAlwaysVerified) {
  if (RunCommand("command -v openssl").exit_code != 0) GTEST_SKIP() << "openssl is not installed";
  const std::string cert = dir_ / "cert.pem", key = dir_ / "key.pem";
  const CommandResult made = RunCommand("openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 "
                                        "-addext subjectAltName=IP:127.0.0.1 -keyout '" + key + "' -out '" + cert + "'");
  ASSERT_EQ(made.exit_code, 0) << made.output;
  FaultServer server(dir_, hours(), {}, "--tls '" + cert + "' '" + key + "'");
  ASSERT_TRUE(server.started());
  const CommandResult r = RunCommand(Ghsift() + " ingest -q --all-repos --retries 0 --store " + (dir_ / "store") +
                                     " --from 2024-01-01-0 --to 2024-01-01-0 --source " + server.base("https"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(server.base("https") + "/" + HourName(0) + ": "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("certificate"), std::string::npos) << r.output;
  for (const char* off : {"--insecure", "-k", "--no-verify"}) {
    const CommandResult refused = RunCommand(Ghsift() + " ingest " + off + " --store " + (dir_ / "store") +
                                             " --from 2024-01-01-0 --source " + server.base("https"));
    EXPECT_EQ(refused.exit_code, 2) << refused.output;
  }

  HttpOptions options;
  options.ca_file = cert;
  options.retries = 0;
  auto source = HttpSource::Open(server.base("https") + "/" + HourName(0), options);
  ASSERT_TRUE(source.ok()) << source.status().message();
  std::string body;
  std::vector<char> buffer(1 << 16);
  for (;;) {
    auto n = (*source)->Read(buffer);
    ASSERT_TRUE(n.ok()) << n.status().message();
    if (*n == 0) break;
    body.append(buffer.data(), *n);
  }
  EXPECT_EQ(body, ReadText(hours() + "/" + HourName(0)));
}

// tools/cron/ghsift-hourly asks for the 26 hours up to the one that ended last, says nothing when
// nothing failed (hours not published are recorded, not reported), and is a no-op while another
// run holds the store's lock.
// GH Archive publishes an hour minutes after it ends, a late one later still: a 404 for an hour
// that ended less than --give-up-hours ago is not recorded as missing at the source (which
// `ingest --follow` would then step over); an older one is.
TEST_F(HttpIngestTest, AnHourThatEndedRecentlyIsNotYetMissing) {
  FaultServer server(dir_, hours(), {});
  ASSERT_TRUE(server.started());
  const std::string store = dir_ / "store";
  const int64_t hour = NowSeconds() / 3600 - 2;
  const CommandResult r = RunCommand(Ghsift() + " ingest --store " + store + " --source " + server.base() +
                                     " --from " + FormatHour(hour) + " --to " + FormatHour(hour));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(FormatHour(hour) + ".json.gz: not published yet (the hour ended less than "
                          "--give-up-hours ago); not recorded as missing: the next run asks again"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("0 failed, 1 not published yet)"), std::string::npos) << r.output;
  CommandResult files = RunCommand(Ghsift() + " stats --store " + store + " --files --format csv");
  EXPECT_EQ(files.output.find(FormatHour(hour)), std::string::npos) << files.output;
  const CommandResult old = RunCommand(Ghsift() + " ingest --store " + store + " --source " + server.base() +
                                       " --give-up-hours 1 --from " + FormatHour(hour) + " --to " + FormatHour(hour));
  EXPECT_NE(old.output.find("not published at the source; recorded"), std::string::npos) << old.output;
  files = RunCommand(Ghsift() + " stats --store " + store + " --files --format csv");
  EXPECT_NE(files.output.find(FormatHour(hour)), std::string::npos) << files.output;
}

//! The one line a quiet run prints for the hours it gave up on (the archive has none of these).
bool SaysHoursGivenUp(const std::string& output) {
  return output.rfind("ghsift: ", 0) == 0 && output.find('\n') == output.size() - 1 &&
         output.find(" not published at the source --give-up-hours after ") != std::string::npos &&
         output.find("given up on and recorded as missing") != std::string::npos;
}

TEST_F(HttpIngestTest, CronRecipeAsksForTheLastDayQuietly) {
  if (RunCommand("command -v flock").exit_code != 0) GTEST_SKIP() << "flock is not installed";
  FaultServer server(dir_, hours(), {});
  ASSERT_TRUE(server.started());
  const std::string store = dir_ / "store";
  const std::string run = "GHSIFT=" + Ghsift() + " GHSIFT_STORE='" + store + "' sh '" + GHSIFT_SOURCE_DIR +
                          "/tools/cron/ghsift-hourly' --all-repos --source " + server.base();
  const int64_t before = NowSeconds();
  const CommandResult r = RunCommand(run);
  const int64_t after = NowSeconds();
  EXPECT_EQ(r.exit_code, 0) << r.output;
  // The hours of the day older than --give-up-hours are given up on: said once, in one line.
  EXPECT_TRUE(SaysHoursGivenUp(r.output)) << r.output;
  const std::string log = server.Requests();
  EXPECT_EQ(Count(log, "\n"), 26u) << log;
  // The newest hour asked for is the one that ended last (two candidates when an hour turned).
  const bool newest = log.find(FormatHour(before / 3600 - 1) + ".json.gz ") != std::string::npos ||
                      log.find(FormatHour(after / 3600 - 1) + ".json.gz ") != std::string::npos;
  EXPECT_TRUE(newest) << log;
  EXPECT_EQ(log.find(FormatHour(after / 3600) + ".json.gz "), std::string::npos) << "the current hour: " << log;

  // Another run holds the lock: this one does nothing and exits 0.
  // The holder's sleep writes its id; ending it ends the holder and frees the lock.
  const std::string holder_pid = dir_ / "holder.pid";
  RunCommand("flock '" + store + ".lock' sh -c 'echo $$ > \"" + holder_pid + "\"; exec sleep 60' > /dev/null 2>&1 &");
  int holder = 0;
  for (int i = 0; i < 100 && holder <= 0; ++i) {  // bounded: 10 s
    holder = std::atoi(ReadText(holder_pid).c_str());
    if (holder <= 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_GT(holder, 0);
  const CommandResult locked = RunCommand(run);
  ::kill(holder, SIGTERM);
  EXPECT_EQ(locked.exit_code, 0) << locked.output;
  EXPECT_EQ(locked.output, "");
  EXPECT_EQ(server.Requests(), log);
}

// After an outage the cron script reads every hour since the store's newest (--catch-up 7d),
// not only the last 26; a store that ends longer ago than the catch-up is not filled in
// quietly: the hours left out are named, with the command that reads them, and the run exits 2.
TEST_F(HttpIngestTest, CronRecipeCatchesUpSinceTheStoreEnds) {
  if (RunCommand("command -v flock").exit_code != 0) GTEST_SKIP() << "flock is not installed";
  FaultServer server(dir_, hours(), {});
  ASSERT_TRUE(server.started());
  const auto script = [&](const std::string& store, const std::string& env) {
    return RunCommand(env + " GHSIFT=" + Ghsift() + " GHSIFT_STORE='" + store + "' sh '" + GHSIFT_SOURCE_DIR +
                      "/tools/cron/ghsift-hourly' --all-repos --source " + server.base());
  };
  // The last run before the outage, 40 hours ago: its hour is recorded as missing at the source
  // (the archive has none of these hours), which places the store's end there as a file would.
  const int64_t before = NowSeconds() / 3600;
  const int64_t last_run = before - 40;
  const std::string store = dir_ / "store";
  ASSERT_EQ(RunCommand(Ghsift() + " ingest -q --all-repos --store " + store + " --source " + server.base() + " --from " +
                       FormatHour(last_run) + " --to " + FormatHour(last_run))
                .exit_code,
            0);
  const size_t asked_before = Count(server.Requests(), "\n");
  const CommandResult r = script(store, "");
  const int64_t after = NowSeconds() / 3600;
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(SaysHoursGivenUp(r.output)) << r.output;
  const std::string log = server.Requests();
  EXPECT_NE(log.find(FormatHour(last_run + 1) + ".json.gz "), std::string::npos) << log;
  EXPECT_NE(log.find(FormatHour(before - 27) + ".json.gz "), std::string::npos) << "older than the 26 h: " << log;
  const size_t asked = Count(log, "\n") - asked_before;
  EXPECT_TRUE(asked == static_cast<size_t>(before - 1 - last_run) || asked == static_cast<size_t>(after - 1 - last_run))
      << asked << "\n" << log;

  // A catch-up of 30 hours on a store that ended 40 hours ago: the 4 hours from 30 to 27 hours
  // ago are read with the last 26; the 9 before them are named, not read.
  const std::string short_store = dir_ / "short";
  ASSERT_EQ(RunCommand(Ghsift() + " ingest -q --all-repos --store " + short_store + " --source " + server.base() +
                       " --from " +
                       FormatHour(last_run) + " --to " + FormatHour(last_run))
                .exit_code,
            0);
  const CommandResult cut = script(short_store, "GHSIFT_CATCH_UP=30h");
  if (NowSeconds() / 3600 != before) GTEST_SKIP() << "an hour turned during the test";
  EXPECT_EQ(cut.exit_code, 2) << cut.output;
  const size_t first_line = cut.output.find('\n') + 1;
  EXPECT_TRUE(SaysHoursGivenUp(cut.output.substr(first_line))) << cut.output;
  EXPECT_EQ(cut.output.substr(0, first_line), "ghsift: --catch-up 30h: the store's newest hour is " + FormatHour(last_run) + "; the 9 hours " +
                            FormatHour(last_run + 1) + " to " + FormatHour(last_run + 9) +
                            " are older than that and not asked for: `ghsift ingest --store " + short_store +
                            " --source " + server.base() + " --from " + FormatHour(last_run + 1) + " --to " +
                            FormatHour(last_run + 9) +
                            "` reads them\n");
  const std::string short_log = server.Requests().substr(log.size());
  EXPECT_EQ(short_log.find(FormatHour(last_run + 9) + ".json.gz "), std::string::npos) << short_log;
  EXPECT_NE(short_log.find(FormatHour(last_run + 10) + ".json.gz "), std::string::npos) << short_log;
}

// Hours the store lacks before its newest (one that failed, or a gap between two ranges) are asked
// for again by the cron script while they are within the catch-up, after they have left the
// last 26 hours; hours before the store's first are not.
TEST_F(HttpIngestTest, CronRecipeAsksAgainForHoursMissingBeforeTheStoresNewest) {
  if (RunCommand("command -v flock").exit_code != 0) GTEST_SKIP() << "flock is not installed";
  FaultServer server(dir_, hours(), {});
  ASSERT_TRUE(server.started());
  const int64_t before = NowSeconds() / 3600;
  const std::string store = dir_ / "store";
  // Two ranges 10 hours apart, both older than a day: recorded missing at the source (held).
  for (const int64_t h : {before - 40, before - 30}) {
    ASSERT_EQ(RunCommand(Ghsift() + " ingest -q --all-repos --store " + store + " --source " + server.base() +
                         " --from " + FormatHour(h) + " --to " + FormatHour(h))
                  .exit_code,
              0);
  }
  const size_t setup = server.Requests().size();
  const CommandResult r = RunCommand("GHSIFT=" + Ghsift() + " GHSIFT_STORE='" + store + "' sh '" + GHSIFT_SOURCE_DIR +
                                     "/tools/cron/ghsift-hourly' --all-repos --source " + server.base());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(SaysHoursGivenUp(r.output)) << r.output;
  const std::string log = server.Requests().substr(setup);
  for (int64_t h = before - 39; h <= before - 31; ++h) {
    EXPECT_NE(log.find(FormatHour(h) + ".json.gz "), std::string::npos) << "the gap's " << FormatHour(h) << ": " << log;
  }
  for (const int64_t h : {before - 41, before - 40, before - 30}) {
    EXPECT_EQ(log.find(FormatHour(h) + ".json.gz "), std::string::npos) << FormatHour(h) << ": " << log;
  }
}

}  // namespace
}  // namespace ghsift::testing
