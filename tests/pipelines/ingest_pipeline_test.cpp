// End to end on generated data: dumps -> pipeline -> RocksDB store -> queries, compared with
// the generator's truth file.
#include "pipelines/ingest_pipeline.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

#include "pipelines/input_files.hpp"
#include "pipelines/store_scope.hpp"
#include "query/query.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::Nested;
using testing::TempDir;

constexpr int kHours = 4;
constexpr int kEventsPerHour = 2500;
constexpr int kBadLinesPerFile = 3;

class IngestPipelineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    corpus_ = new TempDir();
    testing::Generate(*corpus_ / "gz", kHours, kEventsPerHour, 42, "gz", kBadLinesPerFile);
    testing::Generate(*corpus_ / "zst", kHours, kEventsPerHour, 42, "zst", kBadLinesPerFile);
    truth_text_ = new simdjson::padded_string(simdjson::padded_string::load(*corpus_ / "gz/truth.json").value());
  }
  static void TearDownTestSuite() {
    delete truth_text_;
    delete corpus_;
  }

  simdjson::dom::element Truth() {
    if (!truth_loaded_) {
      truth_ = parser_.parse(*truth_text_).value();
      truth_loaded_ = true;
    }
    return truth_;
  }

  static std::vector<std::string> Files(const std::string& sub) {
    return ResolveInputs({*corpus_ / sub}).value();
  }

  std::vector<FileOutcome> Ingest(const std::string& store_dir, const std::vector<std::string>& files,
                                  const std::string& rules_path, int threads = 2,
                                  uint64_t commit_group_bytes = IngestOptions::kDefaultCommitGroupBytes) {
    return testing::IngestFiles(store_dir, files, rules_path, threads, commit_group_bytes);
  }

  static std::string ProbeRules() { return testing::ProbeRules(); }

  //! Every query answer of a store, as text, to compare stores.
  static std::string Fingerprint(const std::string& store_dir) {
    auto store = Store::Open(store_dir, StoreMode::kRead);
    EXPECT_TRUE(store.ok());
    std::string out;
    const std::vector<std::pair<Metric, std::vector<std::string>>> queries = {
        {Metric::kEvents, {"repo", "day", "type"}},
        {Metric::kIssues, {"repo", "month", "category", "state"}},
        {Metric::kIssues, {"repo", "label"}}};
    for (const std::string kind : {"issue", "pr"}) {
      for (const auto& [metric, dims] : queries) {
        QueryOptions o;
        o.metric = metric;
        o.dimensions = dims;
        o.kind = kind;
        auto table = RunQuery(**store, o);
        EXPECT_TRUE(table.ok());
        for (size_t i = 0; i < table->rows.size(); ++i) {
          for (const auto& v : table->rows[i]) out += v + "|";
          out += std::to_string(table->counts[i]) + "\n";
        }
      }
    }
    const auto stats = (*store)->Stats().value();
    for (const auto& [k, v] : stats) {
      if (k != "compressed_bytes") out += k + "=" + std::to_string(v) + "\n";
    }
    return out;
  }

  static Nested QueryNested(const std::string& store_dir, const QueryOptions& options) {
    return testing::QueryNested(store_dir, options);
  }

  static TempDir* corpus_;
  static simdjson::padded_string* truth_text_;
  simdjson::dom::parser parser_;
  simdjson::dom::element truth_;
  bool truth_loaded_ = false;
  TempDir work_;
};

TempDir* IngestPipelineTest::corpus_ = nullptr;
simdjson::padded_string* IngestPipelineTest::truth_text_ = nullptr;

TEST_F(IngestPipelineTest, CountsEventsByTypeAndBadLinesExactly) {
  const auto outcomes = Ingest(work_ / "store", Files("gz"), ProbeRules());
  ASSERT_EQ(outcomes.size(), static_cast<size_t>(kHours));
  for (const auto& o : outcomes) {
    EXPECT_EQ(o.result, FileResult::kIngested) << o.path << ": " << o.message;
    EXPECT_EQ(o.entry.bad_lines, static_cast<uint64_t>(kBadLinesPerFile));
    ASSERT_EQ(o.bad_lines.size(), static_cast<size_t>(kBadLinesPerFile));
    for (const auto& b : o.bad_lines) EXPECT_GT(b.line, 0u);
  }
  auto store = Store::Open(work_ / "store", StoreMode::kRead);
  ASSERT_TRUE(store.ok());
  const auto stats = (*store)->Stats().value();
  EXPECT_EQ(stats.at("events"), Truth()["events"].get_int64().value());
  EXPECT_EQ(stats.at("bad_lines"), Truth()["bad_lines"].get_int64().value());
  EXPECT_EQ(stats.at("files"), kHours);

  QueryOptions o;
  o.metric = Metric::kEvents;
  o.dimensions = {"type"};
  auto table = RunQuery(**store, o);
  ASSERT_TRUE(table.ok());
  std::map<std::string, int64_t> by_type;
  for (size_t i = 0; i < table->rows.size(); ++i) by_type[table->rows[i][0]] = table->counts[i];
  std::map<std::string, int64_t> expected;
  for (auto [type, n] : Truth()["events_by_type"].get_object()) expected[std::string(type)] = n.get_int64();
  EXPECT_EQ(by_type, expected);
}

//! An IssuesEvent line of repository o/r whose `issue` object holds `number_member` (e.g.
//! `"number":12,`; empty: no number).
std::string IssuesEventLine(int id, const std::string& number_member) {
  return R"({"id":")" + std::to_string(id) + R"(","type":"IssuesEvent","actor":{"id":1,"login":"u"},)"
         R"("repo":{"id":5,"name":"o/r"},"payload":{"action":"opened","issue":{)" + number_member +
         R"("title":"Training is slow","body":"slow","state":"open","labels":[],"comments":0,)"
         R"("created_at":"2024-01-01T00:00:00Z","closed_at":null}},"public":true,)"
         R"("created_at":"2024-01-01T00:00:)" + (id < 10 ? "0" : "") + std::to_string(id) + R"(Z"})";
}

//! What an ingest said of its one file: events, bad lines and report events without a number, and
//! each located one as LINE:COLUMN: REASON.
struct Said {
  uint64_t events = 0;
  uint64_t bad_lines = 0;
  uint64_t without_number = 0;
  std::vector<std::string> bad;
  std::vector<std::string> unnumbered;
  bool operator==(const Said&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Said& s) {
  out << s.events << " events, " << s.bad_lines << " bad lines, " << s.without_number << " without number;";
  for (const std::string& b : s.bad) out << " [bad " << b << "]";
  for (const std::string& u : s.unnumbered) out << " [unnumbered " << u << "]";
  return out;
}

//! Ingests `dump` alone into a fresh store in `scope`.
Said IngestSaid(const TempDir& dir, const std::string& name, const std::string& dump, const RepoFilter& scope) {
  const auto outcomes = testing::IngestFilesInScope(dir / name, {dump}, testing::ProbeRules(), scope);
  EXPECT_EQ(outcomes.size(), 1u);
  if (outcomes.size() != 1) return {};
  const FileOutcome& o = outcomes[0];
  EXPECT_EQ(o.result, FileResult::kIngested) << o.message;
  Said said{o.entry.events, o.entry.bad_lines, o.entry.report_events_without_number, {}, {}};
  for (const BadLine& b : o.bad_lines) said.bad.push_back(std::to_string(b.line) + ":" + std::to_string(b.column) + ": " + b.reason);
  for (const BadLine& b : o.without_number) {
    said.unnumbered.push_back(std::to_string(b.line) + ":" + std::to_string(b.column) + ": " + b.reason);
  }
  return said;
}

std::string Replaced(std::string text, const std::string& from, const std::string& to);

//! IssuesEventLine in the archive's whole 2015+ layout (`repo` with its `url`, `payload` right after
//! it), which the default scope once read from the bytes up to the issue's number and title when it
//! did not track the repository.
std::string ArchiveIssuesEventLine(int id, const std::string& number_member) {
  return Replaced(IssuesEventLine(id, number_member), R"("repo":{"id":5,"name":"o/r"})",
                  R"("repo":{"id":5,"name":"o/r","url":"https://api.github.com/repos/o/r"})");
}

std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Report events of a repository the default scope does not track, broken after their number and
// title. With every repository tracked each is parsed whole: a bad line with its place and reason.
// The default scope reads such an event from its bytes up to the number and title, all it counts
// of it, and never looks at the rest, as it reads other events' envelopes: the broken ones count
// as events there (no real hour holds one; parsing every report event whole to say so costs the
// default scope about 8% of its wall time, measured on 2026-12-05).
TEST(IngestBrokenReportTest, AnUntrackedReportLineBrokenAfterItsTitleIsReadFromItsBytes) {
  TempDir dir;
  const std::string dump = dir / "2024-01-01-0.json";
  const std::string body = R"("body":"slow",)";
  std::ofstream(dump, std::ios::binary)
      << ArchiveIssuesEventLine(1, R"("number":1,)") << "\n"
      << Replaced(ArchiveIssuesEventLine(2, R"("number":2,)"), body, R"("body":"slow" )") << "\n"       // no comma
      << Replaced(ArchiveIssuesEventLine(3, R"("number":3,)"), body, "\"body\":\"sl\x01ow\",") << "\n"  // a control byte
      << Replaced(ArchiveIssuesEventLine(4, R"("number":4,)"), body, "\"body\":\"sl\xffow\",") << "\n"  // not UTF-8
      << Replaced(ArchiveIssuesEventLine(5, R"("number":5,)"), R"("labels":[])", R"("labels":[1 2])") << "\n"
      << Replaced(ArchiveIssuesEventLine(6, R"("number":6,)"), R"("closed_at":null}})", R"("closed_at":null})") << "\n"
      << ArchiveIssuesEventLine(7, R"("number":7,)") << "\n";
  const std::string punctuation = "invalid JSON: a missing or extra comma, colon or bracket";
  const Said parsed_whole{2, 5, 0,
                          {"2:1: " + punctuation, "3:1: invalid JSON: a control character (such as NUL) inside a string",
                           "4:1: invalid JSON: text that is not UTF-8", "5:1: " + punctuation, "6:1: " + punctuation},
                          {}};
  EXPECT_EQ(IngestSaid(dir, "all", dump, RepoFilter::All()), parsed_whole);
  EXPECT_EQ(IngestSaid(dir, "default", dump, RepoFilter::FromNames({"tracked/one"})), (Said{7, 0, 0, {}, {}}));
  // The same repository tracked: parsed whole, as with every repository.
  EXPECT_EQ(IngestSaid(dir, "tracked", dump, RepoFilter::FromNames({"o/r"})), parsed_whole);
}

// Report events whose number is a string, null, missing or negative (one of them glued after
// another record) each count as an event and make no report; the outcome names each with its line,
// column and reason, the file entry and the store count them apart from bad lines, and the file is
// no bad copy (no bad line: nothing for --replace to replace).
TEST(IngestReportNumberTest, ReportEventsWithoutAUsableNumberAreSaidAndCounted) {
  TempDir dir;
  const std::string dump = dir / "2024-01-01-0.json";
  std::ofstream(dump, std::ios::binary) << IssuesEventLine(1, R"("number":1,)") << "\n"
                                        << IssuesEventLine(2, R"("number":"abc",)") << "\n"
                                        << IssuesEventLine(3, R"("number":null,)") << "\n"
                                        << IssuesEventLine(4, "") << "\n"
                                        << IssuesEventLine(5, R"("number":-3,)") << "\n"
                                        << IssuesEventLine(6, R"("number":7,)") << IssuesEventLine(7, R"("number":{},)")
                                        << "\n";
  const auto outcomes = testing::IngestFiles(dir / "store", {dump}, testing::ProbeRules());
  ASSERT_EQ(outcomes.size(), 1u);
  const FileOutcome& o = outcomes[0];
  ASSERT_EQ(o.result, FileResult::kIngested) << o.message;
  EXPECT_EQ(o.entry.events, 7u);
  EXPECT_EQ(o.entry.bad_lines, 0u);
  EXPECT_EQ(o.entry.report_events_without_number, 5u);
  std::vector<std::string> said;
  for (const BadLine& b : o.without_number) {
    said.push_back(std::to_string(b.line) + ":" + std::to_string(b.column) + ": " + b.reason);
  }
  const size_t glued_at = IssuesEventLine(6, R"("number":7,)").size() + 1;
  EXPECT_EQ(said, (std::vector<std::string>{
                      "2:1: IssuesEvent: `payload.issue.number` is a string that is not a number",
                      "3:1: IssuesEvent: `payload.issue.number` is null",
                      "4:1: IssuesEvent: `payload.issue.number` is missing",
                      "5:1: IssuesEvent: `payload.issue.number` is negative",
                      "6:" + std::to_string(glued_at) + ": IssuesEvent: `payload.issue.number` is not a number"}));
  auto store = Store::Open(dir / "store", StoreMode::kRead);
  ASSERT_TRUE(store.ok());
  const auto stats = (*store)->Stats().value();
  EXPECT_EQ(stats.at("events"), 7);
  EXPECT_EQ(stats.at("bad_lines"), 0);
  EXPECT_EQ(stats.at("report_events_without_number"), 5);
  EXPECT_EQ(stats.at("reports"), 2);  // report events: issues 1 and 7
  const auto entry = (*store)->FindFile("2024-01-01-0.json").value();
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->report_events_without_number, 5u);
  QueryOptions q;
  q.kind = "all";
  EXPECT_EQ(RunQuery(**store, q).value().counts, (std::vector<int64_t>{2}));
}

// The same report events outside the tracked repositories (the default scope): said and counted
// exactly as with every repository tracked, whatever the number holds.
TEST(IngestReportNumberTest, EveryScopeSaysAndCountsTheSame) {
  TempDir dir;
  const std::string dump = dir / "2024-01-01-0.json";
  std::ofstream(dump, std::ios::binary) << ArchiveIssuesEventLine(1, R"("number":1,)") << "\n"
                                        << ArchiveIssuesEventLine(2, R"("number":"abc",)") << "\n"
                                        << ArchiveIssuesEventLine(3, R"("number":null,)") << "\n"
                                        << ArchiveIssuesEventLine(4, "") << "\n"
                                        << ArchiveIssuesEventLine(5, R"("number":-3,)") << "\n"
                                        << ArchiveIssuesEventLine(6, R"("number":2.5,)") << "\n"
                                        << ArchiveIssuesEventLine(7, R"("number":"8",)") << "\n";
  const Said expected{7, 0, 5, {}, {"2:1: IssuesEvent: `payload.issue.number` is a string that is not a number",
                                    "3:1: IssuesEvent: `payload.issue.number` is null",
                                    "4:1: IssuesEvent: `payload.issue.number` is missing",
                                    "5:1: IssuesEvent: `payload.issue.number` is negative",
                                    "6:1: IssuesEvent: `payload.issue.number` is not a whole number"}};
  EXPECT_EQ(IngestSaid(dir, "all", dump, RepoFilter::All()), expected);
  EXPECT_EQ(IngestSaid(dir, "default", dump, RepoFilter::FromNames({"tracked/one"})), expected);
}

TEST_F(IngestPipelineTest, DistinctIssuesAndPullRequestsByRepoAndMonth) {
  Ingest(work_ / "store", Files("gz"), ProbeRules());
  QueryOptions o;
  o.dimensions = {"repo", "month"};
  EXPECT_EQ(QueryNested(work_ / "store", o), testing::ReadNested(Truth()["issues_by_repo_month"]));
  o.kind = "pr";
  EXPECT_EQ(QueryNested(work_ / "store", o), testing::ReadNested(Truth()["prs_by_repo_month"]));
}

TEST_F(IngestPipelineTest, IssueStatesFollowTheLatestSnapshot) {
  Ingest(work_ / "store", Files("gz"), ProbeRules());
  auto store = Store::Open(work_ / "store", StoreMode::kRead);
  QueryOptions o;
  o.dimensions = {"state"};
  auto table = RunQuery(**store, o);
  ASSERT_TRUE(table.ok());
  std::map<std::string, int64_t> by_state;
  for (size_t i = 0; i < table->rows.size(); ++i) by_state[table->rows[i][0]] = table->counts[i];
  std::map<std::string, int64_t> expected;
  for (auto [state, n] : Truth()["issues_by_state"].get_object()) expected[std::string(state)] = n.get_int64();
  EXPECT_EQ(by_state, expected);
}

TEST_F(IngestPipelineTest, ProbeMarkersFlagExactlyTheirFields) {
  Ingest(work_ / "store", Files("gz"), ProbeRules());
  for (const std::string kind : {"issue", "pr"}) {
    QueryOptions o;
    o.dimensions = {"category", "repo"};
    o.kind = kind;
    Nested flagged = QueryNested(work_ / "store", o);
    // The code marker appears only inside fences: no prose rule may see it.
    EXPECT_EQ(flagged.count("probe_code_as_prose"), 0u) << kind;
    for (const std::string category : {"probe_title", "probe_body", "probe_code", "probe_comment", "probe_label"}) {
      std::map<std::string, int64_t> expected;
      for (auto [repo, n] : Truth()["probe"][category][kind].get_object()) expected[std::string(repo)] = n.get_int64();
      EXPECT_EQ(flagged[category], expected) << category << " " << kind;
      EXPECT_FALSE(expected.empty()) << "the corpus should plant " << category << " in some " << kind;
    }
  }
}

TEST_F(IngestPipelineTest, ZstdInputGivesTheSameStoreAsGzip) {
  Ingest(work_ / "gz", Files("gz"), ProbeRules());
  Ingest(work_ / "zst", Files("zst"), ProbeRules());
  EXPECT_EQ(Fingerprint(work_ / "gz"), Fingerprint(work_ / "zst"));
}

TEST_F(IngestPipelineTest, ThreadCountAndFileOrderDoNotChangeResults) {
  auto files = Files("gz");
  Ingest(work_ / "t1", files, ProbeRules(), 1, /*commit_group_bytes=*/0);
  std::reverse(files.begin(), files.end());
  Ingest(work_ / "t2", files, ProbeRules(), 2);
  std::shuffle(files.begin(), files.end(), std::mt19937(7));
  Ingest(work_ / "t2-one-by-one", {files[0]}, ProbeRules(), 2);
  Ingest(work_ / "t2-one-by-one", {files[1], files[2]}, ProbeRules(), 2);
  Ingest(work_ / "t2-one-by-one", {files[3]}, ProbeRules(), 2);
  const std::string reference = Fingerprint(work_ / "t1");
  EXPECT_EQ(Fingerprint(work_ / "t2"), reference);
  EXPECT_EQ(Fingerprint(work_ / "t2-one-by-one"), reference);
}

// Files committed one by one, in groups of two, or all in one batch give the same store; every
// file of a group is reported ingested with its own entry.
TEST_F(IngestPipelineTest, CommitGroupsDoNotChangeResults) {
  const auto files = Files("gz");
  const auto alone = Ingest(work_ / "alone", files, ProbeRules(), 2, 0);
  uint64_t largest = 0;
  for (const auto& o : alone) largest = std::max(largest, o.entry.decoded_bytes);
  // A group closes once it reaches the threshold: with 1.5 files' worth, two files each.
  const auto pairs = Ingest(work_ / "pairs", files, ProbeRules(), 2, largest * 3 / 2);
  const auto one = Ingest(work_ / "one", files, ProbeRules(), 2, 1ull << 40);
  ASSERT_EQ(pairs.size(), files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    for (const auto* run : {&pairs, &one}) {
      EXPECT_EQ((*run)[i].result, FileResult::kIngested) << files[i];
      EXPECT_EQ((*run)[i].entry.events, alone[i].entry.events) << files[i];
      EXPECT_EQ((*run)[i].entry.bad_lines, alone[i].entry.bad_lines) << files[i];
      EXPECT_EQ((*run)[i].entry.content_hash, alone[i].entry.content_hash) << files[i];
      ASSERT_EQ((*run)[i].bad_lines.size(), alone[i].bad_lines.size()) << files[i];
      for (size_t b = 0; b < alone[i].bad_lines.size(); ++b) {
        EXPECT_EQ((*run)[i].bad_lines[b].line, alone[i].bad_lines[b].line) << files[i];
      }
    }
  }
  const std::string reference = Fingerprint(work_ / "alone");
  EXPECT_EQ(Fingerprint(work_ / "pairs"), reference);
  EXPECT_EQ(Fingerprint(work_ / "one"), reference);
  // Each file is known to the store on its own: a second run skips every one.
  for (const auto& o : Ingest(work_ / "pairs", files, ProbeRules())) EXPECT_EQ(o.result, FileResult::kSkipped);
}

TEST_F(IngestPipelineTest, AlreadyIngestedFilesAreSkippedAndCountOnce) {
  const auto files = Files("gz");
  Ingest(work_ / "store", {files[0], files[1]}, ProbeRules());
  const std::string before = Fingerprint(work_ / "store");
  const auto again = Ingest(work_ / "store", {files[1], files[0]}, ProbeRules());
  for (const auto& o : again) EXPECT_EQ(o.result, FileResult::kSkipped) << o.path;
  EXPECT_EQ(Fingerprint(work_ / "store"), before);
  // Named twice in one run: read once.
  const auto twice = Ingest(work_ / "store2", {files[2], files[2]}, ProbeRules());
  EXPECT_EQ(twice[0].result, FileResult::kIngested);
  EXPECT_EQ(twice[1].result, FileResult::kSkipped);
}

TEST_F(IngestPipelineTest, CorruptGzipAmongGoodFilesIsReportedAndNotCounted) {
  auto files = Files("gz");
  // Flip a byte in the middle of a copy of the second file: the deflate data or its CRC breaks.
  const std::string bad = work_ / "2024-01-01-1.json.gz";
  std::filesystem::copy_file(files[1], bad);
  {
    std::fstream f(bad, std::ios::in | std::ios::out | std::ios::binary);
    const auto size = std::filesystem::file_size(bad);
    f.seekp(static_cast<std::streamoff>(size / 2));
    char c;
    f.seekg(static_cast<std::streamoff>(size / 2));
    f.get(c);
    f.seekp(static_cast<std::streamoff>(size / 2));
    f.put(static_cast<char>(c ^ 0x55));
  }
  // And a truncated copy of the third.
  const std::string cut = work_ / "2024-01-01-2.json.gz";
  std::filesystem::copy_file(files[2], cut);
  std::filesystem::resize_file(cut, std::filesystem::file_size(cut) / 3);
  const auto outcomes = Ingest(work_ / "store", {files[0], bad, cut, files[3]}, ProbeRules());
  EXPECT_EQ(outcomes[0].result, FileResult::kIngested);
  EXPECT_EQ(outcomes[1].result, FileResult::kFailed);
  EXPECT_FALSE(outcomes[1].message.empty());
  EXPECT_EQ(outcomes[2].result, FileResult::kFailed);
  EXPECT_NE(outcomes[2].message.find("truncated"), std::string::npos) << outcomes[2].message;
  EXPECT_EQ(outcomes[3].result, FileResult::kIngested);
  // The store holds exactly the two good files.
  Ingest(work_ / "good", {files[0], files[3]}, ProbeRules());
  EXPECT_EQ(Fingerprint(work_ / "store"), Fingerprint(work_ / "good"));
}

TEST_F(IngestPipelineTest, StoreRefusesAnotherRuleSet) {
  Ingest(work_ / "store", {Files("gz")[0]}, ProbeRules());
  auto store = Store::Open(work_ / "store", StoreMode::kReadWrite);
  ASSERT_TRUE(store.ok());
  auto other = LoadRuleSet(std::string(GHSIFT_SOURCE_DIR) + "/rules");
  ASSERT_TRUE(other.ok());
  const Status s = CheckStoreScope(**store, *other, RepoFilter::All());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("another rule set"), std::string::npos);
}

// Rules that keep their ids, tags and weights but match other text (a pattern edited) would mix
// two scans in one store: the store's model keeps what each rule matches with, and refuses them.
TEST_F(IngestPipelineTest, StoreRefusesTheSameRulesWithAnotherPattern) {
  Ingest(work_ / "store", {Files("gz")[0]}, ProbeRules());
  auto store = Store::Open(work_ / "store", StoreMode::kReadWrite);
  ASSERT_TRUE(store.ok());
  auto edited = LoadRuleSet(ProbeRules());
  ASSERT_TRUE(edited.ok());
  ASSERT_FALSE(edited->rules.empty());
  edited->rules[0].pattern = "\\b(the|a)\\b";
  const Status s = CheckStoreScope(**store, *edited, RepoFilter::All());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("another rule set"), std::string::npos) << s.message();
  auto same = LoadRuleSet(ProbeRules());
  ASSERT_TRUE(same.ok());
  EXPECT_TRUE(CheckStoreScope(**store, *same, RepoFilter::All()).ok());
}

// A store whose model was written before scan digests were kept is taken to have matched with
// the rules given, and its model gains their digests.
TEST_F(IngestPipelineTest, StoreWithoutScanDigestsTakesThoseOfItsRules) {
  Ingest(work_ / "store", {Files("gz")[0]}, ProbeRules());
  auto rules = LoadRuleSet(ProbeRules());
  ASSERT_TRUE(rules.ok());
  const std::string full = DecisionModel::FromRuleSet(*rules).Serialize();
  std::string old;
  std::istringstream lines(full);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("scan\t")) old += line + "\n";
  }
  ASSERT_NE(old, full);
  auto store = Store::Open(work_ / "store", StoreMode::kReadWrite);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE((*store)->PutMeta("rules", old).ok());
  ASSERT_TRUE(CheckStoreScope(**store, *rules, RepoFilter::All()).ok());
  auto kept = (*store)->GetMeta("rules");
  ASSERT_TRUE(kept.ok() && kept->has_value());
  EXPECT_EQ(**kept, full);
}

}  // namespace
}  // namespace ghsift
