#include "store/commit_batch.hpp"

#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "store/key_codec.hpp"
#include "store/merge_operators.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kAlwaysTableFiles = 0;
constexpr uint64_t kAlwaysLog = std::numeric_limits<uint64_t>::max();

// A RocksDB with two families: "counters" (adding merge operator) and "names" (plain puts).
class TwoFamilyDb {
 public:
  explicit TwoFamilyDb(const std::string& path) : path_(path) {
    rocksdb::DBOptions options;
    options.create_if_missing = true;
    options.create_missing_column_families = true;
    rocksdb::ColumnFamilyOptions counters;
    counters.merge_operator = MakeCounterMergeOperator();
    std::vector<rocksdb::ColumnFamilyDescriptor> families = {{"default", rocksdb::ColumnFamilyOptions()},
                                                             {"counters", counters},
                                                             {"names", rocksdb::ColumnFamilyOptions()}};
    rocksdb::DB* raw = nullptr;
    const rocksdb::Status s = rocksdb::DB::Open(options, path, families, &handles_, &raw);
    EXPECT_TRUE(s.ok()) << s.ToString();
    db_.reset(raw);
  }
  ~TwoFamilyDb() {
    for (auto* h : handles_) db_->DestroyColumnFamilyHandle(h);
  }
  rocksdb::DB& db() { return *db_; }
  const std::vector<rocksdb::ColumnFamilyHandle*>& handles() const { return handles_; }
  std::string staging() const { return path_ + "/staging"; }
  //! Every key and value of family `i`, as readers see them.
  std::map<std::string, std::string> Contents(size_t i) {
    std::map<std::string, std::string> out;
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), handles_[i]));
    for (it->SeekToFirst(); it->Valid(); it->Next()) out[it->key().ToString()] = it->value().ToString();
    EXPECT_TRUE(it->status().ok());
    return out;
  }
  size_t TableFiles() {
    size_t n = 0;
    for (const auto& entry : fs::directory_iterator(path_)) n += entry.path().extension() == ".sst";
    return n;
  }

 private:
  std::string path_;
  std::unique_ptr<rocksdb::DB> db_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
};

class CommitBatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::path(::testing::TempDir()) / "ghsift-commit-batch-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // What was in the store before the commit: counters the commit adds to, a name it replaces,
  // a name it deletes.
  static void Prefill(TwoFamilyDb& db) {
    CommitBatch before(3);
    before.Merge(1, "a", keys::EncodeInt64(5));
    before.Merge(1, "m", keys::EncodeInt64(7));
    before.Put(2, "kept", "old");
    before.Put(2, "replaced", "old");
    before.Put(2, "deleted", "old");
    ASSERT_TRUE(before.Write(db.db(), db.handles(), db.staging(), kAlwaysLog).ok());
    // In table files, so that the commit's own files can be counted (a commit whose keys overlap
    // a memtable makes RocksDB flush that memtable first).
    ASSERT_TRUE(db.db().Flush(rocksdb::FlushOptions(), db.handles()).ok());
  }
  // Keys added out of order, one key twice (the later Put wins), a delete.
  static CommitBatch Commit() {
    CommitBatch batch(3);
    batch.Merge(1, "z", keys::EncodeInt64(1));
    batch.Merge(1, "a", keys::EncodeInt64(2));
    batch.Merge(1, "m", keys::EncodeInt64(-3));
    batch.Put(2, "replaced", "first");
    batch.Put(2, "new", "v");
    batch.Put(2, "replaced", "second");
    batch.Delete(2, "deleted");
    return batch;
  }
  std::string dir_;
};

TEST_F(CommitBatchTest, TableFilesAndLogGiveTheSameStore) {
  TwoFamilyDb by_files(dir_ + "/files");
  TwoFamilyDb by_log(dir_ + "/log");
  Prefill(by_files);
  Prefill(by_log);
  const size_t files_before = by_files.TableFiles();
  ASSERT_EQ(by_log.TableFiles(), files_before);
  ASSERT_TRUE(Commit().Write(by_files.db(), by_files.handles(), by_files.staging(), kAlwaysTableFiles).ok());
  ASSERT_TRUE(Commit().Write(by_log.db(), by_log.handles(), by_log.staging(), kAlwaysLog).ok());
  // One table file per written family entered the store, none is left in the staging directory.
  EXPECT_EQ(by_files.TableFiles(), files_before + 2);
  EXPECT_TRUE(fs::is_empty(by_files.staging()));
  EXPECT_EQ(by_log.TableFiles(), files_before);

  const std::map<std::string, std::string> counters = {
      {"a", keys::EncodeInt64(7)}, {"m", keys::EncodeInt64(4)}, {"z", keys::EncodeInt64(1)}};
  const std::map<std::string, std::string> names = {{"kept", "old"}, {"new", "v"}, {"replaced", "second"}};
  EXPECT_EQ(by_files.Contents(1), counters);
  EXPECT_EQ(by_files.Contents(2), names);
  EXPECT_EQ(by_log.Contents(1), counters);
  EXPECT_EQ(by_log.Contents(2), names);
}

TEST_F(CommitBatchTest, SmallCommitsGoThroughTheLogLargeOnesAsTableFiles) {
  TwoFamilyDb db(dir_ + "/db");
  CommitBatch small(3);
  small.Put(2, "k", std::string(100, 'x'));
  ASSERT_EQ(small.DataSize(), 101u);
  ASSERT_TRUE(small.Write(db.db(), db.handles(), db.staging(), 102).ok());
  EXPECT_EQ(db.TableFiles(), 0u);
  CommitBatch large(3);
  large.Put(2, "k2", std::string(100, 'y'));
  ASSERT_TRUE(large.Write(db.db(), db.handles(), db.staging(), 102).ok());
  EXPECT_EQ(db.TableFiles(), 1u);
  EXPECT_EQ(db.Contents(2).size(), 2u);
}

TEST_F(CommitBatchTest, TwoMergeOperandsOfOneKeyAreRefusedAndNothingIsWritten) {
  for (uint64_t path : {kAlwaysTableFiles, kAlwaysLog}) {
    TwoFamilyDb db(dir_ + "/db" + std::to_string(path == kAlwaysLog));
    CommitBatch batch(3);
    batch.Put(2, "name", "v");
    batch.Merge(1, "a", keys::EncodeInt64(1));
    batch.Merge(1, "a", keys::EncodeInt64(2));
    const Status s = batch.Write(db.db(), db.handles(), db.staging(), path);
    EXPECT_EQ(s.code(), StatusCode::kStoreError);
    EXPECT_EQ(s.message(), "two merge operands of one key in a commit (family counters)");
    EXPECT_TRUE(db.Contents(1).empty());
    EXPECT_TRUE(db.Contents(2).empty());
  }
}

}  // namespace
}  // namespace ghsift
