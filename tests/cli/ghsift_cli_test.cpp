// The real ghsift binary, as a user runs it: exit codes, messages and output formats.
#include <algorithm>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;

std::string Sample() { return std::string(GHSIFT_SOURCE_DIR) + "/tests/data/sample"; }

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

class CliTest : public ::testing::Test {
 protected:
  TempDir dir_;
  std::string Store() const { return dir_ / "store"; }
};

TEST_F(CliTest, IngestQueryStatsOnTheBundledSample) {
  auto r = RunCommand(Ghsift() + " ingest --store " + Store() + " " + Sample());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("ingested 3 files (0 skipped, 0 failed): 6,000 events, 0 bad lines"), std::string::npos)
      << r.output;
  r = RunCommand(Ghsift() + " query --store " + Store() + " --by type --metric events --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.substr(0, r.output.find('\n')), "type,events");
  r = RunCommand(Ghsift() + " query --store " + Store() + " --by repo,category --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.substr(0, r.output.find('\n')), "repo,category,issues");
  r = RunCommand(Ghsift() + " stats --store " + Store() + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* key : {"\"files\": 3", "\"skipped_files\": 0", "\"events\": 6000", "\"bad_lines\": 0",
                          "\"bytes\": ", "\"store_bytes\": "}) {
    EXPECT_NE(r.output.find(key), std::string::npos) << key << "\n" << r.output;
  }
}

// A facet describes reports flagged or not: `query --category stage` counts every report with it,
// `issues` lists the flagged ones, and query says so, so that its count is not taken for the
// population `sample` draws from.
TEST_F(CliTest, QueryByAFacetSaysItCountsUnflaggedReportsToo) {
  ASSERT_EQ(RunCommand(Ghsift() + " ingest -q --store " + Store() + " " + Sample()).exit_code, 0);
  const auto facet = RunCommand(Ghsift() + " query --store " + Store() + " --by kind --category stage --format csv");
  ASSERT_EQ(facet.exit_code, 0) << facet.output;
  EXPECT_NE(facet.output.find("ghsift: note: --category stage is a facet: these are all the reports that have it, "
                              "flagged or not; `issues` and `sample` list only the flagged ones among them\n"),
            std::string::npos)
      << facet.output;
  const size_t row = facet.output.find("issue,");
  ASSERT_NE(row, std::string::npos) << facet.output;
  const int counted = std::atoi(facet.output.c_str() + row + 6);
  const auto listing =
      RunCommand(Ghsift() + " issues --store " + Store() + " --category stage --limit 0 --format json 2>/dev/null");
  int listed = 0;
  for (size_t at = 0; (at = listing.output.find("\"url\": ", at)) != std::string::npos; ++at) ++listed;
  EXPECT_GT(listed, 0) << listing.output.substr(0, 300);
  EXPECT_GT(counted, listed);
  const auto problem = RunCommand(Ghsift() + " query --store " + Store() + " --by kind --category performance");
  EXPECT_EQ(problem.output.find("is a facet"), std::string::npos) << problem.output;
}

// sample's --category is a list, repeatable as every other filter; an option that takes one
// value says so when given twice, in ghsift's words.
TEST_F(CliTest, CategoryRepeatedIsAListOrSaidToTakeOneValue) {
  ASSERT_EQ(RunCommand(Ghsift() + " ingest -q --store " + Store() + " " + Sample()).exit_code, 0);
  const std::string sample = Ghsift() + " sample --store " + Store() + " --n 5 --seed 1 --format csv --out /dev/null";
  const auto listed = RunCommand(sample + " --category performance,silent");
  const auto repeated = RunCommand(sample + " --category performance --category silent");
  ASSERT_EQ(listed.exit_code, 0) << listed.output;
  EXPECT_EQ(repeated.exit_code, 0) << repeated.output;
  EXPECT_EQ(repeated.output, listed.output);
  const auto query = RunCommand(Ghsift() + " query --store " + Store() + " --category performance --category silent");
  EXPECT_EQ(query.exit_code, 2);
  EXPECT_EQ(query.output, "ghsift: --category: given 2 times; it takes one value (see `ghsift query --help`)\n");
}

// A tracked repository the store has no event of is written as rules/repos.txt spells it, as
// those with events are, so that tables of two stores join on the name.
TEST_F(CliTest, FillZerosSpellsARepositoryWithoutEventsAsTheListDoes) {
  ASSERT_EQ(RunCommand(Ghsift() + " ingest -q --store " + Store() + " " + Sample()).exit_code, 0);
  const auto r = RunCommand(Ghsift() + " query --store " + Store() + " --by repo --fill-zeros --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\nmicrosoft/CNTK,0\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\nTheano/Theano,0\n"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("microsoft/cntk"), std::string::npos) << r.output;
}

TEST_F(CliTest, ReingestSkipsEveryFile) {
  // --timings speaks even with -q; the first ingest builds the rollup from the sample's reports.
  auto first = RunCommand(Ghsift() + " ingest -q --timings --store " + Store() + " " + Sample());
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_NE(first.output.find("ghsift: timings: start "), std::string::npos) << first.output;
  for (const char* part : {" s CPU (shared libraries), rules ", " s, store open ", " s; read, parse, scan and commit ",
                           " s (the commit after the last chunk ", " s); rollup refresh ", " reports); flush ", " s, compactions ",
                           " of compaction left pending); total "}) {
    EXPECT_NE(first.output.find(part), std::string::npos) << part << "\n" << first.output;
  }
  EXPECT_EQ(first.output.find("ghsift: ingested"), std::string::npos) << first.output;
  auto r = RunCommand(Ghsift() + " ingest --store " + Store() + " " + Sample());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("2024-03-05-14.json.gz: skipped, already ingested"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("ingested 0 files (3 skipped, 0 failed)"), std::string::npos) << r.output;
  // A quiet re-run (cron over a dump directory) prints nothing at all.
  auto quiet = RunCommand(Ghsift() + " ingest -q --store " + Store() + " " + Sample());
  EXPECT_EQ(quiet.exit_code, 0) << quiet.output;
  EXPECT_EQ(quiet.output, "");
  r = RunCommand(Ghsift() + " stats --store " + Store() + " --format json");
  EXPECT_NE(r.output.find("\"skipped_files\": 6"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"events\": 6000"), std::string::npos) << r.output;
}

TEST_F(CliTest, CorruptFileIsNamedOthersAreIngestedExitIsTwo) {
  const std::string bad = dir_ / "2024-03-05-99.json.gz";
  WriteFile(bad, std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage-that-is-not-deflate", 36));
  auto r = RunCommand(Ghsift() + " ingest --store " + Store() + " " + Sample() + " " + bad);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(bad + ": "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("nothing of this file was counted"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("ingested 3 files (0 skipped, 1 failed)"), std::string::npos) << r.output;
}

TEST_F(CliTest, BadLinesAreReportedWithFileAndLine) {
  const std::string file = dir_ / "2024-01-01-0.json";
  WriteFile(file,
            "{\"id\":\"1\",\"type\":\"WatchEvent\",\"actor\":{\"id\":1,\"login\":\"a\"},\"repo\":{\"id\":5,\"name\":\"o/r\","
            "\"url\":\"u\"},\"payload\":{\"action\":\"started\"},\"public\":true,\"created_at\":\"2024-01-01T00:00:01Z\"}\n"
            "{\"id\":\"2\",\"type\":\"WatchEvent\",\"actor\n"
            "not json at all\n");
  auto r = RunCommand(Ghsift() + " ingest --store " + Store() + " " + file);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(file + ":2:1: bad record skipped: invalid JSON"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(file + ":3:1: bad record skipped: not a JSON object"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1 events, 2 bad lines"), std::string::npos) << r.output;
}

// A report event whose number is unusable is said as a bad record is (file, line, column, reason),
// counted in the summary and by `stats`, and is no bad line.
TEST_F(CliTest, ReportEventsWithoutANumberAreSaidWithFileAndLine) {
  const std::string file = dir_ / "2024-01-01-0.json";
  const auto issue = [](const std::string& id, const std::string& number) {
    return "{\"id\":\"" + id + "\",\"type\":\"IssuesEvent\",\"actor\":{\"id\":1,\"login\":\"a\"},\"repo\":{\"id\":5,"
           "\"name\":\"o/r\"},\"payload\":{\"action\":\"opened\",\"issue\":{\"number\":" + number +
           ",\"title\":\"Slow\",\"state\":\"open\"}},\"public\":true,\"created_at\":\"2024-01-01T00:00:01Z\"}\n";
  };
  WriteFile(file, issue("1", "3") + issue("2", "\"three\"") + issue("3", "null"));
  auto r = RunCommand(Ghsift() + " ingest --all-repos --store " + Store() + " " + file);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(file + ":2:1: report event without a usable number, counted as an event, no report: "
                                 "IssuesEvent: `payload.issue.number` is a string that is not a number\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(file + ":3:1: report event without a usable number, counted as an event, no report: "
                                 "IssuesEvent: `payload.issue.number` is null\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(": 3 events, 0 bad lines, 2 report events without a usable number, "), std::string::npos)
      << r.output;
  r = RunCommand(Ghsift() + " stats --format json --store " + Store());
  EXPECT_NE(r.output.find("\"report_events_without_number\": 2,"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"reports\": 1,"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " stats --files --format csv --store " + Store());
  EXPECT_NE(r.output.find("\n2024-01-01-0.json,ingested,3,0,2,"), std::string::npos) << r.output;
}

// The same in the default scope, which keeps no report of this repository: the same lines said,
// the same counts (lines in the archive's whole layout, `repo` with its `url`).
TEST_F(CliTest, ReportEventsWithoutANumberAreSaidTheSameInTheDefaultScope) {
  const std::string file = dir_ / "2024-01-01-0.json";
  const auto issue = [](const std::string& id, const std::string& number) {
    return "{\"id\":\"" + id + "\",\"type\":\"IssuesEvent\",\"actor\":{\"id\":1,\"login\":\"a\"},\"repo\":{\"id\":5,"
           "\"name\":\"o/r\",\"url\":\"https://api.github.com/repos/o/r\"},\"payload\":{\"action\":\"opened\","
           "\"issue\":{\"number\":" + number + ",\"title\":\"Slow\",\"state\":\"open\"}},\"public\":true,"
           "\"created_at\":\"2024-01-01T00:00:01Z\"}\n";
  };
  WriteFile(file, issue("1", "3") + issue("2", "\"three\"") + issue("3", "-4") + issue("4", "4.5"));
  for (const std::string scope : {"", "--all-repos "}) {
    const std::string store = dir_ / ("store" + scope.substr(0, 5));
    auto r = RunCommand(Ghsift() + " ingest " + scope + "--store " + store + " " + file);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    for (const std::string said : {":2:1: report event without a usable number, counted as an event, no report: "
                                   "IssuesEvent: `payload.issue.number` is a string that is not a number\n",
                                   ":3:1: report event without a usable number, counted as an event, no report: "
                                   "IssuesEvent: `payload.issue.number` is negative\n",
                                   ":4:1: report event without a usable number, counted as an event, no report: "
                                   "IssuesEvent: `payload.issue.number` is not a whole number\n"}) {
      EXPECT_NE(r.output.find(file + said), std::string::npos) << scope << r.output;
    }
    EXPECT_NE(r.output.find(": 4 events, 0 bad lines, 3 report events without a usable number, "), std::string::npos)
        << scope << r.output;
    r = RunCommand(Ghsift() + " stats --format json --store " + store);
    EXPECT_NE(r.output.find("\"report_events_without_number\": 3,"), std::string::npos) << scope << r.output;
  }
}

TEST_F(CliTest, ChangedFileUnderTheSameNameIsRefused) {
  const std::string file = dir_ / "2024-01-01-5.json";
  const std::string line =
      "{\"id\":\"9\",\"type\":\"WatchEvent\",\"actor\":{\"id\":1,\"login\":\"a\"},\"repo\":{\"id\":5,"
      "\"name\":\"o/r\",\"url\":\"u\"},\"payload\":{},\"public\":true,\"created_at\":\"2024-01-01T05:00:01Z\"}\n";
  WriteFile(file, line);
  ASSERT_EQ(RunCommand(Ghsift() + " ingest -q --store " + Store() + " " + file).exit_code, 0);
  // Same size, other content: detected by the content hash.
  std::string changed = line;
  changed[changed.find("o/r")] = 'p';
  WriteFile(file, changed);
  auto r = RunCommand(Ghsift() + " ingest --store " + Store() + " " + file);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(file + ": changed since it was ingested"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " stats --store " + Store() + " --format json");
  EXPECT_NE(r.output.find("\"events\": 1,"), std::string::npos) << r.output;
  // The original content is recognized again and skipped.
  WriteFile(file, line);
  r = RunCommand(Ghsift() + " ingest --store " + Store() + " " + file);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("skipped, already ingested"), std::string::npos) << r.output;
}

TEST_F(CliTest, PathThatIsNotAStoreIsRefused) {
  std::filesystem::create_directories(dir_ / "notastore");
  WriteFile(dir_ / "notastore/precious.txt", "keep me");
  auto r = RunCommand(Ghsift() + " ingest --store " + (dir_ / "notastore") + " " + Sample());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("not a ghsift store"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " query --store " + (dir_ / "missing") + " --by repo");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("no such store"), std::string::npos) << r.output;
}

// The store opens while the rules load; a run that ends on a bad rule file leaves no store it
// created (a missing directory, or an empty one stays empty) and an existing store as it was.
TEST_F(CliTest, ABadRuleFileLeavesNoStoreBehind) {
  const std::string rules = dir_ / "bad.yaml";
  WriteFile(rules, "rules:\n  - id: perf.broken\n    tag: performance/x\n    pattern: 'slow(er'\n");
  const std::string fresh = dir_ / "fresh";
  auto r = RunCommand(Ghsift() + " ingest -q --rules " + rules + " --store " + fresh + " " + Sample());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("rule 'perf.broken'"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(fresh));
  const std::string empty = dir_ / "empty";
  std::filesystem::create_directory(empty);
  r = RunCommand(Ghsift() + " ingest -q --rules " + rules + " --store " + empty + " " + Sample());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(std::filesystem::is_directory(empty));
  EXPECT_TRUE(std::filesystem::is_empty(empty));
  ASSERT_EQ(RunCommand(Ghsift() + " ingest -q --store " + Store() + " " + Sample()).exit_code, 0);
  r = RunCommand(Ghsift() + " ingest -q --rules " + rules + " --store " + Store() + " " + Sample());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  r = RunCommand(Ghsift() + " stats --store " + Store() + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\"events\": 6000"), std::string::npos) << r.output;
}

TEST_F(CliTest, BadRulePatternNamesFileRuleAndReason) {
  const std::string rules = dir_ / "bad.yaml";
  WriteFile(rules, "rules:\n  - id: perf.broken\n    tag: performance/x\n    pattern: 'slow(er'\n");
  auto r = RunCommand(Ghsift() + " rules check --rules " + rules);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find(rules + ": rule 'perf.broken' (line 2): pattern 'slow(er': Missing close paren"), std::string::npos)
      << r.output;
  WriteFile(rules, "rules:\n  - {id: a, tag: x, pattern: 'a'}\n  - {id: a, tag: x, pattern: 'b'}\n");
  r = RunCommand(Ghsift() + " rules check --rules " + rules);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("rule 'a' (line 3): duplicate id"), std::string::npos) << r.output;
}

// A misspelt tag makes a category of its own, which ingest would flag apart: rules check names it
// (a warning: the set is valid), and marks the facets, which never flag.
TEST_F(CliTest, RulesCheckWarnsOfACategoryNamedLikeAnother) {
  const std::string rules = dir_ / "typo.yaml";
  WriteFile(rules, "categories:\n  stage: {threshold: 1, facet: true}\nrules:\n"
                   "  - {id: a1, tag: accuracy/low, pattern: 'low accuracy'}\n"
                   "  - {id: a2, tag: accuracy/nan, pattern: 'nan'}\n"
                   "  - {id: a3, tag: accuracy/wrong, pattern: 'wrong'}\n"
                   "  - {id: a4, tag: acuracy/low, pattern: 'poor accuracy'}\n"
                   "  - {id: s1, tag: stage/training, pattern: 'training'}\n");
  const auto r = RunCommand(Ghsift() + " rules check --rules " + rules);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("ghsift: warning: category 'acuracy' (1 rule, first a4 in " + rules +
                          " line 7) is named like 'accuracy': a misspelt tag makes a category of its own"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("  stage: 1 rule, threshold 1 (facet: describes, never flags)\n"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("  accuracy: 3 rules, threshold 1\n"), std::string::npos) << r.output;
}

TEST_F(CliTest, QueryRejectsUnknownDimension) {
  ASSERT_EQ(RunCommand(Ghsift() + " ingest -q --store " + Store() + " " + Sample()).exit_code, 0);
  auto r = RunCommand(Ghsift() + " query --store " + Store() + " --by colour");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("unknown dimension 'colour'; issues dimensions are association, author, author_type, category, facet, kind, "
                          "label, month, reopened, repo, resolution, state, subcategory, time_to_close, verdict"),
            std::string::npos)
      << r.output;
}

// A hand-made labeled file pins the eval arithmetic: 3 tp, 1 fp, 1 fn, 2 tn.
TEST_F(CliTest, RulesEvalArithmetic) {
  const std::string rules = dir_ / "r.yaml";
  WriteFile(rules,
            "rules:\n"
            "  - {id: p.slow, tag: performance/low-speed, pattern: '\\bslow\\b', flags: [caseless]}\n"
            "  - {id: p.leak, tag: performance/memory, pattern: 'leak', weight: 0.5}\n"
            "  - {id: a.nan, tag: accuracy/nan, pattern: '\\bnan\\b', flags: [caseless]}\n");
  const std::string labels = dir_ / "labels.jsonl";
  WriteFile(labels,
            "{\"id\":\"r1\",\"repo\":\"x\",\"title\":\"Training is slow\",\"class\":1}\n"
            "{\"id\":\"r2\",\"repo\":\"x\",\"title\":\"Loss is NaN\",\"class\":1}\n"
            "{\"id\":\"r3\",\"repo\":\"y\",\"title\":\"slow and leak\",\"body\":\"\",\"class\":1}\n"
            "{\"id\":\"r4\",\"repo\":\"y\",\"title\":\"a leak only\",\"class\":1}\n"
            "{\"id\":\"r5\",\"repo\":\"y\",\"title\":\"docs are slow to load\",\"class\":0}\n"
            "{\"id\":\"r6\",\"repo\":\"y\",\"title\":\"typo\",\"class\":0}\n"
            "{\"id\":\"r7\",\"repo\":\"x\",\"title\":\"crash\",\"body\":\"```\\nslow\\n```\",\"class\":0}\n");
  auto r = RunCommand(Ghsift() + " rules eval --rules " + rules + " --labels " + labels + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* key : {"\"tp\": 3,", "\"fp\": 1,", "\"fn\": 1,", "\"tn\": 2,", "\"precision\": 0.750,",
                          "\"recall\": 0.750,", "\"f1\": 0.750,", "\"macro_f1\": 0.708,", "\"per_category\": {",
                          "\"per_rule\": {", "\"p.leak\": {\"hits\": 2, \"positive_hits\": 2, \"precision\": 1.000}",
                          "\"p.slow\": {\"hits\": 3, \"positive_hits\": 2, \"precision\": 0.667}"}) {
    EXPECT_NE(r.output.find(key), std::string::npos) << key << "\n" << r.output;
  }
  r = RunCommand(Ghsift() + " rules eval --rules " + rules + " --labels " + labels + " --show fn");
  EXPECT_NE(r.output.find("r4  a leak only\n    rules: p.leak"), std::string::npos) << r.output;
}

TEST_F(CliTest, RulesBenchVerifiesThenListsEveryRule) {
  const std::string rules = dir_ / "r.yaml";
  WriteFile(rules,
            "rules:\n"
            "  - {id: p.slow, tag: performance/low-speed, pattern: '\\bslow\\b', flags: [caseless]}\n"
            "  - {id: p.leak, tag: performance/memory, pattern: 'leak', fields: [title, body, comment]}\n"
            "  - {id: a.nan, tag: accuracy/nan, pattern: '\\bnan\\b', flags: [caseless]}\n");
  const std::string labels = dir_ / "labels.jsonl";
  WriteFile(labels,
            "{\"id\":\"r1\",\"title\":\"Training is slow\",\"body\":\"a leak\",\"class\":1}\n"
            "{\"id\":\"r2\",\"title\":\"Loss is NaN\",\"comments\":[\"leak here\"],\"class\":1}\n");
  auto r = RunCommand(Ghsift() + " rules bench --seconds 0.01 --top 1 --rules " + rules + " " + labels + " " +
                      Sample() + "/2024-03-05-14.json.gz");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("matches verified against each rule alone"), std::string::npos) << r.output;
  for (const char* id : {"p.slow ", "p.leak ", "a.nan "}) EXPECT_NE(r.output.find(id), std::string::npos) << id;
  // The costliest rule's share of the full scan, always with its noise.
  EXPECT_TRUE(std::regex_search(r.output, std::regex("  (-?[0-9]+\\.[0-9]% \\+-|<=)[0-9]+\\.[0-9]%"))) << r.output;
  EXPECT_EQ(r.output.find("baseline"), std::string::npos) << r.output;
  // No terminal here: no progress unless asked; with --progress, a line as each step starts.
  EXPECT_EQ(r.output.find("left"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " rules bench --progress --seconds 0.01 --top 1 --rules " + rules + " " + labels);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* step : {"ghsift: rules bench: verifying each rule alone, 0/3; about ",
                           "ghsift: rules bench: timing the set and each rule, 0/4; about ",
                           "ghsift: rules bench: timing the set without each costliest rule, 0/1; about "}) {
    EXPECT_NE(r.output.find(step), std::string::npos) << step << "\n" << r.output;
  }
  EXPECT_TRUE(std::regex_search(r.output, std::regex("0/3; about [0-9]+ s left\n"))) << r.output;
  // Against the set before an edit (here: without the leak rule), timed alternately.
  const std::string before = dir_ / "before.yaml";
  WriteFile(before,
            "rules:\n"
            "  - {id: p.slow, tag: performance/low-speed, pattern: '\\bslow\\b', flags: [caseless]}\n"
            "  - {id: a.nan, tag: accuracy/nan, pattern: '\\bnan\\b', flags: [caseless]}\n");
  r = RunCommand(Ghsift() + " rules bench --seconds 0.01 --top 0 --rules " + rules + " --baseline " + before + " " + labels);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(std::regex_search(
      r.output, std::regex("\nbaseline rule set \\(--baseline\\): [0-9]+\\.[0-9] MB/s; this set at [0-9]+\\.[0-9]{2} times "
                           "its speed, (not told apart from the noise|faster|slower) \\(timings of one set spread "
                           "\\+-[0-9]+\\.[0-9]%; 5 alternating timings each, medians\\)\n")))
      << r.output;
  r = RunCommand(Ghsift() + " rules bench --top 0 --rules " + rules + " --baseline " + std::string(dir_ / "missing.yaml") +
                 " " + labels);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("ghsift: --baseline: "), std::string::npos) << r.output;
  // A baseline that loads but does not compile fails before the verification, named as
  // `rules eval --baseline` names it.
  const std::string broken = dir_ / "broken.yaml";
  WriteFile(broken, "rules:\n  - {id: p.open, tag: performance/low-speed, pattern: '(slow'}\n");
  r = RunCommand(Ghsift() + " rules bench --top 0 --rules " + rules + " --baseline " + broken + " " + labels);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("ghsift: --baseline: " + broken + ": rule 'p.open' (line 2): pattern '(slow': "), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("verifying"), std::string::npos) << r.output;
}

TEST_F(CliTest, RulesExplainMarksSpansAndScores) {
  const std::string rules = dir_ / "r.yaml";
  WriteFile(rules,
            "rules:\n"
            "  - {id: p.slow, tag: performance/low-speed, pattern: '\\bslow\\b', flags: [caseless]}\n"
            "  - {id: p.leak, tag: performance/memory, pattern: 'leak', weight: 0.5}\n");
  auto r = RunCommand(Ghsift() + " rules explain --no-color --rules " + rules +
               " --title 'Training got Slow' --text 'it may leak\n```\nslow code\n```'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("title:\n  1: Training got [[Slow]]\n     rules: p.slow"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("body:\n  1: it may [[leak]]\n     rules: p.leak"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("code: (no match)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("performance    1.50 / 1.00  FLAGGED"), std::string::npos) << r.output;
}

// A jsonl export (sample, issues) holds a report a line: explain reads the one --record names,
// and refuses the whole file rather than scoring its JSON as one markdown body.
TEST_F(CliTest, RulesExplainReadsOneRecordOfAJsonlFile) {
  const std::string rules = dir_ / "r.yaml";
  WriteFile(rules, "rules:\n  - {id: p.slow, tag: performance/low-speed, pattern: '\\bslow\\b'}\n");
  const std::string jsonl = dir_ / "export.jsonl";
  WriteFile(jsonl, "{\"title\": \"fast enough\", \"body\": \"\", \"class\": null}\n"
                   "{\"title\": \"training is slow\", \"body\": \"\", \"class\": null}\n");
  const std::string explain = Ghsift() + " rules explain --no-color --rules " + rules + " --file " + jsonl;
  auto r = RunCommand(explain);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output, "ghsift: " + jsonl + ": 2 JSON records, one a line; rules explain reads one report: "
                      "--record K explains the K-th\n");
  r = RunCommand(explain + " --record 2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("title:\n  1: training is [[slow]]\n     rules: p.slow"), std::string::npos) << r.output;
  r = RunCommand(explain + " --record 1");
  EXPECT_NE(r.output.find("title: (no match)"), std::string::npos) << r.output;
  r = RunCommand(explain + " --record 3");
  EXPECT_EQ(r.output, "ghsift: " + jsonl + ": 2 JSON records, one a line; there is no record 3\n");
}

// With the default rules, explain says whether the report is a bug apart from its topic: a usage
// question about speed speaks of performance and is a question.
TEST_F(CliTest, RulesExplainGivesTheVerdict) {
  auto r = RunCommand(Ghsift() + " rules explain --no-color --title 'How to make training 10x faster?'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("verdict.question.howto"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\nverdict: question\n"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " rules explain --no-color --title 'Training is 10x slower since 2.1'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\nverdict: bug\n"), std::string::npos) << r.output;
}

// A template's instructions in an HTML comment are not the reporter's words: GitHub does not show
// them, and rules do not read them. The same body without the comment's markers is a feature request.
TEST_F(CliTest, RulesExplainLeavesHtmlCommentsOut) {
  const std::string body = "Training is fine.\n<!-- Is your feature request related to a problem? -->\nThanks\n";
  auto r = RunCommand(Ghsift() + " rules explain --no-color --title 'Training on GPU' --text '" + body + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("verdict.feature.body"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\nverdict: bug\n"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " rules explain --no-color --title 'Training on GPU' --text '" +
                 "Training is fine.\nIs your feature request related to a problem?\nThanks\n'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("verdict.feature.body"), std::string::npos) << r.output;
}

// Issue templates' prompts (kTemplatePrompts) are the form's words: the TensorFlow bug template's
// policy line says "performance issues" and its system information asks about a "mobile device"
// in every report. With them the default rules gave this report performance 0.50 and stage
// deployment; without them nothing of either, while the reporter's answer after the prompt counts.
TEST_F(CliTest, RulesExplainLeavesTemplatePromptsOut) {
  const std::string body =
      "Please make sure that this is a bug. As per our GitHub Policy, we only address code/doc bugs, performance "
      "issues, feature requests and build/installation issues on GitHub.\n"
      "- Mobile device (e.g. iPhone 8, Pixel 2, Samsung Galaxy) if the issue happens on mobile device:\n"
      "The layer accepts the argument.\n";
  auto r = RunCommand(Ghsift() + " rules explain --no-color --title 'Dense layer argument' --text '" + body + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("  performance    0.00 / 1.00  -\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("  stage          0.00 / 1.00  -\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("body: (no match)"), std::string::npos) << r.output;
  // What the rules did not read is said, so that a reader sees why the prompt matched nothing.
  EXPECT_NE(r.output.find("left out of body (the form's words, not the reporter's): the template prompts \"we only "
                          "address code/doc bugs, performance issues, feature requests and\", \"Mobile device (e.g. "
                          "iPhone 8, Pixel 2, Samsung Galaxy) if the issue happens on mobile device\"\n"),
            std::string::npos)
      << r.output;
  r = RunCommand(Ghsift() + " rules explain --no-color --title 'Dense layer argument' --text '" +
                 "## Bug\nIt is slow.\n## Expected behavior\n<!-- what you expected -->\n'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("left out of body (the form's words, not the reporter's): 1 HTML comment; the heading of "
                          "an empty section \"## Expected behavior\"\n"),
            std::string::npos)
      << r.output;
  r = RunCommand(Ghsift() + " rules explain --no-color --title 'Dense layer argument' --text '" +
                 "- Mobile device (e.g. iPhone 8, Pixel 2, Samsung Galaxy) if the issue happens on mobile device: "
                 "Android 10\n'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("body:\n  1: - : [[Android]] 10\n     rules: stage.deployment\n"), std::string::npos)
      << r.output;
}

// Every matched span is marked whole: a rule without start offsets ("instead of"), a rule that
// matches each character (`\S` in code), overlapping rules; weights and sums are printed.
TEST_F(CliTest, RulesExplainMarksWholeSpansWithWeightsAndSums) {
  auto r = RunCommand(Ghsift() + " rules explain --no-color --rules " + GHSIFT_SOURCE_DIR +
                      "/tests/data/explain_rules.yaml --title 'How come it is slower'"
                      " --text 'takes 5 s instead of 5 ms, much slower\n```\ny = net.cuda()\n```'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output,
            "title:\n"
            "  1: [[How]] come it is [[slower]]\n"
            "     rules: t.how t.slow\n"
            "body:\n"
            "  1: takes 5 s [[instead of]] 5 ms, [[much slower]]\n"
            "     rules: t.instead t.slow\n"
            "code:\n"
            "  1: [[y]] [[=]] [[net.cuda()]]\n"
            "     rules: t.code\n"
            "rules matched:\n"
            "  t.code    +1.00  info/reproduction-code  code: \"y\"\n"
            "  t.how     -0.75  performance/not-a-bug   title: \"How\"  (counts toward performance, silent)\n"
            "  t.instead +0.50  silent/no-error         body: \"instead of\"\n"
            "  t.slow    +1.00  performance/low-speed   title: \"slower\"\n"
            "scores (sum of matched weights / threshold):\n"
            "  info           1.00 / 1.00  FLAGGED\n"
            "  performance    0.25 / 1.00  -\n"
            "  silent        -0.25 / 1.00  -\n");
  // A later layer changes the weights and thresholds explain reports.
  const std::string overlay = dir_ / "overlay.yaml";
  WriteFile(overlay, "categories:\n  performance: {threshold: 0.25}\nrules:\n  - {id: t.how, enabled: false}\n");
  r = RunCommand(Ghsift() + " rules explain --no-color --rules " + GHSIFT_SOURCE_DIR +
                 "/tests/data/explain_rules.yaml --rules " + overlay + " --title 'How come it is slower'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output,
            "title:\n"
            "  1: How come it is [[slower]]\n"
            "     rules: t.slow\n"
            "rules matched:\n"
            "  t.slow +1.00  performance/low-speed  title: \"slower\"\n"
            "scores (sum of matched weights / threshold):\n"
            "  info           0.00 / 1.00  -\n"
            "  performance    1.00 / 0.25  FLAGGED\n"
            "  silent         0.00 / 1.00  -\n");
}

// With --store, explain judges the stored matches with the rules of the store, or with the
// --rules layers when given.
// A real 2011 pull request whose state no event gave reads "(unknown)" for its state, resolution
// and author alike, in the exports and in `rules explain` (which said "state unknown", and the
// resolution column "unknown").
TEST_F(CliTest, AnUnknownValueReadsTheSameInEveryOutput) {
  const std::string hour = std::string(GHSIFT_SOURCE_DIR) + "/../shared/data/gharchive-real/hours/2011-02-15-0.json.gz";
  if (!std::filesystem::exists(hour)) GTEST_SKIP() << "no real data at " << hour;
  auto r = RunCommand(Ghsift() + " ingest -q --all-repos --store " + Store() + " " + hour);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = RunCommand(Ghsift() + " rules explain --no-color --store " + Store() + " --issue 'tukz/Tukui#122'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.substr(0, r.output.find('\n')), "tukz/Tukui#122 (pull request, (unknown))") << r.output;
  r = testing::RunCommandStdout(Ghsift() + " issues --store " + Store() +
                                " --kind pr --state unknown --repo tukz/Tukui --format json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* field : {"\"state\": \"(unknown)\"", "\"resolution\": \"(unknown)\"", "\"author\": \"(unknown)\""}) {
    EXPECT_NE(r.output.find(field), std::string::npos) << field << " in " << r.output;
  }
  EXPECT_EQ(r.output.find("\"unknown\""), std::string::npos) << r.output;
  r = testing::RunCommandStdout(Ghsift() + " query --store " + Store() + " --kind all --by state,resolution --format csv");
  EXPECT_EQ(r.output, "state,resolution,issues\n(unknown),(unknown),96\n");
}

TEST_F(CliTest, RulesExplainFromStoreUsesRulesWhenGiven) {
  const std::string rules = std::string(GHSIFT_SOURCE_DIR) + "/tests/data/explain_rules.yaml";
  auto r = RunCommand(Ghsift() + " ingest -q --all-repos --store " + Store() + " --rules " + rules + " " + Sample());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = RunCommand(Ghsift() + " rules explain --store " + Store() + " --issue BVLC/caffe#7002");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("  t.code +1.00  info/reproduction-code\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("  info           1.00 / 1.00  FLAGGED\n"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("--rules given"), std::string::npos) << r.output;
  // The kept text is marked with the rules the store was built with, which must then be given.
  EXPECT_NE(r.output.find("(the store was built with another rule set than the bundled one: give it with --rules"),
            std::string::npos)
      << r.output;
  r = RunCommand(Ghsift() + " rules explain --no-color --store " + Store() + " --issue BVLC/caffe#7002 --rules " + rules);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("marked with the --rules given:\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("     rules: t.code\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("[["), std::string::npos) << r.output;
  const std::string overlay = dir_ / "overlay.yaml";
  WriteFile(overlay, "categories:\n  info: {threshold: 100}\nrules:\n  - {id: t.code, weight: 2.5}\n");
  r = RunCommand(Ghsift() + " rules explain --store " + Store() + " --issue BVLC/caffe#7002 --rules " + rules +
                 " --rules " + overlay);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("(weights and thresholds of the --rules given, not of the store)\n"), std::string::npos);
  EXPECT_NE(r.output.find("  t.code +2.50  info/reproduction-code  code: \""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("  info           2.50 / 100.00  -\n"), std::string::npos) << r.output;
  // A rule the store's ingest matched that the --rules given no longer have is said to be gone.
  const std::string disabled = dir_ / "disabled.yaml";
  WriteFile(disabled, "rules:\n  - {id: t.code, enabled: false}\n");
  r = RunCommand(Ghsift() + " rules explain --no-color --store " + Store() + " --issue BVLC/caffe#7002 --rules " +
                 rules + " --rules " + disabled);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("  t.code (not in the rules given: disabled or renamed there)\n"), std::string::npos)
      << r.output;
}


}  // namespace
}  // namespace ghsift
