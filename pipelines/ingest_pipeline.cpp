#include "pipelines/ingest_pipeline.hpp"

#include <sys/stat.h>

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_pipeline.h>

#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>
#include <unordered_set>

#include "io/arrival_signal.hpp"
#include "pipelines/chunk_worker.hpp"
#include "pipelines/commit_group.hpp"
#include "pipelines/file_committer.hpp"

namespace ghsift {
namespace {

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
  std::mutex mutex;  //!< guards `locals` (the commit stage takes entries out)
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

int64_t NowSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::string FileKey(const std::string& path) {
  return IsHttpUrl(path) ? UrlFileName(path) : std::filesystem::path(path).filename().string();
}

namespace {

//! A local file's modification time in nanoseconds since the epoch (0 when it cannot be read).
int64_t ModificationTimeNs(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return 0;
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

//! A decoder over a local file or an HTTP(S) body, typed by content either way.
Result<std::unique_ptr<Decoder>> OpenInput(const std::string& input, const IngestOptions& options,
                                           ArrivalSignal& arrivals) {
  if (!IsHttpUrl(input)) return OpenDecoder(input);
  HttpOptions http = options.http;
  http.stop = options.stop;
  http.arrivals = &arrivals;
  if (!options.save_dumps_dir.empty()) http.save_path = options.save_dumps_dir + "/" + UrlFileName(input);
  auto source = HttpSource::Open(input, http);
  if (!source.ok()) return source.status();
  return OpenDecoder(std::move(source).value(), input);
}

}  // namespace

IngestPipeline::IngestPipeline(Store& store, std::shared_ptr<const RuleDatabase> rules, RepoFilter repos,
                               IngestOptions options)
    : store_(store), rules_(std::move(rules)), repos_(std::move(repos)), options_(options) {}

std::vector<FileOutcome> IngestPipeline::Run(const std::vector<std::string>& files, IngestProgress* progress) {
  const int threads = options_.threads > 0 ? options_.threads : tbb::info::default_concurrency();
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<size_t>(threads));
  const size_t tokens = options_.max_in_flight > 0 ? options_.max_in_flight : static_cast<size_t>(2 * threads + 2);
  // Files decoded at once: one per thread keeps every core inflating while others parse.
  const size_t max_open = options_.max_open_files > 0 ? options_.max_open_files : static_cast<size_t>(threads);

  const auto run_started = std::filesystem::file_time_type::clock::now();  // --save-dumps copies newer are this run's
  std::vector<FileOutcome> outcomes(files.size());
  std::vector<std::unique_ptr<FileState>> states(files.size());
  std::unordered_set<std::string> seen_keys;
  IngestProgress local_progress;
  if (progress == nullptr) progress = &local_progress;
  progress->files_total = files.size();

  // Skips are decided up front: a file already in the store, or named twice, is not read.
  std::vector<size_t> to_read;
  for (size_t i = 0; i < files.size(); ++i) {
    outcomes[i].path = files[i];
    const std::string key = FileKey(files[i]);
    const bool remote = IsHttpUrl(files[i]);
    std::error_code ec;
    const uint64_t size = remote ? 0 : std::filesystem::file_size(files[i], ec);
    auto existing = store_.FindFile(key);
    if (!existing.ok()) {
      outcomes[i].result = FileResult::kFailed;
      outcomes[i].message = existing.status().message();
    } else if (existing->has_value() && remote) {
      // Known by name, as GH Archive names its hours: not downloaded again.
      outcomes[i].entry = **existing;
      outcomes[i].result = FileResult::kSkipped;
      outcomes[i].message = "already ingested";
    } else if (existing->has_value()) {
      const FileEntry& entry = **existing;
      outcomes[i].entry = entry;
      // Same name: the same file only if size and content hash agree. A changed file is
      // refused rather than counted twice or half-replaced.
      bool same = !ec && entry.size == size;
      // Name, size and modification time as recorded: the same file, known without reading it
      // (a re-run over an archive of thousands of hours). --verify re-hashes instead.
      const bool unchanged = same && entry.mtime_ns != 0 && entry.mtime_ns == ModificationTimeNs(files[i]);
      if (same && (options_.verify || !unchanged)) {
        auto hash = HashFile(files[i]);
        same = hash.ok() && *hash == entry.content_hash;
      }
      if (same) {
        outcomes[i].result = FileResult::kSkipped;
        outcomes[i].message = "already ingested";
      } else {
        outcomes[i].result = FileResult::kFailed;
        outcomes[i].message = "changed since it was ingested (size " + std::to_string(size) + " vs " +
                              std::to_string(entry.size) + " bytes, or another content hash); refusing to "
                              "count it again: ingest into a new store to use the new file";
      }
    } else if (!seen_keys.insert(key).second) {
      outcomes[i].result = FileResult::kSkipped;
      outcomes[i].message = "named twice in this run";
    } else {
      to_read.push_back(i);
      progress->compressed_total += ec ? 0 : size;
      continue;
    }
    ++progress->files_done;
  }

  // Content hashes of the files in the store and of those committed by this run: a file whose
  // bytes equal another's under a different name (a renamed or copied hour) is not counted twice.
  std::unordered_map<uint64_t, std::string> name_by_hash;  // used on the committer thread only
  const Status scanned = store_.ScanFiles([&](const std::string& name, const FileEntry& entry) {
    if (entry.content_hash != 0) name_by_hash.emplace(entry.content_hash, name);
  });
  if (!scanned.ok()) {
    // Without every committed content hash a copy could be counted twice: nothing is read.
    for (const size_t index : to_read) {
      outcomes[index].result = FileResult::kFailed;
      outcomes[index].message = "not read: cannot list the store's files to tell a copy of a committed one (" +
                                scanned.message() + ")";
      ++progress->files_done;
    }
    return outcomes;
  }

  std::mutex mutex;  // guards the file states' scheduling fields
  size_t next_to_open = 0;
  size_t open_count = 0;
  std::vector<FileState*> open_files;
  std::vector<std::unique_ptr<ChunkTask>> free_tasks;

  FileCommitter committer;
  CommitGroup group;  // used on the committer thread only
  auto commit_group = [&] {
    if (group.empty()) return;
    const Status status = store_.CommitFiles(group.entries(), group.aggregate());
    for (const size_t index : group.file_indexes()) {
      if (!status.ok()) {
        outcomes[index].result = FileResult::kFailed;
        outcomes[index].message = status.message();
      }
      ++progress->files_done;
    }
    group.Clear();
  };
  ArrivalSignal arrivals;  // HTTP inputs tell the read stage that bytes arrived
  tbb::enumerable_thread_specific<WorkerState*> thread_states(nullptr);
  std::vector<std::unique_ptr<WorkerState>> all_states;  // guarded by `mutex`
  auto worker_state = [&]() -> WorkerState& {
    WorkerState*& mine = thread_states.local();
    if (mine == nullptr) {
      auto state = std::make_unique<WorkerState>();
      state->worker =
          std::make_unique<ChunkWorker>(rules_, repos_, options_.splitter.max_line_bytes, options_.keep_text);
      mine = state.get();
      std::lock_guard<std::mutex> lock(mutex);
      all_states.push_back(std::move(state));
    }
    return *mine;
  };
  // The Global state of a finished file: every thread's Local for it, folded together.
  auto take_file_aggregate = [&](const FileState* file) {
    std::vector<WorkerState*> states_now;
    {
      std::lock_guard<std::mutex> lock(mutex);
      for (auto& s : all_states) states_now.push_back(s.get());
    }
    FileAggregate global;
    for (WorkerState* s : states_now) {
      std::lock_guard<std::mutex> lock(s->mutex);
      auto it = s->locals.find(file);
      if (it == s->locals.end()) continue;
      global.Combine(std::move(it->second));
      s->locals.erase(it);
    }
    return global;
  };

  // Reads the next chunk of some file no other task is reading.
  auto read_stage = [&](tbb::flow_control& control) -> ChunkTask* {
    const uint64_t arrivals_seen = arrivals.generation();  // before any file is looked at
    FileState* file = nullptr;
    bool input_pending = false;  // an open file not being read waits for its bytes
    std::unique_ptr<ChunkTask> task;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (options_.stop != nullptr && options_.stop->load()) {
        // Abandon what is open; the commit stage then drops those files whole.
        for (FileState* f : open_files) {
          if (f->reading_done) continue;
          f->reading_done = true;
          if (f->error.ok()) f->error = Status::Cancelled("stopped before the end of the file");
          if (!f->busy) {
            f->splitter.reset();
            --open_count;
          }
        }
        if (std::none_of(open_files.begin(), open_files.end(), [](FileState* f) { return f->busy; })) {
          control.stop();
          return nullptr;
        }
      }
      // Opens the next file to read; null when it failed to open (recorded) or none is left.
      auto open_next = [&]() -> FileState* {
        const size_t index = to_read[next_to_open++];
        auto state = std::make_unique<FileState>();
        state->index = index;
        auto decoder = OpenInput(files[index], options_, arrivals);
        if (!decoder.ok()) {
          outcomes[index].result = FileResult::kFailed;
          outcomes[index].message = decoder.status().message();
          ++progress->files_done;
          return nullptr;
        }
        state->splitter = std::make_unique<LineSplitter>(std::move(decoder).value(), options_.splitter);
        FileState* opened = state.get();
        open_files.push_back(opened);
        ++open_count;
        states[index] = std::move(state);
        return opened;
      };
      // The other files allowed open are opened now, not when a worker is free for them: a
      // download starts at its open, and over a network each transfer is held back by its
      // connection (latency, rate per connection), so --connections N means N transfers at
      // once. Each buffers at most HttpOptions::buffer_bytes until it is read.
      while (options_.max_open_files > 0 && open_count < max_open && next_to_open < to_read.size()) open_next();
      // The first open file whose input is there. Over HTTP, reading a file whose bytes have not
      // arrived would hold this worker while the other transfers, their buffers full, wait for
      // it: with hours larger than the buffer, only the files being read would keep downloading.
      for (FileState* f : open_files) {
        if (f->busy || f->reading_done) continue;
        if (f->splitter->decoder().Ready()) {
          file = f;
          break;
        }
        input_pending = true;
      }
      while (file == nullptr && !input_pending && open_count < max_open && next_to_open < to_read.size()) {
        file = open_next();
      }
      if (file == nullptr) {
        const bool any_reading = std::any_of(open_files.begin(), open_files.end(),
                                             [](FileState* f) { return !f->reading_done; });
        if (!any_reading && next_to_open >= to_read.size()) {
          control.stop();
          return nullptr;
        }
      } else {
        file->busy = true;
      }
      if (!free_tasks.empty()) {
        task = std::move(free_tasks.back());
        free_tasks.pop_back();
      }
    }
    if (!task) task = std::make_unique<ChunkTask>();
    task->file = file;
    task->error = Status::Ok();
    if (file == nullptr) {
      // Every open file is being read by another task, or waits for its bytes. The wait ends
      // when any transfer becomes ready; its time limit only bounds how late a stop is seen.
      if (input_pending) {
        arrivals.WaitPast(arrivals_seen, std::chrono::milliseconds(50));
      } else {
        std::this_thread::yield();
      }
      return task.release();
    }
    const uint64_t before = file->splitter->decoder().compressed_bytes_read();
    auto more = file->splitter->Next(task->chunk);
    progress->compressed_bytes += file->splitter->decoder().compressed_bytes_read() - before;
    if (more.ok() && *more) progress->decoded_bytes += task->chunk.size;
    std::lock_guard<std::mutex> lock(mutex);
    file->busy = false;
    if (file->reading_done) {  // abandoned by a stop request while this chunk was read
      file->splitter.reset();
      --open_count;
      ++file->chunks_read;
      return task.release();
    }
    if (!more.ok()) {
      task->error = more.status();
      file->reading_done = true;
    } else if (!*more) {
      task->chunk.size = 0;
      task->chunk.overlong_lines_before = 0;
      task->chunk.sequence = file->chunks_read;
      file->reading_done = true;
    } else if (task->chunk.last) {
      file->reading_done = true;
    }
    // Every token, even an empty end marker, is folded; the file is finished when all are.
    ++file->chunks_read;
    if (file->reading_done) {
      file->decoded_bytes = file->splitter->decoded_bytes();
      file->content_hash = file->splitter->decoder().content_hash();
      file->compressed_bytes = file->splitter->decoder().compressed_bytes_read();
      file->splitter.reset();
      --open_count;
    }
    return task.release();
  };

  auto process_stage = [&](ChunkTask* task) -> ChunkTask* {
    if (task->file != nullptr && task->error.ok() && (task->chunk.size > 0 || task->chunk.overlong_lines_before > 0)) {
      WorkerState& state = worker_state();
      FileAggregate& local = state.LocalFor(task->file);
      const uint64_t events_before = local.events();
      state.worker->Process(task->chunk, local);
      progress->events += local.events() - events_before;
    }
    return task;
  };

  auto commit_stage = [&](ChunkTask* task) {
    std::unique_ptr<ChunkTask> owned(task);
    FileState* file = task->file;
    if (file != nullptr) {
      if (!task->error.ok() && file->error.ok()) file->error = task->error;
      bool done;
      {
        std::lock_guard<std::mutex> lock(mutex);
        ++file->chunks_folded;
        done = file->reading_done && file->chunks_folded == file->chunks_read && !file->finished;
        if (done) {
          file->finished = true;
          open_files.erase(std::find(open_files.begin(), open_files.end(), file));
        }
      }
      if (done) {
        // Folding the threads' Local state reads their maps: done here, in the pipeline. The
        // write to RocksDB goes to the committer thread.
        auto aggregate = std::make_shared<FileAggregate>(take_file_aggregate(file));
        if (file->error.ok()) {
          aggregate->ResolveLineNumbers();
          aggregate->RemoveDuplicateEvents();
          aggregate->AddBytes(file->decoded_bytes);
        }
        committer.Submit([&, file, aggregate] {
          const size_t index = file->index;
          FileOutcome& outcome = outcomes[index];
          const auto same_bytes = file->error.ok() ? name_by_hash.find(file->content_hash) : name_by_hash.end();
          if (file->error.ok() && aggregate->events() == 0 && aggregate->bad_lines() > 0) {
            // Lines and not one event: another kind of file (a log, other JSON), not a damaged
            // hour. Counting its bad lines would only hide the mistake.
            const auto& first = aggregate->bad_line_samples();
            file->error = Status::Corrupt(
                "not a GH Archive dump: none of its " + std::to_string(aggregate->bad_lines()) +
                " lines is a GH Archive event" +
                (first.empty() ? "" : " (line " + std::to_string(first.front().line) + ": " + first.front().reason + ")"));
          }
          if (same_bytes != name_by_hash.end() && same_bytes->second != FileKey(files[index])) {
            outcome.result = FileResult::kSkipped;
            outcome.message = "same content as " + same_bytes->second + ", already ingested";
            ++progress->files_done;
          } else if (file->error.ok()) {
            name_by_hash.emplace(file->content_hash, FileKey(files[index]));
            FileEntry entry;
            entry.size = file->compressed_bytes;
            if (!IsHttpUrl(files[index])) entry.mtime_ns = ModificationTimeNs(files[index]);
            entry.decoded_bytes = file->decoded_bytes;
            entry.events = aggregate->events();
            entry.bad_lines = aggregate->bad_lines();
            entry.ingested_at = NowSeconds();
            entry.content_hash = file->content_hash;
            outcome.entry = entry;
            outcome.bad_lines = aggregate->bad_line_samples();
            group.Add(index, FileKey(files[index]), entry, std::move(*aggregate));
          } else {
            const StatusCode code = file->error.code();
            outcome.result = code == StatusCode::kCancelled  ? FileResult::kStopped
                             : code == StatusCode::kNotFound && IsHttpUrl(files[index]) ? FileResult::kMissing
                                                                                         : FileResult::kFailed;
            outcome.message = file->error.message();
            // A --save-dumps copy of an hour that failed (its body whole, its content not) is
            // not left under the hour's name, where the next run from disk would read it.
            if (outcome.result == FileResult::kFailed && IsHttpUrl(files[index]) &&
                !options_.save_dumps_dir.empty()) {
              const std::string copy = options_.save_dumps_dir + "/" + UrlFileName(files[index]);
              std::error_code ec;
              // Only a copy this run wrote: one left by an earlier run (this download cut short,
              // its .part removed) is that run's good copy.
              const auto written = std::filesystem::last_write_time(copy, ec);
              if (!ec && written >= run_started) {
                std::filesystem::rename(copy, copy + ".failed", ec);
                if (!ec) outcome.message += " (its saved copy is kept as " + copy + ".failed)";
              }
            }
            ++progress->files_done;
          }
          {
            std::lock_guard<std::mutex> lock(mutex);
            states[index].reset();
          }
          const bool waited = options_.commit_group_seconds > 0 && group.age_seconds() >= options_.commit_group_seconds;
          if (group.decoded_bytes() >= options_.commit_group_bytes || waited) commit_group();
        });
      }
    }
    owned->file = nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    free_tasks.push_back(std::move(owned));
  };

  // After a stop request: files abandoned between chunks, and files never opened.
  auto settle_stopped = [&] {
    for (size_t k = 0; k < to_read.size(); ++k) {
      const size_t index = to_read[k];
      if (k >= next_to_open) {
        outcomes[index].result = FileResult::kStopped;
        outcomes[index].message = "not started";
        outcomes[index].opened = false;
      } else if (states[index] != nullptr) {
        take_file_aggregate(states[index].get());
        outcomes[index].result = FileResult::kStopped;
        outcomes[index].message = "stopped before the end of the file";
        states[index].reset();
      }
    }
  };
  tbb::parallel_pipeline(tokens,
                         tbb::make_filter<void, ChunkTask*>(tbb::filter_mode::parallel, read_stage) &
                             tbb::make_filter<ChunkTask*, ChunkTask*>(tbb::filter_mode::parallel, process_stage) &
                             tbb::make_filter<ChunkTask*, void>(tbb::filter_mode::serial_out_of_order, commit_stage));
  // Finished files of the last group are whole: commit them even after a stop request.
  committer.Submit(commit_group);
  committer.Finish();
  settle_stopped();
  return outcomes;
}

}  // namespace ghsift
