// Real GH Archive files of every era (../shared/data/gharchive-real, read in place, never
// copied here): every record counted, by type, duplicates, repository and report, exactly as an
// independent plain JSON reader (tests/pipelines/count_real_events.py) counts them, with no bad
// records.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <map>
#include <set>

#include "test_support.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

std::string RealDataDir() { return std::string(GHSIFT_SOURCE_DIR) + "/../shared/data/gharchive-real"; }

//! Every real archive file: the whole hours, the excerpt and the collection of single records.
std::vector<std::string> RealFiles() {
  std::vector<std::string> files;
  for (const char* sub : {"hours", "excerpts"}) {
    const fs::path dir = fs::path(RealDataDir()) / sub;
    if (!fs::is_directory(dir)) continue;
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.path().extension() == ".gz") files.push_back(entry.path().string());
    }
  }
  const fs::path events = fs::path(RealDataDir()) / "events.json.gz";
  if (fs::exists(events)) files.push_back(events.string());
  std::sort(files.begin(), files.end());
  return files;
}

struct Count {
  int64_t events = 0;
  int64_t duplicates = 0;
  int64_t bad = 0;
  int64_t repositories = 0;  //!< distinct repositories, "(no repository)" counting as one
  int64_t reports = 0;       //!< distinct (repository, number) of the report events
  std::map<std::string, int64_t> by_type;
};

//! The Python reader's count of one file.
Count PythonCount(const std::string& file) {
  const auto r = testing::RunCommand("python3 '" + std::string(GHSIFT_SOURCE_DIR) +
                                     "/tests/pipelines/count_real_events.py' '" + file + "'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  Count c;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(r.output).get(doc) != simdjson::SUCCESS) {
    ADD_FAILURE() << "unreadable counter output: " << r.output;
    return c;
  }
  c.events = doc["events"].get_int64().value();
  c.duplicates = doc["duplicates"].get_int64().value();
  c.bad = doc["bad"].get_int64().value();
  c.repositories = doc["repositories"].get_int64().value();
  c.reports = doc["reports"].get_int64().value();
  for (auto [type, n] : doc["events_by_type"].get_object()) c.by_type[std::string(type)] = n.get_int64().value();
  return c;
}

//! ghsift's count of one file, ingested alone into a fresh store.
Count GhsiftCount(const std::string& file, const std::string& store_dir) {
  Count c;
  for (const auto& o : testing::IngestFiles(store_dir, {file}, testing::ProbeRules())) {
    EXPECT_EQ(o.result, FileResult::kIngested) << o.path << ": " << o.message;
    for (const BadLine& b : o.bad_lines) ADD_FAILURE() << file << ":" << b.line << ":" << b.column << ": " << b.reason;
  }
  auto store = Store::Open(store_dir, StoreMode::kRead);
  if (!store.ok()) {
    ADD_FAILURE() << store.status().message();
    return c;
  }
  const auto stats = (*store)->Stats().value();
  const auto get = [&](const char* key) { return stats.count(key) ? stats.at(key) : int64_t{0}; };
  c.events = get("events");
  c.duplicates = get("duplicate_events");
  c.bad = get("bad_lines");
  QueryOptions q;
  q.metric = Metric::kEvents;
  q.dimensions = {"type"};
  auto table = RunQuery(**store, q);
  EXPECT_TRUE(table.ok());
  if (table.ok()) {
    for (size_t i = 0; i < table->rows.size(); ++i) c.by_type[table->rows[i][0]] = table->counts[i];
  }
  // Repositories by id (a query's rows go by name, and two ids can hold one in turn): the named
  // ones, those whose records gave no name (rows "#id": 2013 records with an empty owner), and
  // the events of no repository (id 0).
  std::set<int64_t> ids;
  EXPECT_TRUE((*store)->ScanRepoNames([&](int64_t id, std::string_view) { ids.insert(id); }).ok());
  q.dimensions = {"repo"};
  table = RunQuery(**store, q);
  EXPECT_TRUE(table.ok());
  if (table.ok()) {
    for (const auto& row : table->rows) {
      if (row[0] == kNoRepositoryName) ids.insert(0);
      if (row[0].starts_with("#")) ids.insert(std::stoll(row[0].substr(1)));
    }
  }
  c.repositories = static_cast<int64_t>(ids.size());
  QueryOptions reports;
  reports.kind = "all";
  table = RunQuery(**store, reports);
  EXPECT_TRUE(table.ok());
  if (table.ok()) c.reports = table->counts.empty() ? 0 : table->counts[0];
  return c;
}

TEST(RealArchiveTest, EveryRecordOfEveryRealFileCountedAsAPlainJsonReaderCountsIt) {
  const std::vector<std::string> files = RealFiles();
  if (files.empty()) GTEST_SKIP() << RealDataDir() << " is absent";
  TempDir dir;
  int64_t all_events = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    SCOPED_TRACE(files[i]);
    const Count want = PythonCount(files[i]);
    const Count got = GhsiftCount(files[i], dir / ("store-" + std::to_string(i)));
    EXPECT_EQ(want.bad, 0);
    EXPECT_GT(want.events, 0);
    EXPECT_EQ(got.bad, 0);
    EXPECT_EQ(got.events, want.events);
    EXPECT_EQ(got.duplicates, want.duplicates);
    EXPECT_EQ(got.by_type, want.by_type);
    // Every repository apart, also in the mid-2012 hours whose records carry no repository id.
    EXPECT_EQ(got.repositories, want.repositories);
    // Every report, also those of 2012-2014 comments whose issue only their page address names.
    EXPECT_EQ(got.reports, want.reports);
    all_events += got.events;
  }
  // The README's totals: 12 hours, 2,048 excerpt lines, 4,775 single records.
  if (files.size() == 14) {
    EXPECT_EQ(all_events, 104131);
  }
}

TEST(RealArchiveTest, TheGluedOriginal2012HourIsOneLineOfRecordsAllCounted) {
  const std::string file = RealDataDir() + "/hours/2012-04-11-15.json.gz";
  if (!fs::exists(file)) GTEST_SKIP() << file << " is absent";
  TempDir dir;
  const auto outcomes = testing::IngestFiles(dir / "store", {file}, testing::ProbeRules());
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].entry.events, 5712u);  // the data README's count for this hour
  EXPECT_EQ(outcomes[0].entry.bad_lines, 0u);
  auto store = Store::Open(dir / "store", StoreMode::kRead);
  ASSERT_TRUE(store.ok());
  const auto stats = (*store)->Stats().value();
  EXPECT_EQ(stats.at("joined_records"), 5711);  // every record but the last shares the line
  // Slash dates in Pacific daylight time land in UTC: 15:01 -0700 .. 16:01 -0700 is 22:01 .. 23:01 UTC.
  QueryOptions q;
  q.metric = Metric::kEvents;
  q.dimensions = {"day"};
  auto table = RunQuery(**store, q);
  ASSERT_TRUE(table.ok());
  ASSERT_EQ(table->rows.size(), 1u);
  EXPECT_EQ(table->rows[0][0], "2012-04-11");
  EXPECT_EQ(table->counts[0], 5712);
}

}  // namespace
}  // namespace ghsift
