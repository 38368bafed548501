#include "store/store.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "aggregate/event_type_table.hpp"
#include "common/time_util.hpp"
#include "store/key_codec.hpp"

#include <rocksdb/db.h>

namespace ghsift {
namespace {

namespace fs = std::filesystem;

int64_t Time(const char* iso) { return *ParseIsoTime(iso); }

Event MakeEvent(std::string_view type, int64_t repo_id, std::string_view repo_name, const char* time) {
  Event e;
  e.type = type;
  e.repo_id = repo_id;
  e.repo_name = repo_name;
  e.created_at = Time(time);
  return e;
}

Event MakeReport(int64_t repo_id, int64_t number, const char* time, std::string_view title, std::string_view state) {
  Event e = MakeEvent("IssuesEvent", repo_id, "o/r", time);
  e.kind = EventKind::kIssues;
  e.has_report = true;
  e.report.number = number;
  e.report.text[Field::kTitle] = title;
  e.report.state = state;
  e.report.created_at = Time("2015-01-01T00:00:00Z");
  return e;
}

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::path(::testing::TempDir()) / "ghsift-store-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    path_ = (fs::path(dir_) / "store").string();
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::unique_ptr<Store> OpenWriter() {
    auto store = Store::Open(path_, StoreMode::kReadWrite);
    EXPECT_TRUE(store.ok()) << store.status().message();
    return store.ok() ? std::move(store).value() : nullptr;
  }
  //! Commits `aggregate` as the files `names` in one group, with a writer opened for it.
  Status CommitGroup(const FileAggregate& aggregate, const std::vector<std::string>& names) {
    auto store = Store::Open(path_, StoreMode::kReadWrite);
    if (!store.ok()) return store.status();
    std::vector<std::pair<std::string, FileEntry>> files;
    for (const std::string& name : names) files.emplace_back(name, FileEntry{});
    return (*store)->CommitFiles(files, aggregate);
  }
  int64_t Counter(const Store& store, const std::string& key) {
    int64_t value = 0;
    int hits = 0;
    EXPECT_TRUE(store
                    .ScanCounters(key,
                                  [&](std::string_view k, int64_t v) {
                                    if (k == key) {
                                      value = v;
                                      ++hits;
                                    }
                                  })
                    .ok());
    EXPECT_LE(hits, 1);
    return value;
  }
  std::string dir_;
  std::string path_;
};

TEST_F(StoreTest, OpenCreatesDirectoryAndMarker) {
  ASSERT_FALSE(fs::exists(path_));
  auto store = OpenWriter();
  ASSERT_NE(store, nullptr);
  EXPECT_TRUE(fs::is_directory(path_));
  EXPECT_TRUE(fs::exists(fs::path(path_) / "GHSIFT_STORE"));
  EXPECT_EQ(store->path(), path_);
  EXPECT_GT(store->DiskBytes(), 0u);
  EXPECT_TRUE(store->Stats()->empty());
}

TEST_F(StoreTest, EmptyExistingDirectoryIsAccepted) {
  fs::create_directories(path_);
  auto store = Store::Open(path_, StoreMode::kReadWrite);
  ASSERT_TRUE(store.ok()) << store.status().message();
  EXPECT_TRUE(fs::exists(fs::path(path_) / "GHSIFT_STORE"));
}

TEST_F(StoreTest, NonEmptyNonStoreDirectoryIsRefused) {
  fs::create_directories(path_);
  std::ofstream(fs::path(path_) / "thesis.tex") << "precious";
  auto store = Store::Open(path_, StoreMode::kReadWrite);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kStoreError);
  EXPECT_NE(store.status().message().find("not a ghsift store"), std::string::npos) << store.status().message();
  EXPECT_FALSE(fs::exists(fs::path(path_) / "GHSIFT_STORE"));
  EXPECT_FALSE(fs::exists(fs::path(path_) / "CURRENT"));
  auto reader = Store::Open(path_, StoreMode::kRead);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kStoreError);
}

TEST_F(StoreTest, AFileIsRefused) {
  std::ofstream(path_) << "x";
  auto store = Store::Open(path_, StoreMode::kReadWrite);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kStoreError);
}

TEST_F(StoreTest, ReaderOfAMissingStore) {
  auto store = Store::Open(path_, StoreMode::kRead);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kNotFound);
  EXPECT_FALSE(fs::exists(path_));
}

TEST_F(StoreTest, CommitFileThenFindFile) {
  auto store = OpenWriter();
  ASSERT_NE(store, nullptr);
  auto missing = store->FindFile("2015-01-01-0.json.gz");
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());

  FileAggregate agg;
  agg.CountEvent(MakeEvent("PushEvent", 1, "a/b", "2015-01-01T00:10:00Z"));
  agg.AddBytes(1234);
  FileEntry entry;
  entry.size = 100;
  entry.decoded_bytes = 1234;
  entry.events = 1;
  entry.bad_lines = 0;
  entry.ingested_at = 1700000000;
  ASSERT_TRUE(store->CommitFile("2015-01-01-0.json.gz", entry, agg).ok());
  auto found = store->FindFile("2015-01-01-0.json.gz");
  ASSERT_TRUE(found.ok());
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->size, 100u);
  EXPECT_EQ((*found)->decoded_bytes, 1234u);
  EXPECT_EQ((*found)->events, 1u);
  EXPECT_EQ((*found)->bad_lines, 0u);
  EXPECT_EQ((*found)->ingested_at, 1700000000);
  auto other = store->FindFile("2015-01-01-1.json.gz");
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(other->has_value());
}

TEST_F(StoreTest, CountersAndStatsMergeAcrossCommits) {
  auto store = OpenWriter();
  ASSERT_NE(store, nullptr);
  const int32_t day = DayOf(Time("2015-01-01T00:00:00Z"));
  FileAggregate a;
  a.CountEvent(MakeEvent("PushEvent", 1, "a/b", "2015-01-01T00:10:00Z"));
  a.CountEvent(MakeEvent("PushEvent", 1, "a/b", "2015-01-01T00:20:00Z"));
  a.CountEvent(MakeEvent("PushEvent", 2, "c/d", "2015-01-01T00:20:00Z"));
  a.CountEvent(MakeEvent("WeirdEvent", 1, "a/b", "2015-01-01T00:20:00Z"));
  a.AddBadLine(0, 0, "bad");
  a.AddBytes(10);
  FileAggregate b;
  b.CountEvent(MakeEvent("PushEvent", 1, "a/b", "2015-01-01T05:00:00Z"));
  b.CountEvent(MakeEvent("WeirdEvent", 1, "a/b", "2015-01-01T05:00:00Z"));
  b.AddBytes(20);
  ASSERT_TRUE(store->CommitFile("a.json.gz", FileEntry{5, 10, 4, 1, 0}, a).ok());
  ASSERT_TRUE(store->CommitFile("b.json.gz", FileEntry{7, 20, 2, 0, 0}, b).ok());
  EXPECT_EQ(Counter(*store, keys::RepoCounter(1, day, "PushEvent")), 3);
  EXPECT_EQ(Counter(*store, keys::RepoCounter(2, day, "PushEvent")), 1);
  EXPECT_EQ(Counter(*store, keys::RepoCounter(1, day, "WeirdEvent")), 2);
  EXPECT_EQ(Counter(*store, keys::TypeCounter(day, "PushEvent")), 4);
  EXPECT_EQ(Counter(*store, keys::TypeCounter(day, "WeirdEvent")), 2);
  const auto stats = store->Stats().value();
  EXPECT_EQ(stats.at("files"), 2);
  EXPECT_EQ(stats.at("events"), 6);
  EXPECT_EQ(stats.at("bad_lines"), 1);
  EXPECT_EQ(stats.at("bytes"), 30);
  EXPECT_EQ(stats.at("compressed_bytes"), 12);
  EXPECT_EQ(stats.at("reports"), 0);
  ASSERT_TRUE(store->AddStat("files", -1).ok());
  EXPECT_EQ(store->Stats()->at("files"), 1);
  std::vector<std::string> names;
  ASSERT_TRUE(store->ScanFiles([&](const std::string& name, const FileEntry&) { names.push_back(name); }).ok());
  EXPECT_EQ(names, (std::vector<std::string>{"a.json.gz", "b.json.gz"}));
}

// Two files committed as one group: the same counters, stats and file entries as two commits.
TEST_F(StoreTest, GroupCommitCountsEachFileOnce) {
  auto store = OpenWriter();
  ASSERT_NE(store, nullptr);
  const int32_t day = DayOf(Time("2015-01-01T00:00:00Z"));
  FileAggregate a;
  a.CountEvent(MakeEvent("PushEvent", 1, "a/b", "2015-01-01T00:10:00Z"));
  a.AddReport(MakeReport(1, 3, "2015-01-01T00:10:00Z", "Slow", "open"), {"r1"});
  a.AddBytes(10);
  FileAggregate b;
  b.CountEvent(MakeEvent("PushEvent", 1, "a/b", "2015-01-01T05:00:00Z"));
  b.AddReport(MakeReport(1, 3, "2015-01-01T05:00:00Z", "Slow fit", "closed"), {"r2"});
  b.AddBytes(20);
  IssueRecord expected = a.issues().at(IssueKey{1, 3});
  expected.Merge(b.issues().at(IssueKey{1, 3}));
  FileAggregate group = std::move(a);
  group.Combine(std::move(b));
  ASSERT_TRUE(store->CommitFiles({{"a.json.gz", FileEntry{5, 10, 2, 0, 0}}, {"b.json.gz", FileEntry{7, 20, 2, 0, 0}}},
                                 group)
                  .ok());
  EXPECT_EQ(Counter(*store, keys::RepoCounter(1, day, "PushEvent")), 2);
  const auto stats = store->Stats().value();
  EXPECT_EQ(stats.at("files"), 2);
  EXPECT_EQ(stats.at("events"), 2);
  EXPECT_EQ(stats.at("bytes"), 30);
  EXPECT_EQ(stats.at("compressed_bytes"), 12);
  EXPECT_EQ(stats.at("reports"), 2);
  auto got = store->GetIssue(1, 3);
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ(**got, expected);
  auto entry_b = store->FindFile("b.json.gz");
  ASSERT_TRUE(entry_b.ok() && entry_b->has_value());
  EXPECT_EQ((*entry_b)->size, 7u);
  EXPECT_EQ((*entry_b)->decoded_bytes, 20u);
  EXPECT_TRUE(store->CommitFiles({}, FileAggregate()).ok());
  EXPECT_EQ(store->Stats()->at("files"), 2);
}

// Commits mark the reports they touch stale only while a rollup exists: without one, the next
// refresh builds it from every report anyway.
TEST_F(StoreTest, CommitsMarkReportsStaleOnlyWhileARollupExists) {
  auto store = OpenWriter();
  ASSERT_NE(store, nullptr);
  auto stale_count = [&] {
    size_t n = 0;
    EXPECT_TRUE(store
                    ->ScanStaleIssues([&](int64_t, int64_t, const std::optional<IssueRecord>&, std::string_view) {
                      ++n;
                      return Status::Ok();
                    })
                    .ok());
    return n;
  };
  FileAggregate a;
  a.AddReport(MakeReport(10, 3, "2015-01-02T00:00:00Z", "Slow", "open"), {"r1"});
  ASSERT_TRUE(store->CommitFile("a", FileEntry{}, a).ok());
  EXPECT_EQ(stale_count(), 0u);
  Store::RollupUpdate update;
  update.version = "test-layout";
  ASSERT_TRUE(store->ApplyRollup(update).ok());
  FileAggregate b;
  b.AddReport(MakeReport(10, 3, "2015-01-03T00:00:00Z", "Slow fit", "closed"), {"r2"});
  b.AddReport(MakeReport(10, 4, "2015-01-03T00:00:00Z", "Other", "open"), {});
  ASSERT_TRUE(store->CommitFile("b", FileEntry{}, b).ok());
  EXPECT_EQ(stale_count(), 2u);
  ASSERT_TRUE(store->ClearRollup().ok());
  EXPECT_EQ(stale_count(), 0u);
}

// Ranges for a parallel pass: together they hold every report once, whatever the number asked.
TEST_F(StoreTest, SplitReportsCoversEveryReportOnce) {
  auto store = OpenWriter();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->SplitReports(3, false).size(), 1u);  // empty: one range
  FileAggregate a;
  const std::vector<int64_t> repos = {3, 5, 1000, 1001, 70000, 9000000000};
  for (const int64_t repo : repos) {
    for (int64_t number = 1; number <= 3; ++number) {
      a.AddReport(MakeReport(repo, number, "2015-01-02T00:00:00Z", "Slow", "open"), {});
    }
  }
  ASSERT_TRUE(store->CommitFile("a", FileEntry{}, a).ok());
  for (size_t parts = 1; parts <= 5; ++parts) {
    const auto ranges = store->SplitReports(parts, false);
    EXPECT_GE(ranges.size(), 1u);
    EXPECT_LE(ranges.size(), parts);
    std::vector<std::pair<int64_t, int64_t>> seen;
    for (const auto& range : ranges) {
      ASSERT_TRUE(store
                      ->ScanIssuesIn(range,
                                     [&](int64_t repo, int64_t number, const IssueRecord&) {
                                       seen.emplace_back(repo, number);
                                       return Status::Ok();
                                     })
                      .ok());
    }
    ASSERT_EQ(seen.size(), repos.size() * 3) << parts << " parts";
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end())) << parts << " parts";
    EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end()) << parts << " parts";
  }
  EXPECT_GT(store->SplitReports(2, false).size(), 1u);  // ids 3 to 9e9: two ranges
}

TEST_F(StoreTest, IssueRecordsMergeAcrossCommits) {
  auto store = OpenWriter();
  ASSERT_NE(store, nullptr);
  FileAggregate a;
  a.AddReport(MakeReport(10, 3, "2015-01-02T00:00:00Z", "Slow", "open"), {"r1"});
  FileAggregate b;
  b.AddReport(MakeReport(10, 3, "2015-01-03T00:00:00Z", "Slow fit", "closed"), {"r2"});
  b.AddReport(MakeReport(10, 4, "2015-01-03T00:00:00Z", "Other", "open"), {});
  IssueRecord expected = a.issues().at(IssueKey{10, 3});
  expected.Merge(b.issues().at(IssueKey{10, 3}));
  ASSERT_TRUE(store->CommitFile("b", FileEntry{}, b).ok());
  ASSERT_TRUE(store->CommitFile("a", FileEntry{}, a).ok());
  auto got = store->GetIssue(10, 3);
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_TRUE(got->has_value());
  EXPECT_EQ(**got, expected);
  EXPECT_EQ((*got)->title, "Slow fit");
  EXPECT_EQ((*got)->state, "closed");
  EXPECT_EQ((*got)->events, 2u);
  EXPECT_EQ((*got)->rules, (std::vector<std::string>{"r1", "r2"}));
  auto none = store->GetIssue(10, 99);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  std::vector<int64_t> numbers;
  ASSERT_TRUE(store
                  ->ScanIssues(10,
                               [&](int64_t repo, int64_t number, const IssueRecord&) {
                                 EXPECT_EQ(repo, 10);
                                 numbers.push_back(number);
                                 return Status::Ok();
                               })
                  .ok());
  EXPECT_EQ(numbers, (std::vector<int64_t>{3, 4}));
  int other_repo = 0;
  ASSERT_TRUE(store->ScanIssues(11, [&](int64_t, int64_t, const IssueRecord&) {
                     ++other_repo;
                     return Status::Ok();
                   }).ok());
  EXPECT_EQ(other_repo, 0);
  EXPECT_EQ(store->Stats()->at("reports"), 3);
}

TEST_F(StoreTest, LatestTextsMergeByEventTimeInAnyCommitOrder) {
  auto text = [](int64_t time, const char* title, const char* body, const char* comment) {
    LatestTextRecord r;
    r.time = time;
    r.snapshot.Add(Field::kTitle, title);
    r.snapshot.Add(Field::kBody, body);
    r.events[Field::kComment].emplace_back(time, comment);
    return r;
  };
  FileAggregate newer, older;
  newer.AddReport(MakeReport(10, 3, "2015-01-03T00:00:00Z", "Slow fit (edited)", "open"), {"r1"});
  newer.AddLatestText(10, 3, text(Time("2015-01-03T00:00:00Z"), "Slow fit (edited)", "edited", "second"));
  older.AddReport(MakeReport(10, 3, "2015-01-02T00:00:00Z", "Slow fit", "open"), {"r1"});
  older.AddLatestText(10, 3, text(Time("2015-01-02T00:00:00Z"), "Slow fit", "first", "first"));
  // The newer hour is committed first, then the older one in a group with another file.
  ASSERT_TRUE(CommitGroup(newer, {"2015-01-03-0.json.gz"}).ok());
  ASSERT_TRUE(CommitGroup(older, {"2015-01-02-0.json.gz", "2015-01-02-1.json.gz"}).ok());
  auto reader = Store::Open(path_, StoreMode::kRead);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  auto got = (*reader)->GetLatestText(10, 3);
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_TRUE(got->has_value());
  EXPECT_EQ((*got)->snapshot.First(Field::kTitle), "Slow fit (edited)");
  EXPECT_EQ((*got)->snapshot.First(Field::kBody), "edited");
  EXPECT_EQ((*got)->events[Field::kComment], (std::vector<std::pair<int64_t, std::string>>{{Time("2015-01-02T00:00:00Z"), "first"},
                                                                           {Time("2015-01-03T00:00:00Z"), "second"}}));
  auto none = (*reader)->GetLatestText(10, 4);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

TEST_F(StoreTest, SecondWriterIsRefusedWithLockMessage) {
  auto store = OpenWriter();
  ASSERT_NE(store, nullptr);
  auto second = Store::Open(path_, StoreMode::kReadWrite);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kAlreadyExists);
  EXPECT_NE(second.status().message().find("LOCK"), std::string::npos) << second.status().message();
}

TEST_F(StoreTest, ReaderSeesWhatTheWriterCommitted) {
  auto writer = OpenWriter();
  ASSERT_NE(writer, nullptr);
  FileAggregate agg;
  agg.CountEvent(MakeEvent("PushEvent", 1, "a/b", "2015-01-01T00:10:00Z"));
  agg.AddReport(MakeReport(1, 2, "2015-01-01T00:10:00Z", "t", "open"), {"x"});
  ASSERT_TRUE(writer->CommitFile("f1", FileEntry{1, 2, 3, 0, 5}, agg).ok());
  ASSERT_TRUE(writer->PutMeta("rules", "rule\tx\tperf\t1000000\n").ok());

  auto reader = Store::Open(path_, StoreMode::kRead);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  auto found = (*reader)->FindFile("f1");
  ASSERT_TRUE(found.ok());
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->events, 3u);
  auto issue = (*reader)->GetIssue(1, 2);
  ASSERT_TRUE(issue.ok());
  ASSERT_TRUE(issue->has_value());
  EXPECT_EQ((*issue)->rules, (std::vector<std::string>{"x"}));
  auto meta = (*reader)->GetMeta("rules");
  ASSERT_TRUE(meta.ok());
  ASSERT_TRUE(meta->has_value());
  EXPECT_EQ(**meta, "rule\tx\tperf\t1000000\n");
  EXPECT_EQ((*reader)->Stats()->at("events"), 1);
  EXPECT_EQ((*reader)->RepoName(1), "a/b");
  // The writer keeps working while a reader is open.
  ASSERT_TRUE(writer->CommitFile("f2", FileEntry{}, FileAggregate()).ok());
}

TEST_F(StoreTest, DataSurvivesReopen) {
  {
    auto store = OpenWriter();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->PutMeta("scope", "all").ok());
    ASSERT_TRUE(store->CommitFile("f", FileEntry{9, 9, 9, 9, 9}, FileAggregate()).ok());
  }
  auto store = OpenWriter();
  ASSERT_NE(store, nullptr);
  auto meta = store->GetMeta("scope");
  ASSERT_TRUE(meta.ok());
  ASSERT_TRUE(meta->has_value());
  EXPECT_EQ(**meta, "all");
  auto missing = store->GetMeta("nothing");
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());
  auto found = store->FindFile("f");
  ASSERT_TRUE(found.ok());
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->bad_lines, 9u);
}

TEST_F(StoreTest, RepoNamesAndRenames) {
  auto store = OpenWriter();
  ASSERT_NE(store, nullptr);
  FileAggregate later;
  later.CountEvent(MakeEvent("PushEvent", 42, "NewOwner/Renamed", "2016-01-01T00:00:00Z"));
  later.CountEvent(MakeEvent("PushEvent", 43, "someone/renamed", "2016-01-01T00:00:00Z"));
  FileAggregate earlier;
  earlier.CountEvent(MakeEvent("PushEvent", 42, "OldOwner/Project", "2015-01-01T00:00:00Z"));
  // Committed newest first: the latest name must still win.
  ASSERT_TRUE(store->CommitFile("later", FileEntry{}, later).ok());
  ASSERT_TRUE(store->CommitFile("earlier", FileEntry{}, earlier).ok());
  EXPECT_EQ(store->RepoName(42), "NewOwner/Renamed");
  EXPECT_EQ(store->RepoName(43), "someone/renamed");
  EXPECT_EQ(store->RepoName(44), "");
  EXPECT_EQ(store->RepoIdsByName("oldowner/project"), (std::vector<int64_t>{42}));
  EXPECT_EQ(store->RepoIdsByName("OLDOWNER/PROJECT"), (std::vector<int64_t>{42}));
  EXPECT_EQ(store->RepoIdsByName("newowner/renamed"), (std::vector<int64_t>{42}));
  EXPECT_EQ(store->RepoIdsByName("SomeOne/Renamed"), (std::vector<int64_t>{43}));
  // Whole names only: no prefix matches.
  EXPECT_TRUE(store->RepoIdsByName("oldowner/proj").empty());
  EXPECT_TRUE(store->RepoIdsByName("oldowner").empty());
  EXPECT_TRUE(store->RepoIdsByName("nobody/nothing").empty());
}

TEST_F(StoreTest, TwoRepositoriesThatHeldTheSameName) {
  auto store = OpenWriter();
  ASSERT_NE(store, nullptr);
  FileAggregate agg;
  agg.CountEvent(MakeEvent("PushEvent", 5, "x/name", "2015-01-01T00:00:00Z"));
  agg.CountEvent(MakeEvent("PushEvent", 6, "X/Name", "2016-01-01T00:00:00Z"));
  ASSERT_TRUE(store->CommitFile("f", FileEntry{}, agg).ok());
  EXPECT_EQ(store->RepoIdsByName("x/name"), (std::vector<int64_t>{5, 6}));
}

//! Table files of each family of the store at `path`, read with plain RocksDB.
std::map<std::string, size_t> TableFilesPerFamily(const std::string& path) {
  std::vector<std::string> names;
  EXPECT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &names).ok());
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& n : names) descriptors.emplace_back(n, rocksdb::ColumnFamilyOptions());
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  EXPECT_TRUE(rocksdb::DB::OpenForReadOnly(rocksdb::DBOptions(), path, descriptors, &handles, &raw).ok());
  std::map<std::string, size_t> out;
  if (raw == nullptr) return out;
  std::unique_ptr<rocksdb::DB> db(raw);
  for (size_t i = 0; i < handles.size(); ++i) {
    rocksdb::ColumnFamilyMetaData meta;
    db->GetColumnFamilyMetaData(handles[i], &meta);
    out[names[i]] = meta.file_count;
    EXPECT_TRUE(db->DestroyColumnFamilyHandle(handles[i]).ok());
  }
  return out;
}

// One commit's table file per hour, with keys the next hour's never overlap (the files family),
// would stay one file each for good; Finish folds them, and nothing is lost.
TEST_F(StoreTest, FinishFoldsAFamilyLeftInManySmallTableFiles) {
  constexpr int kHours = 70;
  {
    auto store = OpenWriter();
    ASSERT_NE(store, nullptr);
    store->set_table_file_min_bytes(0);
    for (int hour = 0; hour < kHours; ++hour) {
      FileAggregate agg;
      agg.CountEvent(MakeEvent("PushEvent", 1, "a/b", "2015-01-01T00:10:00Z"));
      const std::string name = "2015-01-" + std::to_string(10 + hour / 24) + "-" + std::to_string(hour % 24) + ".json.gz";
      ASSERT_TRUE(store->CommitFile(name, FileEntry{1, 2, 1, 0, 0}, agg).ok());
    }
  }
  EXPECT_EQ(TableFilesPerFamily(path_)["files"], static_cast<size_t>(kHours));
  {
    auto store = OpenWriter();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->Finish().ok());
  }
  EXPECT_EQ(TableFilesPerFamily(path_)["files"], 1u);
  auto reader = Store::Open(path_, StoreMode::kRead);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  size_t files = 0;
  ASSERT_TRUE((*reader)->ScanFiles([&](const std::string&, const FileEntry& e) { files += e.events == 1 && e.decoded_bytes == 2; }).ok());
  EXPECT_EQ(files, static_cast<size_t>(kHours));
}

// A store written before the latest_texts family existed: readers open it (with no kept texts),
// and the next writer adds the family.
TEST_F(StoreTest, StoreWithoutLatestTextsFamilyIsReadable) {
  {
    auto store = OpenWriter();
    ASSERT_NE(store, nullptr);
    FileAggregate agg;
    agg.CountEvent(MakeEvent("PushEvent", 1, "a/b", "2015-01-01T00:10:00Z"));
    agg.AddReport(MakeReport(1, 3, "2015-01-01T00:10:00Z", "Slow", "open"), {"r1"});
    ASSERT_TRUE(store->CommitFile("a.json.gz", FileEntry{5, 10, 2, 0, 0}, agg).ok());
    // In table files: the plain RocksDB below has no merge operators to replay the log with.
    ASSERT_TRUE(store->Finish().ok());
  }
  {
    std::vector<std::string> names;
    ASSERT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path_, &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
    for (const std::string& n : names) descriptors.emplace_back(n, rocksdb::ColumnFamilyOptions());
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::DBOptions(), path_, descriptors, &handles, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    const auto at = std::find(names.begin(), names.end(), "latest_texts");
    ASSERT_NE(at, names.end());
    ASSERT_TRUE(db->DropColumnFamily(handles[static_cast<size_t>(at - names.begin())]).ok());
    for (auto* h : handles) ASSERT_TRUE(db->DestroyColumnFamilyHandle(h).ok());
  }
  {
    auto reader = Store::Open(path_, StoreMode::kRead);
    ASSERT_TRUE(reader.ok()) << reader.status().message();
    auto text = (*reader)->GetLatestText(1, 3);
    ASSERT_TRUE(text.ok());
    EXPECT_FALSE(text->has_value());
    auto issue = (*reader)->GetIssue(1, 3);
    ASSERT_TRUE(issue.ok()) << issue.status().message();
    ASSERT_TRUE(issue->has_value());
    EXPECT_EQ((*issue)->title, "Slow");
  }
  auto writer = OpenWriter();  // creates the missing family
  ASSERT_NE(writer, nullptr);
  auto text = writer->GetLatestText(1, 3);
  ASSERT_TRUE(text.ok());
  EXPECT_FALSE(text->has_value());
}

}  // namespace
}  // namespace ghsift
