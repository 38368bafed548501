#include "store/partial_merge.hpp"

#include <rocksdb/sst_file_writer.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <thread>

#include "store/rocks_status.hpp"

namespace ghsift {
namespace {

//! The table files of one family of the store, written in key order, a new file every
//! `max_bytes` of keys and values. Keys come from one family of the partial (or are its keys),
//! so they arrive strictly increasing, and consecutive files never overlap.
class TableFileStream {
 public:
  TableFileStream(rocksdb::DB& db, rocksdb::ColumnFamilyHandle* family, std::string prefix, uint64_t max_bytes)
      : db_(db), family_(family), prefix_(std::move(prefix)), max_bytes_(max_bytes) {}
  TableFileStream(const TableFileStream&) = delete;
  TableFileStream& operator=(const TableFileStream&) = delete;

  Status Add(MergeOp op, const rocksdb::Slice& key, const rocksdb::Slice& value) {
    if (writer_ == nullptr) {
      // The page cache keeps the file: it is hard-linked into the store and read back soon.
      writer_ = std::make_unique<rocksdb::SstFileWriter>(rocksdb::EnvOptions(), db_.GetOptions(family_), family_,
                                                         /*invalidate_page_cache=*/false);
      paths_.push_back(prefix_ + "-" + std::to_string(paths_.size()) + ".sst");
      GHSIFT_TRY(FromRocks(writer_->Open(paths_.back()), "creating table file " + paths_.back()));
    }
    const rocksdb::Status s = op == MergeOp::kMerge ? writer_->Merge(key, value) : writer_->Put(key, value);
    GHSIFT_TRY(FromRocks(s, "writing table file " + paths_.back()));
    bytes_ += key.size() + value.size();
    return bytes_ >= max_bytes_ ? Close() : Status::Ok();
  }

  //! Finishes the file being written, if any.
  Status Close() {
    if (writer_ == nullptr) return Status::Ok();
    const rocksdb::Status s = writer_->Finish();
    writer_.reset();
    bytes_ = 0;
    return FromRocks(s, "finishing table file " + paths_.back());
  }

  //! Drops the file being written, unfinished (after a failure: its path is removed with the rest).
  void Abandon() { writer_.reset(); }

  rocksdb::ColumnFamilyHandle* family() const { return family_; }
  //! Every file begun, finished or not (to ingest after success, to remove after a failure).
  const std::vector<std::string>& paths() const { return paths_; }

 private:
  rocksdb::DB& db_;
  rocksdb::ColumnFamilyHandle* family_;
  std::string prefix_;
  uint64_t max_bytes_;
  std::unique_ptr<rocksdb::SstFileWriter> writer_;
  std::vector<std::string> paths_;
  uint64_t bytes_ = 0;
};

//! Reads one family of the partial to its end, adding each key it keeps to `out` (and its mark
//! to `marks`).
Status CopyFamily(rocksdb::DB& partial, const FamilyCopy& copy, TableFileStream& out, TableFileStream* marks,
                  const std::string& what, const std::atomic<bool>& failed) {
  rocksdb::ReadOptions read;
  // Read once, front to back: no block is worth caching, and large reads ahead save seeks.
  read.fill_cache = false;
  read.readahead_size = 2u << 20;
  std::unique_ptr<rocksdb::Iterator> it(partial.NewIterator(read, copy.from));
  uint64_t keys = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    // Another family failed: the merge is off, stop reading (its result is that failure).
    if ((++keys & 0xfff) == 0 && failed) return Status::Ok();
    const MergeOp op = copy.op(it->key().ToStringView());
    if (op == MergeOp::kSkip) continue;
    GHSIFT_TRY(out.Add(op, it->key(), it->value()));
    if (marks != nullptr) GHSIFT_TRY(marks->Add(MergeOp::kPut, it->key(), rocksdb::Slice()));
  }
  GHSIFT_TRY(FromRocks(it->status(), "reading the " + copy.name + " of " + what));
  GHSIFT_TRY(out.Close());
  return marks != nullptr ? marks->Close() : Status::Ok();
}

}  // namespace

Status StreamPartial(rocksdb::DB& partial, rocksdb::DB& store, const std::vector<FamilyCopy>& copies,
                     const std::string& staging, const std::string& what, const PartialMergeOptions& options) {
  std::error_code ec;
  std::filesystem::create_directories(staging, ec);
  if (ec) return Status::IoError(staging + ": cannot create the directory for table files: " + ec.message());
  static std::atomic<uint64_t> sequence{0};
  const std::string prefix = staging + "/merge-" + std::to_string(::getpid()) + "-" + std::to_string(sequence++);
  const uint64_t max_bytes = std::max<uint64_t>(options.table_file_max_bytes, 1);
  std::vector<std::unique_ptr<TableFileStream>> outs, marks;
  for (size_t i = 0; i < copies.size(); ++i) {
    const std::string name = prefix + "-" + std::to_string(i);
    outs.push_back(std::make_unique<TableFileStream>(store, copies[i].to, name, max_bytes));
    marks.push_back(copies[i].mark == nullptr
                        ? nullptr
                        : std::make_unique<TableFileStream>(store, copies[i].mark, name + "-marks", max_bytes));
  }
  auto remove_all = [&] {
    for (const auto* streams : {&outs, &marks}) {
      for (const auto& stream : *streams) {
        if (stream == nullptr) continue;
        for (const std::string& path : stream->paths()) std::filesystem::remove(path, ec);
      }
    }
  };

  // The families are independent until the one ingestion: each is copied by the next free
  // thread, in the order given (the largest first, so that they end together).
  size_t threads = options.threads;
  if (threads == 0) threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 4);
  std::vector<Status> results(copies.size(), Status::Ok());
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  auto work = [&] {
    for (size_t k = next++; k < copies.size() && !failed; k = next++) {
      results[k] = CopyFamily(partial, copies[k], *outs[k], marks[k].get(), what, failed);
      if (!results[k].ok()) failed = true;
    }
  };
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < std::min(threads, copies.size()); ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
  for (const Status& result : results) {
    if (!result.ok()) {
      for (const auto* streams : {&outs, &marks}) {
        for (const auto& stream : *streams) {
          if (stream != nullptr) stream->Abandon();
        }
      }
      remove_all();
      return result;
    }
  }

  // One argument per family of the store (RocksDB requires it), with every file written for it.
  std::map<rocksdb::ColumnFamilyHandle*, std::vector<std::string>> files;
  for (const auto* streams : {&outs, &marks}) {
    for (const auto& stream : *streams) {
      if (stream == nullptr || stream->paths().empty()) continue;
      auto& list = files[stream->family()];
      list.insert(list.end(), stream->paths().begin(), stream->paths().end());
    }
  }
  std::vector<rocksdb::IngestExternalFileArg> args;
  for (auto& [family, paths] : files) {
    rocksdb::IngestExternalFileArg arg;
    arg.column_family = family;
    arg.external_files = std::move(paths);
    // Hard-linked into the store, not copied; the sequence number the files get is kept in the
    // MANIFEST instead of being written back into each file.
    arg.options.move_files = true;
    arg.options.write_global_seqno = false;
    args.push_back(std::move(arg));
  }
  Status status = args.empty() ? Status::Ok()
                               : FromRocks(store.IngestExternalFiles(args), "adding the table files of " + what +
                                                                                " to the store");
  remove_all();  // moved files are gone already; what is left failed to enter
  return status;
}

}  // namespace ghsift
