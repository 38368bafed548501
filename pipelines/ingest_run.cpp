#include "pipelines/ingest_run.hpp"

#include <sys/stat.h>

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "common/time_range.hpp"
#include "pipelines/input_files.hpp"

namespace ghsift {
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

IngestRun::IngestRun(Store& store, const std::shared_ptr<const RuleDatabase>& rules, const RepoFilter& repos,
                     const IngestOptions& options, const std::vector<std::string>& files, IngestProgress& progress)
    : store_(store),
      rules_(rules),
      repos_(repos),
      options_(options),
      files_(files),
      progress_(progress),
      run_started_(std::filesystem::file_time_type::clock::now()),
      outcomes_(files.size()),
      replaces_(files.size(), false),
      states_(files.size()) {}

std::vector<FileOutcome> IngestRun::Execute() {
  const int threads = options_.threads > 0 ? options_.threads : tbb::info::default_concurrency();
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<size_t>(threads));
  const size_t tokens = options_.max_in_flight > 0 ? options_.max_in_flight : static_cast<size_t>(2 * threads + 2);
  // Files decoded at once: one per thread keeps every core inflating while others parse.
  max_open_ = options_.max_open_files > 0 ? options_.max_open_files : static_cast<size_t>(threads);
  progress_.files_total = files_.size();

  DecideSkips();
  if (!LoadCommittedHashes()) return std::move(outcomes_);
  if (options_.commit_group_seconds > 0) {
    // The group's time limit holds while no file finishes: files finished before a slow download
    // are committed on time, not when the download ends.
    const double period = std::clamp(options_.commit_group_seconds / 4, 0.05, 1.0);
    committer_.SetIdleTask(
        [this] {
          if (group_.age_seconds() >= options_.commit_group_seconds) WriteGroup();
        },
        period);
  }
  tbb::parallel_pipeline(
      tokens,
      tbb::make_filter<void, ChunkTask*>(tbb::filter_mode::parallel,
                                         [this](tbb::flow_control& control) { return Read(control); }) &
          tbb::make_filter<ChunkTask*, ChunkTask*>(tbb::filter_mode::parallel,
                                                   [this](ChunkTask* task) { return Process(task); }) &
          tbb::make_filter<ChunkTask*, void>(tbb::filter_mode::serial_out_of_order,
                                             [this](ChunkTask* task) { Fold(task); }));
  // Finished files of the last group are whole: commit them even after a stop request.
  const auto pipeline_ended = std::chrono::steady_clock::now();
  committer_.Submit([this] { WriteGroup(); });
  committer_.Finish();
  progress_.last_commit_ns = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - pipeline_ended).count());
  SettleStopped();
  return std::move(outcomes_);
}

void IngestRun::DecideSkips() {
  std::unordered_set<std::string> seen_keys;
  for (size_t i = 0; i < files_.size(); ++i) {
    FileOutcome& outcome = outcomes_[i];
    outcome.path = files_[i];
    const std::string key = FileKey(files_[i]);
    std::error_code ec;
    const uint64_t size = IsHttpUrl(files_[i]) ? 0 : std::filesystem::file_size(files_[i], ec);
    const std::vector<std::string> other_names = OtherNamesOfTheHour(key);
    const bool wanted = WantedAfterStore(i, key, other_names, size, !ec, outcome);
    const auto same_hour = std::find_if(other_names.begin(), other_names.end(),
                                        [&](const std::string& other) { return seen_keys.count(other) > 0; });
    if (wanted && !seen_keys.insert(key).second) {
      outcome.result = FileResult::kSkipped;
      outcome.message = "named twice in this run";
    } else if (wanted && same_hour != other_names.end()) {
      outcome.result = FileResult::kFailed;
      outcome.name_held = true;
      outcome.message = "the same hour as " + *same_hour + ", named before it in this run; only that one is read";
    } else if (wanted) {
      to_read_.push_back(i);
      progress_.compressed_total += ec ? 0 : size;
      continue;
    }
    ++progress_.files_done;
  }
}

bool IngestRun::WantedAfterStore(size_t i, const std::string& key, const std::vector<std::string>& other_names,
                                 uint64_t size, bool size_known, FileOutcome& outcome) {
  const bool remote = IsHttpUrl(files_[i]);
  auto existing = store_.FindFile(key);
  if (!existing.ok()) {
    outcome.result = FileResult::kFailed;
    outcome.message = existing.status().message();
    return false;
  }
  const std::optional<FileEntry>& entry = *existing;
  if (entry) outcome.entry = *entry;
  if (options_.replace) {
    // Only a file the store holds with bad lines, or empty, is replaced; the very copy it holds is
    // skipped.
    auto hash = remote || !entry ? Result<uint64_t>(uint64_t{0}) : HashFile(files_[i]);
    if (!entry) {
      outcome.result = FileResult::kFailed;
      outcome.message = "not in the store: nothing to replace (ingest it without --replace)";
    } else if (hash.ok() && *hash == entry->content_hash) {
      outcome.result = FileResult::kSkipped;
      outcome.message = "already the copy the store holds";
    } else if (!entry->Replaceable()) {
      outcome.result = FileResult::kFailed;
      outcome.message = FileEntry::kNotReplaceable;
    } else {
      replaces_[i] = true;
      return true;
    }
    return false;
  }
  if (!entry) {
    // The same hour under another name (another compression, or its hour written 02): counted once.
    for (const std::string& other : other_names) {
      auto held = store_.FindFile(other);
      if (!held.ok()) {
        outcome.result = FileResult::kFailed;
        outcome.message = held.status().message();
        return false;
      }
      if (!*held) continue;
      outcome.name_held = true;
      if (remote) {
        outcome.result = FileResult::kSkipped;
        outcome.message = "already ingested as " + other;
      } else {
        outcome.result = FileResult::kFailed;
        outcome.message = "the store holds this hour as " + other +
                          " (another copy of the same hour); refusing to count it twice: ingest into a new store "
                          "to use this copy";
      }
      return false;
    }
    return true;
  }
  if (entry->events == 0 && entry->bad_lines == 0) {
    // The store holds the hour as empty: it added nothing but the file, so another copy takes its
    // place without a count twice (an empty download, then the real hour).
    auto hash = remote ? Result<uint64_t>(uint64_t{0}) : HashFile(files_[i]);
    const bool the_copy_it_holds = !remote && hash.ok() && *hash == entry->content_hash;
    if (!the_copy_it_holds) {
      replaces_[i] = true;
      return true;
    }
  }
  if (remote) {
    // Known by name, as GH Archive names its hours: not downloaded again.
    outcome.result = FileResult::kSkipped;
    outcome.message = "already ingested";
    return false;
  }
  // Same name: the same file only if size and content hash agree. A changed file is refused
  // rather than counted twice or half-replaced.
  bool same = size_known && entry->size == size;
  // Name, size and modification time as recorded: the same file, known without reading it (a
  // re-run over an archive of thousands of hours). --verify re-hashes instead.
  const bool unchanged = same && entry->mtime_ns != 0 && entry->mtime_ns == ModificationTimeNs(files_[i]);
  if (same && (options_.verify || !unchanged)) {
    auto hash = HashFile(files_[i]);
    same = hash.ok() && *hash == entry->content_hash;
  }
  if (same) {
    outcome.result = FileResult::kSkipped;
    outcome.message = "already ingested";
  } else {
    outcome.result = FileResult::kFailed;
    outcome.name_held = true;
    outcome.message = "changed since it was ingested (size " + std::to_string(size) + " vs " +
                      std::to_string(entry->size) + " bytes, or another content hash); refusing to "
                      "count it again: ingest into a new store to use the new file";
  }
  return false;
}

bool IngestRun::LoadCommittedHashes() {
  const Status scanned = store_.ScanFiles([&](const std::string& name, const FileEntry& entry) {
    if (entry.RefusesCopies()) name_by_hash_.emplace(entry.content_hash, name);
  });
  if (scanned.ok()) return true;
  // Without every committed content hash a copy could be counted twice: nothing is read.
  for (const size_t index : to_read_) {
    outcomes_[index].result = FileResult::kFailed;
    outcomes_[index].message = "not read: cannot list the store's files to tell a copy of a committed one (" +
                               scanned.message() + ")";
    ++progress_.files_done;
  }
  return false;
}

bool IngestRun::AbandonOpenFiles() {
  for (FileState* f : open_files_) {
    if (f->reading_done) continue;
    f->reading_done = true;
    if (f->error.ok()) f->error = Status::Cancelled("stopped before the end of the file");
    if (!f->busy) {
      f->splitter.reset();
      --open_count_;
    }
  }
  return std::none_of(open_files_.begin(), open_files_.end(), [](FileState* f) { return f->busy; });
}

FileState* IngestRun::OpenNext() {
  const size_t index = to_read_[next_to_open_++];
  const auto unanswered = options_.unanswered_limit > 0 && IsHttpUrl(files_[index])
                              ? unanswered_in_a_row_.find(UrlOrigin(files_[index]))
                              : unanswered_in_a_row_.end();
  if (unanswered != unanswered_in_a_row_.end() && unanswered->second >= options_.unanswered_limit) {
    outcomes_[index].result = FileResult::kNotAsked;
    outcomes_[index].opened = false;
    outcomes_[index].message = "not asked for: the source gave nothing for " + std::to_string(unanswered->second) +
                               " files in a row; the next run asks again";
    ++progress_.files_done;
    return nullptr;
  }
  auto state = std::make_unique<FileState>();
  state->index = index;
  auto decoder = OpenInput(files_[index], options_, arrivals_);
  if (!decoder.ok()) {
    outcomes_[index].result = FileResult::kFailed;
    outcomes_[index].message = decoder.status().message();
    ++progress_.files_done;
    return nullptr;
  }
  state->splitter = std::make_unique<LineSplitter>(std::move(decoder).value(), options_.splitter);
  FileState* opened = state.get();
  open_files_.push_back(opened);
  ++open_count_;
  states_[index] = std::move(state);
  return opened;
}

ChunkTask* IngestRun::Read(tbb::flow_control& control) {
  const uint64_t arrivals_seen = arrivals_.generation();  // before any file is looked at
  FileState* file = nullptr;
  bool input_pending = false;  // an open file not being read waits for its bytes
  std::unique_ptr<ChunkTask> task;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (options_.stop != nullptr && options_.stop->load() && AbandonOpenFiles()) {
      // Abandoned whole: the fold stage drops those files.
      control.stop();
      return nullptr;
    }
    // The other files allowed open are opened now, not when a worker is free for them: a
    // download starts at its open, and over a network each transfer is held back by its
    // connection (latency, rate per connection), so --connections N means N transfers at
    // once. Each buffers at most HttpOptions::buffer_bytes until it is read.
    while (options_.max_open_files > 0 && open_count_ < max_open_ && next_to_open_ < to_read_.size()) OpenNext();
    // The first open file whose input is there. Over HTTP, reading a file whose bytes have not
    // arrived would hold this worker while the other transfers, their buffers full, wait for
    // it: with hours larger than the buffer, only the files being read would keep downloading.
    for (FileState* f : open_files_) {
      if (f->busy || f->reading_done) continue;
      if (f->splitter->decoder().Ready()) {
        file = f;
        break;
      }
      input_pending = true;
    }
    while (file == nullptr && !input_pending && open_count_ < max_open_ && next_to_open_ < to_read_.size()) {
      file = OpenNext();
    }
    if (file == nullptr) {
      const bool any_reading =
          std::any_of(open_files_.begin(), open_files_.end(), [](FileState* f) { return !f->reading_done; });
      if (!any_reading && next_to_open_ >= to_read_.size()) {
        control.stop();
        return nullptr;
      }
    } else {
      file->busy = true;
    }
    if (!free_tasks_.empty()) {
      task = std::move(free_tasks_.back());
      free_tasks_.pop_back();
    }
  }
  if (!task) task = std::make_unique<ChunkTask>();
  task->file = file;
  task->error = Status::Ok();
  if (file == nullptr) {
    // Every open file is being read by another task, or waits for its bytes. The wait ends
    // when any transfer becomes ready; its time limit only bounds how late a stop is seen.
    if (input_pending) {
      arrivals_.WaitPast(arrivals_seen, std::chrono::milliseconds(50));
    } else {
      std::this_thread::yield();
    }
    return task.release();
  }
  ReadChunk(task.get());
  return task.release();
}

void IngestRun::ReadChunk(ChunkTask* task) {
  FileState* file = task->file;
  const uint64_t before = file->splitter->decoder().compressed_bytes_read();
  auto more = file->splitter->Next(task->chunk);
  progress_.compressed_bytes += file->splitter->decoder().compressed_bytes_read() - before;
  if (more.ok() && *more) progress_.decoded_bytes += task->chunk.size;
  std::lock_guard<std::mutex> lock(mutex_);
  file->busy = false;
  if (file->reading_done) {  // abandoned by a stop request while this chunk was read
    file->splitter.reset();
    --open_count_;
    ++file->chunks_read;
    return;
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
    --open_count_;
    NoteSourceAnswer(*file, task->error);
  }
}

void IngestRun::NoteSourceAnswer(const FileState& file, const Status& ending) {
  // A stop request says nothing of the source; a 404 is an answer (the hour is not there).
  if (!IsHttpUrl(files_[file.index]) || ending.code() == StatusCode::kCancelled) return;
  const bool unanswered = !ending.ok() && ending.code() != StatusCode::kNotFound && file.compressed_bytes == 0;
  size_t& in_a_row = unanswered_in_a_row_[UrlOrigin(files_[file.index])];
  in_a_row = unanswered ? in_a_row + 1 : 0;
}

WorkerState& IngestRun::ThisThreadsWorker() {
  WorkerState*& mine = thread_workers_.local();
  if (mine == nullptr) {
    auto state = std::make_unique<WorkerState>();
    state->worker = std::make_unique<ChunkWorker>(rules_, repos_, options_.splitter.max_line_bytes, options_.keep_text);
    mine = state.get();
    std::lock_guard<std::mutex> lock(mutex_);
    all_workers_.push_back(std::move(state));
  }
  return *mine;
}

ChunkTask* IngestRun::Process(ChunkTask* task) {
  if (task->file != nullptr && task->error.ok() && (task->chunk.size > 0 || task->chunk.overlong_lines_before > 0)) {
    WorkerState& state = ThisThreadsWorker();
    FileAggregate& local = state.LocalFor(task->file);
    const uint64_t events_before = local.events();
    state.worker->Process(task->chunk, local);
    progress_.events += local.events() - events_before;
  }
  return task;
}

FileAggregate IngestRun::TakeFileAggregate(const FileState* file) {
  std::vector<WorkerState*> workers;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& w : all_workers_) workers.push_back(w.get());
  }
  FileAggregate global;
  for (WorkerState* w : workers) {
    std::lock_guard<std::mutex> lock(w->mutex);
    auto it = w->locals.find(file);
    if (it == w->locals.end()) continue;
    global.Combine(std::move(it->second));
    w->locals.erase(it);
  }
  return global;
}

void IngestRun::Fold(ChunkTask* task) {
  std::unique_ptr<ChunkTask> owned(task);
  FileState* file = task->file;
  if (file != nullptr) {
    if (!task->error.ok() && file->error.ok()) file->error = task->error;
    bool done;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++file->chunks_folded;
      done = file->reading_done && file->chunks_folded == file->chunks_read && !file->finished;
      if (done) {
        file->finished = true;
        open_files_.erase(std::find(open_files_.begin(), open_files_.end(), file));
      }
    }
    if (done) {
      // Folding the threads' Local state reads their maps: done here, in the pipeline. The
      // write to RocksDB goes to the committer thread.
      auto aggregate = std::make_shared<FileAggregate>(TakeFileAggregate(file));
      if (file->error.ok()) {
        aggregate->ResolveLineNumbers();
        aggregate->RemoveDuplicateEvents();
        aggregate->AddBytes(file->decoded_bytes);
      }
      committer_.Submit([this, file, aggregate] { FinishFile(file, aggregate); });
    }
  }
  owned->file = nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  free_tasks_.push_back(std::move(owned));
}

void IngestRun::FinishFile(FileState* file, const std::shared_ptr<FileAggregate>& aggregate) {
  const size_t index = file->index;
  FileOutcome& outcome = outcomes_[index];
  const std::string key = FileKey(files_[index]);
  // An empty hour is no copy of another empty hour, nor one to refuse copies of
  // (FileEntry::RefusesCopies).
  const bool refuses_copies = aggregate->events() > 0;
  const auto same_bytes = file->error.ok() && refuses_copies ? name_by_hash_.find(file->content_hash)
                                                             : name_by_hash_.end();
  if (file->error.ok() && aggregate->events() == 0 && aggregate->bad_lines() > 0) {
    // Lines and not one event: another kind of file (a log, other JSON), not a damaged hour.
    // Counting its bad lines would only hide the mistake.
    const auto& first = aggregate->bad_line_samples();
    file->error = Status::Corrupt(
        "not a GH Archive dump: none of its " + std::to_string(aggregate->bad_lines()) +
        " lines is a GH Archive event" +
        (first.empty() ? "" : " (line " + std::to_string(first.front().line) + ": " + first.front().reason + ")"));
  }
  if (same_bytes != name_by_hash_.end() && same_bytes->second != key) {
    outcome.result = FileResult::kSkipped;
    outcome.message = "same content as " + same_bytes->second +
                      (ingested_this_run_.count(same_bytes->second) ? ", ingested in this run" : ", already ingested");
    ++progress_.files_done;
  } else if (file->error.ok()) {
    if (refuses_copies) name_by_hash_.emplace(file->content_hash, key);
    ingested_this_run_.insert(key);
    FileEntry entry;
    entry.size = file->compressed_bytes;
    if (!IsHttpUrl(files_[index])) entry.mtime_ns = ModificationTimeNs(files_[index]);
    entry.decoded_bytes = file->decoded_bytes;
    entry.events = aggregate->events();
    entry.bad_lines = aggregate->bad_lines();
    entry.report_events_without_number = aggregate->report_events_without_number();
    entry.ingested_at = NowSeconds();
    entry.content_hash = file->content_hash;
    outcome.entry = entry;
    if (entry.events == 0) {
      outcome.message = "holds no event: recorded as an empty hour (a copy of it with events takes its place)";
    } else if (replaces_[index] && !options_.replace) {
      outcome.message = "took the place of the empty copy of this hour the store held";
    }
    outcome.bad_lines = aggregate->bad_line_samples();
    outcome.without_number = aggregate->without_number_samples();
    // A file with bad lines is committed alone, so that the store can keep what it added (a
    // good copy replaces it later: --replace); so is a replacement. Report events without a usable
    // number are no reason to: they were read whole and counted, and they are what GitHub
    // published, so another copy of the hour holds them alike and there is nothing to replace.
    const bool alone = entry.bad_lines > 0 || replaces_[index];
    if (alone) WriteGroup();
    group_.Add(index, key, entry, std::move(*aggregate));
    if (alone) WriteGroup();
  } else {
    const StatusCode code = file->error.code();
    outcome.result = code == StatusCode::kCancelled                             ? FileResult::kStopped
                     : code == StatusCode::kNotFound && IsHttpUrl(files_[index]) ? FileResult::kMissing
                                                                                : FileResult::kFailed;
    outcome.message = file->error.message();
    SetAsideSavedCopy(index, outcome);
    ++progress_.files_done;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    states_[index].reset();
  }
  const bool waited = options_.commit_group_seconds > 0 && group_.age_seconds() >= options_.commit_group_seconds;
  if (group_.decoded_bytes() >= options_.commit_group_bytes || waited) WriteGroup();
}

void IngestRun::SetAsideSavedCopy(size_t index, FileOutcome& outcome) const {
  // A --save-dumps copy of an hour that failed (its body whole, its content not) is not left
  // under the hour's name, where the next run from disk would read it.
  if (outcome.result != FileResult::kFailed || !IsHttpUrl(files_[index]) || options_.save_dumps_dir.empty()) return;
  const std::string copy = options_.save_dumps_dir + "/" + UrlFileName(files_[index]);
  std::error_code ec;
  // Only a copy this run wrote: one left by an earlier run (this download cut short, its .part
  // removed) is that run's good copy.
  const auto written = std::filesystem::last_write_time(copy, ec);
  if (ec || written < run_started_) return;
  std::filesystem::rename(copy, copy + ".failed", ec);
  if (!ec) outcome.message += " (its saved copy is kept as " + copy + ".failed)";
}

void IngestRun::WriteGroup() {
  if (group_.empty()) return;
  // A replacement is committed alone (FinishFile).
  const auto& [first_name, first_entry] = group_.entries().front();
  const Status status = replaces_[group_.file_indexes().front()]
                            ? store_.ReplaceFile(first_name, first_entry, group_.aggregate())
                            : store_.CommitFiles(group_.entries(), group_.aggregate());
  for (const size_t index : group_.file_indexes()) {
    if (!status.ok()) {
      outcomes_[index].result = FileResult::kFailed;
      outcomes_[index].message = status.message();
    }
    ++progress_.files_done;
  }
  group_.Clear();
}

void IngestRun::SettleStopped() {
  // After a stop request: files abandoned between chunks, and files never opened.
  for (size_t k = 0; k < to_read_.size(); ++k) {
    const size_t index = to_read_[k];
    if (k >= next_to_open_) {
      outcomes_[index].result = FileResult::kStopped;
      outcomes_[index].message = "not started";
      outcomes_[index].opened = false;
    } else if (states_[index] != nullptr) {
      TakeFileAggregate(states_[index].get());
      outcomes_[index].result = FileResult::kStopped;
      outcomes_[index].message = "stopped before the end of the file";
      states_[index].reset();
    }
  }
}

}  // namespace ghsift
