#pragma once
// One commit's writes, gathered per column family and written in key order.
//
// A commit group of real hours holds hundreds of thousands of keys (a counter per repository,
// day and event type, a name per repository, a record per report). Through a WriteBatch each
// goes to the log, is inserted into a memtable (a skip list search per key) and is sorted and
// written once more at the flush. A large commit is therefore written as table files instead:
// the keys of each family sorted once in memory, one table file per family (SstFileWriter), and
// the files of every family added in one IngestExternalFiles call, which RocksDB records
// atomically in its MANIFEST (after a crash, every file of the commit is in the store or none is).
// A small commit (one small hour) goes through a WriteBatch: table files have a fixed cost each
// (files, syncs, a MANIFEST entry, later compactions) that a few thousand keys do not repay.
#include <rocksdb/db.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.hpp"

namespace ghsift {

class CommitBatch {
 public:
  //! Commits of at least this many bytes of keys and values are written as table files. Measured
  //! on 300 generated hours of 300 events committed one by one (a few KiB each): as table files
  //! 2.5x the CPU of WriteBatches (every commit adds files that compactions then merge); on four
  //! real 2016 hours committed one by one (1-4 MiB each) and together, table files from 1 MiB
  //! were as cheap or cheaper; at 4 MiB the single hours went through the log and cost 20% more.
  static constexpr uint64_t kTableFileMinBytes = 1ull << 20;

  explicit CommitBatch(size_t families) : families_(families) {}

  void Put(size_t family, std::string key, std::string value) { Add(family, Op::kPut, std::move(key), std::move(value)); }
  //! Merge operands of one key must be combined before they are added: a table file holds a key once.
  void Merge(size_t family, std::string key, std::string value) {
    Add(family, Op::kMerge, std::move(key), std::move(value));
  }
  void Delete(size_t family, std::string key) { Add(family, Op::kDelete, std::move(key), {}); }

  //! Bytes of keys and values added so far.
  uint64_t DataSize() const { return data_size_; }

  //! Writes everything atomically: as table files in `staging` (a directory on the store's file
  //! system that the store empties when it opens, for files a crash left) when the commit holds
  //! at least `table_file_min_bytes`, else as one WriteBatch. A key added twice to a family keeps
  //! its last Put or Delete; two Merges of one key are refused (a bug in the caller). Table files
  //! of different families are sorted and written by up to `threads` threads (0: the cores, at
  //! most 4).
  Status Write(rocksdb::DB& db, const std::vector<rocksdb::ColumnFamilyHandle*>& handles, const std::string& staging,
               uint64_t table_file_min_bytes = kTableFileMinBytes, size_t threads = 0);

 private:
  enum class Op : uint8_t { kPut, kMerge, kDelete };
  struct Entry {
    std::string key;
    std::string value;
    Op op;
  };
  void Add(size_t family, Op op, std::string key, std::string value) {
    data_size_ += key.size() + value.size();
    families_[family].push_back(Entry{std::move(key), std::move(value), op});
  }
  //! Sorts a family's entries and drops those a later Put or Delete of the same key replaces.
  Status SortAndDeduplicate(size_t family, const std::vector<rocksdb::ColumnFamilyHandle*>& handles);
  Status WriteBatch(rocksdb::DB& db, const std::vector<rocksdb::ColumnFamilyHandle*>& handles);
  Status WriteTableFile(size_t family, rocksdb::DB& db, rocksdb::ColumnFamilyHandle* handle, const std::string& path);
  Status IngestTableFiles(rocksdb::DB& db, const std::vector<rocksdb::ColumnFamilyHandle*>& handles,
                          const std::string& staging, size_t threads);

  std::vector<std::vector<Entry>> families_;
  uint64_t data_size_ = 0;
};

}  // namespace ghsift
