// `ghsift stats` explains the store: scope, keep-text, rule set, the options to reuse, the
// ingested files; a failure clears once its file is ingested (issue 14).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/time_range.hpp"
#include "io/archive_hours.hpp"
#include "rules/decision.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;
using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;

const std::string kHour = "2024-03-05-14.json.gz";
std::string SampleHour() { return std::string(GHSIFT_SOURCE_DIR) + "/tests/data/sample/" + kHour; }

TEST(StatsCliTest, ShowsHowTheStoreWasBuiltAndTheOptionsToReuse) {
  TempDir dir;
  const std::string store = dir / "store";
  auto r = RunCommand(Ghsift() + " ingest -q --all-repos --keep-text --store " + store + " " + SampleHour());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = RunCommand(Ghsift() + " stats --store " + store);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\nscope        all repositories\nkeep text    yes\nrule set     "), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(" (the default rule set)\ningest with  --all-repos --keep-text\n"), std::string::npos)
      << r.output;
  r = RunCommand(Ghsift() + " stats --format json --store " + store);
  EXPECT_NE(r.output.find("\"scope\": \"all\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"keep_text\": true"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"ingest_options\": \"--all-repos --keep-text\""), std::string::npos) << r.output;
  // Another scope is refused with a message that names the store's options.
  r = RunCommand(Ghsift() + " ingest -q --store " + store + " " + SampleHour());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("this store was built with another repository scope (--all-repos / --repos / --keep-text); "
                          "its options were: --all-repos --keep-text (see `ghsift stats`)"),
            std::string::npos)
      << r.output;
}

// The store's categories (problems and facets, from the rule model it keeps) and every list of
// rule layers its ingests were given.
TEST(StatsCliTest, ListsCategoriesAndRuleLayers) {
  TempDir dir;
  const std::string store = dir / "store";
  auto r = RunCommand(Ghsift() + " ingest -q --store " + store + " " + SampleHour());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // A copy of the same rules (deciding alike, so the store takes it) given by its path: a second
  // list of layers.
  fs::copy(std::string(GHSIFT_SOURCE_DIR) + "/rules", dir / "mine", fs::copy_options::recursive);
  const std::string mine = fs::canonical(dir / "mine").string();
  r = RunCommand(Ghsift() + " ingest -q --rules " + mine + " --store " + store + " " +
                 std::string(GHSIFT_SOURCE_DIR) + "/tests/data/sample/2024-03-05-15.json.gz");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // The categories the bundled rules define, problems and facets apart, as the rule model says.
  auto bundled_rules = LoadRuleSet(DefaultRulesPath());
  ASSERT_TRUE(bundled_rules.ok()) << bundled_rules.status().message();
  const DecisionModel model = DecisionModel::FromRuleSet(*bundled_rules);
  std::vector<std::string> problems, facets;
  for (const std::string& c : model.categories()) (model.IsFacet(c) ? facets : problems).push_back(c);
  ASSERT_FALSE(problems.empty());
  ASSERT_FALSE(facets.empty());
  const auto joined = [](const std::vector<std::string>& items, const std::string& quote) {
    std::string out;
    for (const std::string& item : items) out += (out.empty() ? "" : ", ") + quote + item + quote;
    return out;
  };
  r = RunCommand(Ghsift() + " stats --store " + store);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\ncategories   " + joined(problems, "") + "\nfacets       " + joined(facets, "") +
                          "\nrule layers  "),
            std::string::npos)
      << r.output;
  r = RunCommand(Ghsift() + " stats --format json --store " + store);
  EXPECT_NE(r.output.find("\"categories\": [" + joined(problems, "\"") + "],\n  \"facets\": [" +
                          joined(facets, "\"") + "]"),
            std::string::npos)
      << r.output;
  // The bundled set by its path, then the copy: each list once, however often it is used.
  const std::string bundled = fs::weakly_canonical(DefaultRulesPath()).string();
  const std::string layers = "\"rule_layers\": [[\"" + bundled + "\"], [\"" + mine + "\"]]\n";
  EXPECT_NE(r.output.find(layers), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " ingest -q --rules " + mine + " --store " + store + " " + SampleHour());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = RunCommand(Ghsift() + " stats --format json --store " + store);
  EXPECT_NE(r.output.find(layers), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " stats --store " + store);
  EXPECT_NE(r.output.find("rule layers  " + bundled + " (the bundled set)\n             " + mine + "\n"),
            std::string::npos)
      << r.output;
  // A list used again moves to the end: the last list is the one used last.
  r = RunCommand(Ghsift() + " ingest -q --store " + store + " " + SampleHour());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = RunCommand(Ghsift() + " stats --format json --store " + store);
  EXPECT_NE(r.output.find("\"rule_layers\": [[\"" + mine + "\"], [\"" + bundled + "\"]]\n"), std::string::npos)
      << r.output;
}

// A rescan with other layers makes the store decide with them: stats lists them too.
TEST(StatsCliTest, ListsTheLayersARescanApplied) {
  TempDir dir;
  const std::string store = dir / "store";
  auto r = RunCommand(Ghsift() + " ingest -q --store " + store + " " + SampleHour());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  fs::copy(std::string(GHSIFT_SOURCE_DIR) + "/rules", dir / "edited", fs::copy_options::recursive);
  std::ofstream(dir / "edited/performance.yaml", std::ios::app)
      << "  - {id: perf.test.added, tag: performance/low-speed, pattern: 'sluggish', fields: [title], weight: 1}\n";
  const std::string edited = fs::canonical(dir / "edited").string();
  r = RunCommand(Ghsift() + " rescan --rules " + edited + " --store " + store);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = RunCommand(Ghsift() + " stats --store " + store);
  const std::string bundled = fs::weakly_canonical(DefaultRulesPath()).string();
  EXPECT_NE(r.output.find("rule layers  " + bundled + " (the bundled set)\n             " + edited + "\n"),
            std::string::npos)
      << r.output;
  // An ingest with the bundled rules is refused, and the refusal names the layers to give.
  r = RunCommand(Ghsift() + " ingest -q --store " + store + " " + SampleHour());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("; the rule layers last used: --rules " + edited + " (see `ghsift stats`)"),
            std::string::npos)
      << r.output;
  r = RunCommand(Ghsift() + " ingest -q --rules " + edited + " --store " + store + " " + SampleHour());
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST(StatsCliTest, FailureClearsOnceTheFileIsIngested) {
  TempDir dir;
  const std::string store = dir / "store";
  fs::create_directories(dir / "dumps");
  const std::string dump = dir / ("dumps/" + kHour);
  {
    // The hour cut in the middle: a truncated gzip stream.
    std::ifstream in(SampleHour(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(dump, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  auto r = RunCommand(Ghsift() + " ingest -q --store " + store + " " + dump);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  r = RunCommand(Ghsift() + " stats --format json --store " + store);
  EXPECT_NE(r.output.find("\"failed_files\": 1,"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " stats --files --format csv --store " + store);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.substr(0, r.output.find('\n')), "file,status,events,bad_lines,report_events_without_number,bytes,decoded_bytes,ingested_at,reason");
  EXPECT_NE(r.output.find("\n" + kHour + ",failed,,,,,,,truncated gzip stream"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " stats --coverage --check --store " + store + " --from 2024-03-05T14 --to 2024-03-05T14");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("ghsift: --check: 1 hour of 2024-03-05-14 .. 2024-03-05-14 not in the store, 1 file failed"),
            std::string::npos)
      << r.output;

  fs::copy_file(SampleHour(), dump, fs::copy_options::overwrite_existing);
  r = RunCommand(Ghsift() + " ingest -q --store " + store + " " + dump);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = RunCommand(Ghsift() + " stats --format json --store " + store);
  EXPECT_NE(r.output.find("\"failed_files\": 0,"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " stats --coverage --check --store " + store);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  r = RunCommand(Ghsift() + " stats --files --format csv --store " + store);
  EXPECT_NE(r.output.find("\n" + kHour + ",ingested,2000,0,0,953040,"), std::string::npos) << r.output;
}

// Another file under the name of an ingested hour is refused (said, exit 2), but that hour is in
// the store: no failure is recorded for it.
TEST(StatsCliTest, AChangedCopyOfAnIngestedHourLeavesNoFailure) {
  TempDir dir;
  const std::string store = dir / "store";
  fs::create_directories(dir / "dumps");
  const std::string dump = dir / ("dumps/" + kHour);
  fs::copy_file(SampleHour(), dump);
  auto r = RunCommand(Ghsift() + " ingest -q --store " + store + " " + dump);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  {
    std::ifstream in(SampleHour(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(dump, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() / 2);
  }
  r = RunCommand(Ghsift() + " ingest -q --store " + store + " " + dump);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("changed since it was ingested"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " stats --format json --store " + store);
  EXPECT_NE(r.output.find("\"failed_files\": 0,"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " stats --coverage --check --store " + store);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  r = RunCommand(Ghsift() + " stats --files --format csv --store " + store);
  EXPECT_NE(r.output.find("\n" + kHour + ",ingested,2000,0,0,953040,"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find(",failed,"), std::string::npos) << r.output;
}

// `reports` is the number of distinct reports (what query counts); `report_events` adds each
// file's report events, so a report seen in two hours counts twice there.
TEST(StatsCliTest, ReportsAreDistinctReportEventsAreSummedOverFiles) {
  TempDir dir;
  const std::string store = dir / "store";
  auto r = RunCommand(Ghsift() + " gen --out " + (dir / "hours") + " --hours 2 --events-per-hour 3000 --seed 7");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  int64_t report_events = 0;
  for (const char* hour : {"2024-01-01-0.json.gz", "2024-01-01-1.json.gz"}) {
    r = RunCommand(Ghsift() + " ingest -q --store " + store + " " + (dir / "hours") + "/" + hour);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    r = RunCommand(Ghsift() + " stats --format json --store " + store);
    const size_t at = r.output.find("\"report_events\": ");
    ASSERT_NE(at, std::string::npos) << r.output;
    EXPECT_GT(std::stoll(r.output.substr(at + 17)), report_events);
    report_events = std::stoll(r.output.substr(at + 17));
  }
  r = RunCommand(Ghsift() + " query --kind all --format csv --store " + store);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const int64_t distinct = std::stoll(r.output.substr(r.output.find('\n') + 1));
  EXPECT_LT(distinct, report_events);  // reports of the first hour come back in the second
  r = RunCommand(Ghsift() + " stats --format json --store " + store);
  EXPECT_NE(r.output.find("\"reports\": " + std::to_string(distinct) + ","), std::string::npos) << r.output;
}

// Missing hours are listed one line per run, with its length; numbers have separators.
TEST(StatsCliTest, CoverageListsRunsOfMissingHours) {
  TempDir dir;
  const std::string store = dir / "store";
  auto r = RunCommand(Ghsift() + " gen --out " + (dir / "hours") +
                      " --hours 8 --events-per-hour 1200 --seed 3 --quirk-missing-hours 1,2,3,5");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = RunCommand(Ghsift() + " ingest -q --store " + store + " " + (dir / "hours"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = RunCommand(Ghsift() + " stats --coverage --store " + store);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("hours (UTC) 2024-01-01-0 .. 2024-01-01-7: 4 ingested, 4 missing, 0 with fewer than 0.1 x "
                          "the median of 1,200 events\n"
                          "missing  2024-01-01-1 .. 2024-01-01-3  (3 hours)\n"
                          "missing  2024-01-01-5\n"),
            std::string::npos)
      << r.output;
  // --check: exit 1 while an hour of the range is not in the store, for a monitoring script.
  r = RunCommand(Ghsift() + " stats --coverage --check --store " + store);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(r.output.ends_with("ghsift: --check: 4 hours of 2024-01-01-0 .. 2024-01-01-7 not in the store, 0 files "
                                 "failed when ingested (the archive's own gaps left out)\n"))
      << r.output;
  r = RunCommand(Ghsift() + " stats --coverage --check --format json --store " + store + " --from 2024-01-01T06");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  r = RunCommand(Ghsift() + " stats --check --store " + store);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  r = RunCommand(Ghsift() + " stats --coverage --low-ratio 2 --store " + store);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--low-ratio must be between 0 and 1"), std::string::npos) << r.output;

  // Hours are known from file names: a file named otherwise is said to be in no hour, and a store
  // of such files alone has no hour to show (it showed 1970-01-01-0 and 0 events).
  const std::string other = dir / "other";
  std::filesystem::create_directories(dir / "named");
  std::filesystem::copy_file(dir / "hours/2024-01-01-0.json.gz", dir / "named/dump.json.gz");
  r = RunCommand(Ghsift() + " ingest -q --store " + other + " " + (dir / "named/dump.json.gz"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = RunCommand(Ghsift() + " stats --coverage --store " + other);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output,
            "(1 ingested file not named by its hour (YYYY-MM-DD-H.json.gz), so in no hour below: dump.json.gz)\n"
            "no ingested file is named by its hour: no hour to show (give --from and --to to list the missing hours "
            "of a range)\n");

  // A span back from now asks about the hours up to now, not up to the last one ingested: a
  // stalled ingest shows as missing hours (and a store of no hour no longer reads 1970-01-01-0).
  const int64_t newest_ended = NowSeconds() / 3600 - 1;
  for (const std::string& s : {store, other}) {
    r = RunCommand(Ghsift() + " stats --coverage --from 12h --store " + s);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::string range = FormatHour(newest_ended - 11) + " .. " + FormatHour(newest_ended);
    if (NowSeconds() / 3600 - 1 != newest_ended) GTEST_SKIP() << "an hour turned during the test";
    EXPECT_NE(r.output.find("hours (UTC) " + range + ": 0 ingested, 12 missing"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("missing  " + range + "  (12 hours)\n"), std::string::npos) << r.output;
  }
}

}  // namespace
}  // namespace ghsift
