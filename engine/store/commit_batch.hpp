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
#include <string_view>
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

  void Put(size_t family, std::string_view key, std::string_view value) { Add(family, Op::kPut, key, value); }
  //! Merge operands of one key must be combined before they are added: a table file holds a key once.
  void Merge(size_t family, std::string_view key, std::string_view value) { Add(family, Op::kMerge, key, value); }
  void Delete(size_t family, std::string_view key) { Add(family, Op::kDelete, key, {}); }

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
  //! An entry's key and value sit back to back in its family's `bytes`: one growing buffer per
  //! family instead of two strings per key (a commit of real hours holds 100,000 keys; on a
  //! virtual machine every newly touched page is costly, and sorting moves 16-byte entries).
  struct Entry {
    uint64_t offset;
    uint32_t key_size;
    uint32_t value_size;
    Op op;
  };
  struct Family {
    std::string bytes;
    std::vector<Entry> entries;
    std::vector<uint32_t> order;  //!< after SortAndDeduplicate: the entries kept, in key order
    std::string_view Key(const Entry& e) const { return {bytes.data() + e.offset, e.key_size}; }
    std::string_view Value(const Entry& e) const { return {bytes.data() + e.offset + e.key_size, e.value_size}; }
  };
  void Add(size_t family, Op op, std::string_view key, std::string_view value) {
    Family& f = families_[family];
    data_size_ += key.size() + value.size();
    f.entries.push_back(Entry{f.bytes.size(), static_cast<uint32_t>(key.size()), static_cast<uint32_t>(value.size()), op});
    f.bytes.append(key);
    f.bytes.append(value);
  }
  //! Puts a family's entries in key order in `order`, without those a later Put or Delete of the
  //! same key replaces (of one key, the entry added last is kept).
  Status SortAndDeduplicate(size_t family, const std::vector<rocksdb::ColumnFamilyHandle*>& handles);
  Status WriteBatch(rocksdb::DB& db, const std::vector<rocksdb::ColumnFamilyHandle*>& handles);
  Status WriteTableFile(size_t family, rocksdb::DB& db, rocksdb::ColumnFamilyHandle* handle, const std::string& path);
  Status IngestTableFiles(rocksdb::DB& db, const std::vector<rocksdb::ColumnFamilyHandle*>& handles,
                          const std::string& staging, size_t threads);

  std::vector<Family> families_;
  uint64_t data_size_ = 0;
};

}  // namespace ghsift
