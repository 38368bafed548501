#pragma once
// One IngestPipeline::Run, stage by stage. The pipeline's tokens are chunks of files; the state
// the stages share (which files are open, each file's progress, the group of finished files
// waiting for their commit) lives here as named members, and each stage is a method:
//
//   DecideSkips             files already in the store, or named twice, are not read
//   LoadCommittedHashes     a copy of a committed hour under another name is not counted twice
//   Read      (parallel)    the next chunk of some open file no other task is reading
//   Process   (parallel)    extract, scan and aggregate the chunk into this thread's Local state
//   Fold      (serial)      count the chunk in; a file whose last chunk is through is finished
//   FinishFile (committer)  judge the finished file, add it to the commit group or record why not
//   WriteGroup (committer)  write the group of finished files to the store in one batch
//   SettleStopped           after a stop: what was abandoned, what was never started
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_pipeline.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "io/arrival_signal.hpp"
#include "pipelines/chunk_worker.hpp"
#include "pipelines/commit_group.hpp"
#include "pipelines/file_committer.hpp"
#include "pipelines/ingest_pipeline.hpp"

namespace ghsift {

//! Everything about one input file while it is in flight.
struct FileState {
  size_t index = 0;
  std::unique_ptr<LineSplitter> splitter;  //!< null once reading ended
  bool busy = false;                       //!< a task is decoding it now
  bool reading_done = false;
  uint64_t chunks_read = 0;
  uint64_t chunks_folded = 0;
  uint64_t decoded_bytes = 0;
  uint64_t content_hash = 0;               //!< of the compressed bytes, once all are read
  uint64_t compressed_bytes = 0;           //!< the input's size, once all is read
  Status error;                            //!< first failure; the file is then not committed
  bool finished = false;
};

//! A worker thread's Local aggregates, one per file it has processed chunks of. Folding a
//! chunk into the thread's own aggregate needs no lock; the file's Global state is built once,
//! from at most one Local per thread, when its last chunk is through.
struct WorkerState {
  std::unique_ptr<ChunkWorker> worker;
  std::mutex mutex;  //!< guards `locals` (the fold stage takes entries out)
  std::unordered_map<const FileState*, FileAggregate> locals;

  FileAggregate& LocalFor(const FileState* file) {
    std::lock_guard<std::mutex> lock(mutex);
    return locals[file];  // node-based: the reference survives other inserts and erases
  }
};

//! One pipeline token: a chunk of a file.
struct ChunkTask {
  FileState* file = nullptr;  //!< null: nothing to do (all open files were busy)
  Chunk chunk;
  Status error;
};

class IngestRun {
 public:
  IngestRun(Store& store, const std::shared_ptr<const RuleDatabase>& rules, const RepoFilter& repos,
            const IngestOptions& options, const std::vector<std::string>& files, IngestProgress& progress);

  //! Every file gets an outcome, in input order.
  std::vector<FileOutcome> Execute();

 private:
  void DecideSkips();
  //! Whether file `i` is to be read as far as the store can say (then the caller checks it is not
  //! named twice); when not, `outcome` says why. `size`: a local file's (`size_known`: it could be read).
  //! `other_names`: the other names of its hour (OtherNamesOfTheHour), which the store may hold it by.
  bool WantedAfterStore(size_t i, const std::string& key, const std::vector<std::string>& other_names, uint64_t size,
                        bool size_known, FileOutcome& outcome);
  //! False when the store's files cannot be listed: then nothing is read (each file says why).
  bool LoadCommittedHashes();

  ChunkTask* Read(tbb::flow_control& control);
  ChunkTask* Process(ChunkTask* task);
  void Fold(ChunkTask* task);
  void FinishFile(FileState* file, const std::shared_ptr<FileAggregate>& aggregate);
  void WriteGroup();
  void SettleStopped();

  // Read's helpers; called with `mutex_` held.
  //! After a stop request: marks every open file abandoned. True when no task still reads one
  //! (the pipeline can end).
  bool AbandonOpenFiles();
  //! Opens the next file to read; null when it failed to open (recorded) or none is left.
  FileState* OpenNext();
  //! Reads `task->file`'s next chunk into the task, without the lock.
  void ReadChunk(ChunkTask* task);
  //! Counts a URL whose reading ended towards IngestOptions::unanswered_limit (called with `mutex_` held).
  void NoteSourceAnswer(const FileState& file, const Status& ending);

  WorkerState& ThisThreadsWorker();
  //! The Global state of a finished file: every thread's Local for it, folded together.
  FileAggregate TakeFileAggregate(const FileState* file);
  //! A failed hour's --save-dumps copy is set aside (renamed .failed) when this run wrote it.
  void SetAsideSavedCopy(size_t index, FileOutcome& outcome) const;

  Store& store_;
  const std::shared_ptr<const RuleDatabase>& rules_;
  const RepoFilter& repos_;
  const IngestOptions& options_;
  const std::vector<std::string>& files_;
  IngestProgress& progress_;
  size_t max_open_ = 0;  //!< files decoded at once
  const std::filesystem::file_time_type run_started_;  //!< --save-dumps copies newer are this run's

  std::vector<FileOutcome> outcomes_;
  std::vector<size_t> to_read_;  //!< indexes of the files to read, in input order
  //! Per file: it takes the place of the copy of its name the store holds (--replace, or a copy
  //! of an hour the store holds as empty); committed alone, through Store::ReplaceFile.
  std::vector<bool> replaces_;

  std::mutex mutex_;  //!< guards the file states' scheduling fields and `all_workers_`
  std::vector<std::unique_ptr<FileState>> states_;
  size_t next_to_open_ = 0;
  size_t open_count_ = 0;
  std::vector<FileState*> open_files_;
  std::vector<std::unique_ptr<ChunkTask>> free_tasks_;
  //! Per server (UrlOrigin): its URLs in a row whose reading ended with no byte from it (unanswered_limit).
  std::unordered_map<std::string, size_t> unanswered_in_a_row_;
  ArrivalSignal arrivals_;  //!< HTTP inputs tell the read stage that bytes arrived

  tbb::enumerable_thread_specific<WorkerState*> thread_workers_{nullptr};
  std::vector<std::unique_ptr<WorkerState>> all_workers_;

  // The committer thread's own.
  ghsift::CommitGroup group_;
  //! Content hashes of the files in the store and of those committed by this run, with their
  //! names: a file whose bytes equal another's under a different name is not counted twice.
  std::unordered_map<uint64_t, std::string> name_by_hash_;
  std::unordered_set<std::string> ingested_this_run_;  //!< names this run read whole (for that message)
  //! Last, so destroyed first: its thread (the commits, the idle check of the group's age) ends
  //! before the members it uses go.
  FileCommitter committer_;
};

}  // namespace ghsift
