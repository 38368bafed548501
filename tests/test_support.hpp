#pragma once
// Helpers shared by the end-to-end tests: temporary directories, generated corpora, the
// generator's truth file, and running the real ghsift binary.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>

#include "command_support.hpp"
#include "gen/generator.hpp"
#include "pipelines/ingest_pipeline.hpp"
#include "pipelines/store_scope.hpp"
#include "query/dimensions.hpp"
#include "query/query.hpp"

namespace ghsift::testing {

//! A fresh directory under the test temp dir, removed when the object goes away.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "ghsift-test-XXXXXX").string();
    path_ = ::mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

//! The whole text of a file ("" when it does not exist yet).
inline std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

//! One IssuesEvent record opening tensorflow/tensorflow#7 at 2024-03-05T14:00Z, with this title,
//! body and label, each given as a JSON string (quotes and escapes included).
inline std::string OpenedIssueRecord(const std::string& title_json, const std::string& body_json,
                                     const std::string& label_json) {
  return R"({"id":"1","type":"IssuesEvent","actor":{"id":1,"login":"a"},"repo":{"id":45717250,)"
         R"("name":"tensorflow/tensorflow","url":"https://api.github.com/repos/tensorflow/tensorflow"},)"
         R"("payload":{"action":"opened","issue":{"html_url":"https://github.com/tensorflow/tensorflow/issues/7",)"
         R"("number":7,"title":)" + title_json + R"(,"body":)" + body_json + R"(,"state":"open","labels":[{"name":)" +
         label_json + R"(}],"created_at":"2024-03-05T14:00:00Z","updated_at":"2024-03-05T14:00:00Z","comments":0,)"
         R"("user":{"login":"a"}}},"public":true,"created_at":"2024-03-05T14:00:00Z"})";
}

//! A store ingested from one hand-written hour file (`records`, its lines), for tests of how a
//! report's own text comes out: the hour and the store live in a TempDir of their own.
class OneHourStore {
 public:
  OneHourStore(const std::string& hour_name, const std::string& records, const std::string& ingest_options = "-q")
      : hour_(dir_ / hour_name) {
    std::ofstream(hour_) << records;
    const CommandResult r = RunCommand(Ghsift() + " ingest " + ingest_options + " --store " + Store() + " " + hour_);
    EXPECT_EQ(r.exit_code, 0) << r.output;
  }
  const std::string& Hour() const { return hour_; }
  std::string Store() const { return dir_ / "store"; }
  std::string operator/(const std::string& name) const { return dir_ / name; }
  //! `ghsift ARGUMENTS --store` this store.
  CommandResult Run(const std::string& arguments) const {
    return RunCommand(Ghsift() + " " + arguments + " --store " + Store());
  }

 private:
  TempDir dir_;
  std::string hour_;
};

//! Generates a corpus (or dies): `out` gets the hourly files and truth.json.
inline void Generate(const std::string& out, int hours, int events, uint64_t seed, const std::string& compress,
                     int bad_lines = 0) {
  gen::GenOptions o;
  o.out_dir = out;
  o.hours = hours;
  o.events_per_hour = events;
  o.seed = seed;
  o.compress = compress;
  o.bad_lines_per_file = bad_lines;
  o.level = 1;
  const Status s = gen::Generate(o, nullptr);
  if (!s.ok()) {
    std::fprintf(stderr, "generator failed: %s\n", s.message().c_str());
    std::abort();
  }
}

//! Ingests `files` into the store at `store_dir` (created if missing) with the rules at
//! `rules_path`, keeping the reports of the repositories `scope` tracks.
inline std::vector<FileOutcome> IngestFilesInScope(const std::string& store_dir, const std::vector<std::string>& files,
                                                   const std::string& rules_path, const RepoFilter& scope,
                                                   int threads = 2,
                                                   uint64_t commit_group_bytes = IngestOptions::kDefaultCommitGroupBytes) {
  auto store = Store::Open(store_dir, StoreMode::kReadWrite);
  auto rules = LoadRuleSet(rules_path);
  if (!store.ok() || !rules.ok()) {
    std::fprintf(stderr, "cannot open store or rules\n");
    std::abort();
  }
  auto db = RuleDatabase::Compile(*rules);
  if (!db.ok() || !CheckStoreScope(**store, *rules, scope).ok()) {
    std::fprintf(stderr, "cannot compile rules or check scope\n");
    std::abort();
  }
  IngestOptions options;
  options.threads = threads;
  options.splitter.chunk_bytes = 256 << 10;  // several chunks per file
  options.commit_group_bytes = commit_group_bytes;
  IngestPipeline pipeline(**store, *db, scope, options);
  return pipeline.Run(files);
}

//! IngestFilesInScope with every repository tracked.
inline std::vector<FileOutcome> IngestFiles(const std::string& store_dir, const std::vector<std::string>& files,
                                            const std::string& rules_path, int threads = 2,
                                            uint64_t commit_group_bytes = IngestOptions::kDefaultCommitGroupBytes) {
  return IngestFilesInScope(store_dir, files, rules_path, RepoFilter::All(), threads, commit_group_bytes);
}

//! `head`, then the exported dimensions' columns (query/dimensions.hpp), with which every export
//! ends (the CSV and JSON lines of issues and sample, the report's samples). DimensionFiltersTest
//! pins those names once; a test of an export pins what its command puts first, so that a
//! dimension added to the table is one row there, not an edit of every export's test.
inline std::vector<std::string> WithExportedColumns(std::vector<std::string> head) {
  for (std::string& name : ExportedDimensionNames()) head.push_back(std::move(name));
  return head;
}

//! A CSV header line of these columns.
inline std::string CsvHeaderLine(const std::vector<std::string>& columns) {
  std::string line;
  for (const std::string& c : columns) line += (line.empty() ? "" : ",") + c;
  return line + "\n";
}

inline std::string ProbeRules() { return std::string(GHSIFT_SOURCE_DIR) + "/tests/data/probe_rules.yaml"; }

//! {first dimension: {second dimension: count}} of a two-dimension query.
using Nested = std::map<std::string, std::map<std::string, int64_t>>;
inline Nested QueryNested(const std::string& store_dir, const QueryOptions& options) {
  Nested out;
  auto store = Store::Open(store_dir, StoreMode::kRead);
  if (!store.ok()) return out;
  auto table = RunQuery(**store, options);
  if (!table.ok()) return out;
  for (size_t i = 0; i < table->rows.size(); ++i) out[table->rows[i][0]][table->rows[i][1]] = table->counts[i];
  return out;
}

//! {outer key: {inner key: count}} of a two-level object in truth.json.
inline Nested ReadNested(simdjson::dom::element object) {
  Nested out;
  for (auto [outer, inner] : object.get_object()) {
    for (auto [key, value] : inner.get_object()) out[std::string(outer)][std::string(key)] = value.get_int64();
  }
  return out;
}

//! Generates a corpus with the real binary's `gen`, as a user would (or fails the test).
inline void GenCorpus(const std::string& out, int hours, int events, int seed, const std::string& compress) {
  const CommandResult r = RunCommand(Ghsift() + " gen --out '" + out + "' --hours " + std::to_string(hours) +
                                     " --events-per-hour " + std::to_string(events) + " --seed " +
                                     std::to_string(seed) + " --compress " + compress);
  ASSERT_EQ(r.exit_code, 0) << r.output;
}

//! Every answer the CLI gives about a store, as text, to compare two stores that should hold
//! the same data (sizes on disk left out: they depend on how the data arrived). Without `stats`,
//! only what the data says (stats also names how the store was built: the rule layers a CLI
//! ingest records, which a store built in-process by a test has not).
inline std::string StoreAnswers(const std::string& store, bool with_stats = true) {
  std::string out;
  for (const char* q : {" query --metric events --by repo,day,type --format csv",
                        " query --kind all --by repo,month,category,state,resolution --format csv",
                        " query --kind all --by repo,month,category,state --format csv",  // from the rollup
                        " query --kind all --by repo,label --format csv", " issues --limit 0 --format csv --kind all",
                        " stats --format json"}) {
    if (!with_stats && std::string_view(q).starts_with(" stats")) continue;
    const std::string answer = RunCommand(Ghsift() + q + " --store " + store).output;
    // The answers, not the note that the store holds files that failed (one store may hold failures
    // the other lacks while their counts agree).
    for (size_t at = 0; at < answer.size();) {
      const size_t end = std::min(answer.find('\n', at), answer.size());
      const std::string_view line(answer.data() + at, end - at);
      if (!(line.starts_with("ghsift: note: ") && line.find(" failed when ingested ") != std::string_view::npos)) {
        out.append(line);
        if (end < answer.size()) out += '\n';
      }
      at = end + 1;
    }
  }
  for (const char* size_key : {"\"store_bytes\"", "\"compressed_bytes\""}) {
    const size_t at = out.find(size_key);
    if (at != std::string::npos) out.erase(at, out.find('\n', at) - at);
  }
  return out;
}

}  // namespace ghsift::testing
