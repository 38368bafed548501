#pragma once
// A partial store streamed into a store (Store::MergeFrom). Each column family of the partial is
// read in key order by an iterator and written as it is read to table files of bounded size
// (SstFileWriter); the files of every family then enter the store in one IngestExternalFiles
// call, which RocksDB records atomically in its MANIFEST: after a failure or a crash the store
// holds the whole partial or none of it. Memory is that of the few table files being built,
// whatever the partial's size (one WriteBatch of the whole partial held it all: 1.75 GB of peak
// RSS for 17 generated hours of 500,000 reports).
//
// The files enter above everything the store holds (a newer sequence number), so a merge operand
// applies on top of the store's value of its key and a Put replaces it, as the same operations
// in a WriteBatch would.
#include <rocksdb/db.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"

namespace ghsift {

//! How one key of a partial's family enters the store.
enum class MergeOp : uint8_t {
  kSkip,   //!< not copied
  kPut,    //!< replaces the store's value of the key
  kMerge,  //!< a merge operand applied on top of the store's value
};

//! One family of the partial copied into one family of the store.
struct FamilyCopy {
  rocksdb::ColumnFamilyHandle* from = nullptr;  //!< the partial's family
  rocksdb::ColumnFamilyHandle* to = nullptr;    //!< the store's
  std::string name;                             //!< for messages ("issues")
  //! Called for each key in order, from one thread at a time per family.
  std::function<MergeOp(std::string_view key)> op;
  //! When set, each key copied is also Put with an empty value into this family of the store
  //! (the stale set: what the partial adds to a report changes the cells it counts under).
  rocksdb::ColumnFamilyHandle* mark = nullptr;
};

struct PartialMergeOptions {
  //! Bytes of keys and values after which a table file is closed and the next one begun: a
  //! table file's index grows with it until it is finished (about 1% of its data).
  uint64_t table_file_max_bytes = 256ull << 20;
  //! Families copied at once (0: the cores, at most 4); each holds one table file open.
  size_t threads = 0;
};

//! Streams `copies` from `partial` into `store` through table files written in `staging` (a
//! directory on the store's file system that the store empties when it opens, for what a crash
//! left), then ingests them all at once. On any failure every table file written is removed and
//! the store is unchanged. `what` names the partial in messages.
Status StreamPartial(rocksdb::DB& partial, rocksdb::DB& store, const std::vector<FamilyCopy>& copies,
                     const std::string& staging, const std::string& what, const PartialMergeOptions& options);

}  // namespace ghsift
