// Store::MergeFrom streams a partial store through table files that enter the store in one
// ingestion: what the partial holds lands on top of what the store holds (merge operands
// combined with the store's values, Puts replacing them) exactly as if its files had been
// ingested there, through one table file or hundreds; a merge that fails leaves the store as it
// was and no table file behind.
#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <filesystem>
#include <fstream>

#include "common/time_util.hpp"
#include "pipelines/input_files.hpp"
#include "rollup/rollup.hpp"
#include "store/key_codec.hpp"
#include "store/store.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;
using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;

int64_t Time(const char* iso) { return *ParseIsoTime(iso); }

Event MakeEvent(std::string_view type, int64_t repo_id, std::string_view repo_name, const char* time) {
  Event e;
  e.type = type;
  e.repo_id = repo_id;
  e.repo_name = repo_name;
  e.created_at = Time(time);
  return e;
}

Event MakeReport(int64_t repo_id, std::string_view repo_name, int64_t number, const char* time, std::string_view title,
                 std::string_view state) {
  Event e = MakeEvent("IssuesEvent", repo_id, repo_name, time);
  e.kind = EventKind::kIssues;
  e.has_report = true;
  e.report.number = number;
  e.report.text[Field::kTitle] = title;
  e.report.state = state;
  e.report.created_at = Time("2015-01-01T00:00:00Z");
  return e;
}

//! Hour "a": repository 42 under its old name, report 42#3 opened.
FileAggregate HourA() {
  FileAggregate a;
  a.CountEvent(MakeEvent("PushEvent", 42, "OldOwner/Project", "2015-01-02T00:10:00Z"));
  a.CountEvent(MakeEvent("PushEvent", 7, "x/y", "2015-01-02T00:20:00Z"));
  a.AddReport(MakeReport(42, "OldOwner/Project", 3, "2015-01-02T00:30:00Z", "Slow", "open"), {"r1"});
  a.AddBytes(10);
  return a;
}

//! Hour "b", a day later: repository 42 renamed, report 42#3 closed, 42#4 opened.
FileAggregate HourB() {
  FileAggregate b;
  b.CountEvent(MakeEvent("PushEvent", 42, "NewOwner/Renamed", "2015-01-03T00:10:00Z"));
  b.AddReport(MakeReport(42, "NewOwner/Renamed", 3, "2015-01-03T00:30:00Z", "Slow fit", "closed"), {"r2"});
  b.AddReport(MakeReport(42, "NewOwner/Renamed", 4, "2015-01-03T00:40:00Z", "Other", "open"), {});
  b.AddBytes(20);
  return b;
}

std::unique_ptr<Store> Open(const std::string& path, StoreMode mode) {
  auto store = Store::Open(path, mode);
  EXPECT_TRUE(store.ok()) << store.status().message();
  return store.ok() ? std::move(store).value() : nullptr;
}

//! Regular files left in the store's directory for table files being written.
size_t StagedFiles(const std::string& store) {
  size_t n = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(fs::path(store) / "table-files", ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->is_regular_file()) ++n;
  }
  return n;
}

//! Everything the store API answers about the two hours' data.
std::string Answers(const Store& store) {
  std::string out;
  const std::map<std::string, int64_t> stats = store.Stats().value();
  for (const auto& [name, value] : stats) out += name + "=" + std::to_string(value) + "\n";
  EXPECT_TRUE(store
                  .ScanCounters("",
                                [&](std::string_view key, int64_t value) {
                                  for (const unsigned char c : key) out += "0123456789abcdef"[c >> 4], out += "0123456789abcdef"[c & 15];
                                  out += " = " + std::to_string(value) + "\n";
                                })
                  .ok());
  EXPECT_TRUE(store
                  .ScanIssues(std::nullopt,
                              [&](int64_t repo, int64_t number, const IssueRecord& record) {
                                out += std::to_string(repo) + "#" + std::to_string(number) + " " + record.title + " " +
                                       record.state + " events=" + std::to_string(record.events) + "\n";
                                return Status::Ok();
                              })
                  .ok());
  out += "name 42: " + store.RepoName(42) + ", name 7: " + store.RepoName(7) + "\n";
  for (const char* name : {"oldowner/project", "newowner/renamed", "x/y"}) {
    out += std::string(name) + " -> " + std::to_string(store.RepoIdsByName(name).size()) + "\n";
  }
  EXPECT_TRUE(store.ScanFiles([&](const std::string& name, const FileEntry&) { out += "file " + name + "\n"; }).ok());
  return out;
}

size_t StaleReports(const Store& store) {
  size_t n = 0;
  EXPECT_TRUE(store
                  .ScanStaleIssues([&](int64_t, int64_t, const std::optional<IssueRecord>&, std::string_view) {
                    ++n;
                    return Status::Ok();
                  })
                  .ok());
  return n;
}

// Either hour in the store and the other in the partial, through table files of a few keys
// each: the same store as both hours committed in one, the latest name winning by event time
// whichever side holds it; the partial's reports are marked stale, the store has a rollup.
TEST(StoreMergeTest, ThePartialLandsOnTopOfWhatTheStoreHolds) {
  TempDir dir;
  {
    auto reference = Open(dir / "reference", StoreMode::kReadWrite);
    ASSERT_NE(reference, nullptr);
    ASSERT_TRUE(reference->CommitFile("a", FileEntry{5, 10, 3, 0, 0}, HourA()).ok());
    ASSERT_TRUE(reference->CommitFile("b", FileEntry{7, 20, 3, 0, 0}, HourB()).ok());
  }
  const std::string expected = Answers(*Open(dir / "reference", StoreMode::kRead));
  EXPECT_NE(expected.find("42#3 Slow fit closed events=2"), std::string::npos) << expected;
  EXPECT_NE(expected.find("name 42: NewOwner/Renamed"), std::string::npos) << expected;

  for (const bool store_holds_a : {true, false}) {
    SCOPED_TRACE(store_holds_a ? "the store holds a" : "the store holds b");
    const std::string store_path = dir / (store_holds_a ? "store-a" : "store-b");
    const std::string partial_path = dir / (store_holds_a ? "partial-b" : "partial-a");
    {
      auto partial = Open(partial_path, StoreMode::kReadWrite);
      ASSERT_NE(partial, nullptr);
      ASSERT_TRUE(store_holds_a ? partial->CommitFile("b", FileEntry{7, 20, 3, 0, 0}, HourB()).ok()
                                : partial->CommitFile("a", FileEntry{5, 10, 3, 0, 0}, HourA()).ok());
    }
    auto store = Open(store_path, StoreMode::kReadWrite);
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store_holds_a ? store->CommitFile("a", FileEntry{5, 10, 3, 0, 0}, HourA()).ok()
                              : store->CommitFile("b", FileEntry{7, 20, 3, 0, 0}, HourB()).ok());
    Store::RollupUpdate rollup;
    rollup.version = "test-layout";
    ASSERT_TRUE(store->ApplyRollup(rollup).ok());
    // A key or two per table file: every family of the partial spread over several files.
    store->set_merge_options(PartialMergeOptions{.table_file_max_bytes = 40, .threads = 2});
    auto partial = Open(partial_path, StoreMode::kRead);
    ASSERT_NE(partial, nullptr);
    const Status merged = store->MergeFrom(*partial);
    ASSERT_TRUE(merged.ok()) << merged.message();
    EXPECT_EQ(Answers(*store), expected);
    EXPECT_EQ(StaleReports(*store), store_holds_a ? 2u : 1u);  // the partial's reports
    EXPECT_EQ(StagedFiles(store_path), 0u);

    // Merged again: skipped, nothing added twice.
    const Status again = store->MergeFrom(*partial);
    EXPECT_EQ(again.code(), StatusCode::kAlreadyExists) << again.message();
    EXPECT_EQ(Answers(*store), expected);
  }
}

// A generated corpus: half of its hours ingested into the store (which then has a rollup), the
// other half merged from a partial through hundreds of small table files, answers every query
// as one ingest of all hours. Reports run across hours, so the two halves share many of them.
TEST(StoreMergeTest, MergeIntoAnIngestedStoreEqualsOneIngest) {
  TempDir dir;
  testing::Generate(dir / "corpus", 6, 1500, 33, "gz", 1);
  const auto files = ResolveInputs({dir / "corpus"}).value();
  auto ingest = [&](const std::string& flag, const std::string& where, size_t from, size_t to) {
    std::string cmd = Ghsift() + " ingest -q --all-repos --keep-text " + flag + " " + where;
    for (size_t i = from; i < to; ++i) cmd += " " + files[i];
    const auto r = RunCommand(cmd);
    ASSERT_EQ(r.exit_code, 0) << r.output;
  };
  ingest("--store", dir / "single", 0, files.size());
  ingest("--store", dir / "store", 0, 3);
  ingest("--partial", dir / "partial", 3, files.size());
  {
    auto store = Open(dir / "store", StoreMode::kReadWrite);
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->MarksStale().value());
    store->set_merge_options(PartialMergeOptions{.table_file_max_bytes = 16 << 10, .threads = 2});
    auto partial = Open(dir / "partial", StoreMode::kRead);
    ASSERT_NE(partial, nullptr);
    const Status merged = store->MergeFrom(*partial);
    ASSERT_TRUE(merged.ok()) << merged.message();
    EXPECT_EQ(StagedFiles(dir / "store"), 0u);
    ASSERT_TRUE(SettleStore(*store, true).ok());
  }
  EXPECT_EQ(testing::StoreAnswers(dir / "store"), testing::StoreAnswers(dir / "single"));
}

// Two partials given the same hour under two names (a copy): ingest refuses a copy by content,
// and so does merge, before writing anything; the store answers as before.
TEST(StoreMergeTest, APartialHoldingACopyOfAStoredFileIsRefused) {
  TempDir dir;
  testing::Generate(dir / "corpus", 2, 500, 34, "gz", 1);
  const auto files = ResolveInputs({dir / "corpus"}).value();
  fs::create_directories(dir / "copy");
  const std::string copy = dir / "copy/2015-06-01-0.json.gz";
  fs::copy_file(files[0], copy);
  auto r = RunCommand(Ghsift() + " ingest -q --all-repos --store " + (dir / "store") + " " + files[0]);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = RunCommand(Ghsift() + " ingest -q --all-repos --partial " + (dir / "partial") + " " + copy + " " + files[1]);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string before = testing::StoreAnswers(dir / "store");
  {
    auto store = Open(dir / "store", StoreMode::kReadWrite);
    ASSERT_NE(store, nullptr);
    auto partial = Open(dir / "partial", StoreMode::kRead);
    ASSERT_NE(partial, nullptr);
    const Status merged = store->MergeFrom(*partial);
    EXPECT_EQ(merged.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(merged.message().find("has the same content as " + fs::path(files[0]).filename().string()),
              std::string::npos)
        << merged.message();
  }
  EXPECT_EQ(testing::StoreAnswers(dir / "store"), before);
}

//! The table files of one column family of a store (closed), by RocksDB's own account.
std::vector<std::string> FamilyTableFiles(const std::string& path, const std::string& family) {
  std::vector<std::string> names;
  EXPECT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &names).ok());
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& name : names) descriptors.emplace_back(name, rocksdb::ColumnFamilyOptions());
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  EXPECT_TRUE(rocksdb::DB::OpenForReadOnly(rocksdb::DBOptions(), path, descriptors, &handles, &db).ok());
  std::vector<std::string> out;
  if (db == nullptr) return out;
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  for (const auto& file : files) {
    if (file.column_family_name == family) out.push_back(file.db_path + "/" + file.name);
  }
  for (auto* handle : handles) db->DestroyColumnFamilyHandle(handle);
  delete db;
  return out;
}

// A partial whose repository names are damaged on disk (a bad copy from a worker): the merge
// fails while reading them, after other families' table files were written, and the store
// answers as before, with no table file left behind.
TEST(StoreMergeTest, AFailedMergeLeavesTheStoreUnchanged) {
  TempDir dir;
  testing::Generate(dir / "corpus", 4, 1500, 34, "gz", 0);
  const auto files = ResolveInputs({dir / "corpus"}).value();
  auto run = [&](const std::string& args) { return RunCommand(Ghsift() + " " + args); };
  ASSERT_EQ(run("ingest -q --all-repos --store " + (dir / "store") + " " + files[0] + " " + files[1]).exit_code, 0);
  ASSERT_EQ(run("ingest -q --all-repos --partial " + (dir / "partial") + " " + files[2] + " " + files[3]).exit_code, 0);
  const std::string before = testing::StoreAnswers(dir / "store");

  const std::vector<std::string> repos = FamilyTableFiles(dir / "partial", "repos");
  ASSERT_FALSE(repos.empty());
  {
    // Bytes inside the first data block: its checksum no longer matches.
    std::fstream file(repos.front(), std::ios::in | std::ios::out | std::ios::binary);
    ASSERT_TRUE(file.good());
    file.seekp(16);
    const std::string garbage(32, '\x5a');
    file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  const auto r = run("merge --store " + (dir / "store") + " " + (dir / "partial"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("ghsift: merging " + (dir / "partial") + ": reading the repos of the partial: "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("(0 skipped, 1 failed)"), std::string::npos) << r.output;
  EXPECT_EQ(StagedFiles(dir / "store"), 0u);
  EXPECT_EQ(testing::StoreAnswers(dir / "store"), before);
}

// A partial's failed and missing-at-source hours travel with it for files the store does not
// hold, so `stats` and `--coverage` say why an hour is missing; a partial that brings a file
// ends the store's failure record of it, whichever partial is merged first.
TEST(StoreMergeTest, FailuresTravelWithThePartialUntilAnotherBringsTheFile) {
  TempDir dir;
  const std::string missing_reason = std::string(kMissingAtSource) + ": http://mirror/2015-01-03-4.json.gz";
  {
    auto failed = Open(dir / "failed", StoreMode::kReadWrite);
    ASSERT_NE(failed, nullptr);
    ASSERT_TRUE(failed->CommitFile("2015-01-02-0.json.gz", FileEntry{}, HourA()).ok());
    ASSERT_TRUE(failed->RecordFailure("2015-01-03-0.json.gz", "truncated gzip stream").ok());
    ASSERT_TRUE(failed->RecordFailure("2015-01-03-4.json.gz", missing_reason).ok());
    auto read = Open(dir / "read", StoreMode::kReadWrite);
    ASSERT_NE(read, nullptr);
    ASSERT_TRUE(read->CommitFile("2015-01-03-0.json.gz", FileEntry{}, HourB()).ok());
  }
  using Failures = std::vector<std::pair<std::string, std::string>>;
  const Failures both = {{"2015-01-03-0.json.gz", "truncated gzip stream"}, {"2015-01-03-4.json.gz", missing_reason}};
  const Failures gap = {{"2015-01-03-4.json.gz", missing_reason}};
  auto failed = Open(dir / "failed", StoreMode::kRead);
  auto read = Open(dir / "read", StoreMode::kRead);
  ASSERT_NE(failed, nullptr);
  ASSERT_NE(read, nullptr);
  auto store = Open(dir / "store", StoreMode::kReadWrite);
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->MergeFrom(*failed).ok());
  EXPECT_EQ(store->Failures(), both);
  ASSERT_TRUE(store->MergeFrom(*read).ok());
  EXPECT_EQ(store->Failures(), gap);
  auto other = Open(dir / "other", StoreMode::kReadWrite);
  ASSERT_NE(other, nullptr);
  ASSERT_TRUE(other->MergeFrom(*read).ok());
  ASSERT_TRUE(other->MergeFrom(*failed).ok());
  EXPECT_EQ(other->Failures(), gap);
}

}  // namespace
}  // namespace ghsift
