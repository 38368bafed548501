#include "store/commit_batch.hpp"

#include <rocksdb/sst_file_writer.h>
#include <rocksdb/write_batch.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>

namespace ghsift {
namespace {

Status FromRocks(const rocksdb::Status& s, const std::string& what) {
  if (s.ok()) return Status::Ok();
  return Status::StoreError(what + ": " + s.ToString());
}

}  // namespace

Status CommitBatch::SortAndDeduplicate(const std::vector<rocksdb::ColumnFamilyHandle*>& handles) {
  for (size_t family = 0; family < families_.size(); ++family) {
    std::vector<Entry>& entries = families_[family];
    // Stable: of a key added twice, the later entry comes last and is the one kept.
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
    size_t kept = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
      if (i + 1 < entries.size() && entries[i + 1].key == entries[i].key) {
        if (entries[i].op == Op::kMerge && entries[i + 1].op == Op::kMerge) {
          return Status::StoreError("two merge operands of one key in a commit (family " + handles[family]->GetName() +
                                    ")");
        }
        continue;
      }
      if (kept != i) entries[kept] = std::move(entries[i]);
      ++kept;
    }
    entries.resize(kept);
  }
  return Status::Ok();
}

Status CommitBatch::WriteBatch(rocksdb::DB& db, const std::vector<rocksdb::ColumnFamilyHandle*>& handles) {
  rocksdb::WriteBatch batch;
  for (size_t family = 0; family < families_.size(); ++family) {
    for (const Entry& e : families_[family]) {
      rocksdb::Status s;
      switch (e.op) {
        case Op::kPut: s = batch.Put(handles[family], e.key, e.value); break;
        case Op::kMerge: s = batch.Merge(handles[family], e.key, e.value); break;
        case Op::kDelete: s = batch.Delete(handles[family], e.key); break;
      }
      GHSIFT_TRY(FromRocks(s, "preparing the commit"));
    }
  }
  return FromRocks(db.Write(rocksdb::WriteOptions(), &batch), "writing the commit");
}

Status CommitBatch::IngestTableFiles(rocksdb::DB& db, const std::vector<rocksdb::ColumnFamilyHandle*>& handles,
                                     const std::string& staging) {
  std::error_code ec;
  std::filesystem::create_directories(staging, ec);
  if (ec) return Status::IoError(staging + ": cannot create the directory for table files: " + ec.message());
  static std::atomic<uint64_t> sequence{0};
  std::vector<rocksdb::IngestExternalFileArg> args;
  std::vector<std::string> written;
  auto remove_written = [&] {
    for (const std::string& path : written) std::filesystem::remove(path, ec);
  };
  for (size_t family = 0; family < families_.size(); ++family) {
    const std::vector<Entry>& entries = families_[family];
    if (entries.empty()) continue;
    const std::string path = staging + "/" + std::to_string(::getpid()) + "-" + std::to_string(sequence++) + "-" +
                             std::to_string(family) + ".sst";
    written.push_back(path);
    // The page cache keeps the file: RocksDB reads it back soon (readers, compactions).
    rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), db.GetOptions(handles[family]), handles[family],
                                  /*invalidate_page_cache=*/false);
    rocksdb::Status s = writer.Open(path);
    for (size_t i = 0; s.ok() && i < entries.size(); ++i) {
      const Entry& e = entries[i];
      switch (e.op) {
        case Op::kPut: s = writer.Put(e.key, e.value); break;
        case Op::kMerge: s = writer.Merge(e.key, e.value); break;
        case Op::kDelete: s = writer.Delete(e.key); break;
      }
    }
    if (s.ok()) s = writer.Finish();
    if (!s.ok()) {
      remove_written();
      return FromRocks(s, "writing table file " + path);
    }
    rocksdb::IngestExternalFileArg arg;
    arg.column_family = handles[family];
    arg.external_files = {path};
    // Hard-linked into the store, not copied; the sequence number the commit gets is kept in the
    // MANIFEST instead of being written back into each file (which RocksDB 5.16 on can read).
    arg.options.move_files = true;
    arg.options.write_global_seqno = false;
    args.push_back(std::move(arg));
  }
  if (args.empty()) return Status::Ok();
  Status status = FromRocks(db.IngestExternalFiles(args), "adding the commit's table files to the store");
  remove_written();  // moved files are gone already; what is left failed to enter
  return status;
}

Status CommitBatch::Write(rocksdb::DB& db, const std::vector<rocksdb::ColumnFamilyHandle*>& handles,
                          const std::string& staging, uint64_t table_file_min_bytes) {
  GHSIFT_TRY(SortAndDeduplicate(handles));
  if (data_size_ < table_file_min_bytes) return WriteBatch(db, handles);
  return IngestTableFiles(db, handles, staging);
}

}  // namespace ghsift
