#pragma once
// The ingest pipeline: the only code that knows the stage order and TBB.
//
//   read + decode + split (parallel across files, serial within one) ->
//   extract + scan + aggregate per chunk (parallel) ->
//   fold chunk into its file; commit a finished file in one batch (serial)
//
// At most `max_in_flight` chunks exist at once, so memory does not grow with input size.
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "aggregate/file_aggregate.hpp"
#include "aggregate/repo_filter.hpp"
#include "io/http_source.hpp"
#include "io/line_splitter.hpp"
#include "rules/rule_database.hpp"
#include "store/store.hpp"

namespace ghsift {

struct IngestOptions {
  int threads = 0;                 //!< 0 = all cores
  LineSplitterOptions splitter;
  size_t max_in_flight = 0;        //!< chunks alive at once; 0 = 2 * threads + 2
  //! Set from a signal handler to stop: files in flight are abandoned (nothing of them is
  //! committed), files not started are left for the next run.
  const std::atomic<bool>* stop = nullptr;
  bool keep_text = false;          //!< keep tracked reports' text for `rescan`
  //! Finished files are committed together until their decoded bytes reach this (0: each file
  //! alone). A group is one atomic batch: a key that several files touch (a repository's
  //! counters of one day, an issue seen in several hours) is written once, not once per file.
  //! A stop or a crash loses at most the group being built; its files are read again next run.
  uint64_t commit_group_bytes = kDefaultCommitGroupBytes;
  static constexpr uint64_t kDefaultCommitGroupBytes = 256ull << 20;
  //! A group is also committed once its first file waited this long (0 = no time limit): a long
  //! range of small hours, or hours downloaded one by one, shows in the store (stats, queries)
  //! while the run goes on instead of at its end.
  double commit_group_seconds = kDefaultCommitGroupSeconds;
  static constexpr double kDefaultCommitGroupSeconds = 60;
  //! Inputs read at once (for URLs: transfers in flight); 0 = one per thread.
  size_t max_open_files = 0;
  //! How http:// and https:// inputs are fetched (retries, caps, user agent).
  HttpOptions http;
  //! Re-hash a file already in the store even when its size and modification time match.
  bool verify = false;
  //! When set, a copy of each downloaded hour is kept here under its file name.
  std::string save_dumps_dir;
  //! Each input replaces the copy of the same name that the store holds with bad lines, or empty
  //! (Store::ReplaceFile); an input the store does not hold so is an error, not ingested. A copy
  //! of an hour the store holds as empty replaces it without this.
  bool replace = false;
  //! After this many URLs of one server in a row failed with not one byte from it (connection
  //! refused, timeouts, server errors, each after its retries), its URLs not opened yet are not
  //! asked for (kNotAsked): with the source down, a week of catch-up would otherwise spend its
  //! retries on every hour. A 404 or any byte of a body is an answer and starts the count again.
  //! 0: ask for every URL.
  size_t unanswered_limit = 0;
};

enum class FileResult {
  kIngested,  //!< counted now
  kSkipped,   //!< was already in the store
  kFailed,    //!< unreadable or corrupt; nothing of it was committed
  kStopped,   //!< not finished because ingest was asked to stop; nothing of it was committed
  kMissing,   //!< the source has no such hour (HTTP 404/410); not an error
  //! A URL not asked for: the source had given nothing for IngestOptions::unanswered_limit
  //! hours in a row; nothing of it was read, and the next run asks for it again
  kNotAsked,
};

struct FileOutcome {
  std::string path;
  FileResult result = FileResult::kIngested;
  std::string message;             //!< why it failed or was skipped; of an ingested file, a note (an empty hour)
  //! False for a file a stop request came before it was opened (kStopped, "not started"): no
  //! transfer or read of it was in flight.
  bool opened = true;
  //! kFailed for a file refused because the store holds its name with other content: the hour
  //! is in the store, so the refusal is said but no failure of the hour is recorded.
  bool name_held = false;
  FileEntry entry;
  std::vector<BadLine> bad_lines;  //!< the first few, with line numbers
  //! The first few report events without a usable number (FileEntry::report_events_without_number).
  std::vector<BadLine> without_number;
};

//! Live numbers for a progress display (read from another thread).
struct IngestProgress {
  std::atomic<uint64_t> files_done{0};
  std::atomic<uint64_t> files_total{0};
  std::atomic<uint64_t> decoded_bytes{0};
  std::atomic<uint64_t> compressed_bytes{0};
  std::atomic<uint64_t> compressed_total{0};
  std::atomic<uint64_t> events{0};
  //! How long the commit after the pipeline's last chunk took (the last group of files, with
  //! the workers idle): shown by --timings.
  std::atomic<uint64_t> last_commit_ns{0};
};

class IngestPipeline {
 public:
  IngestPipeline(Store& store, std::shared_ptr<const RuleDatabase> rules, RepoFilter repos, IngestOptions options);

  //! Ingests `files` (already resolved); every file gets an outcome, in input order.
  std::vector<FileOutcome> Run(const std::vector<std::string>& files, IngestProgress* progress = nullptr);

 private:
  Store& store_;
  std::shared_ptr<const RuleDatabase> rules_;
  RepoFilter repos_;
  IngestOptions options_;
};

//! The name a file is remembered by: its base name, or an URL's last path segment (GH Archive
//! names are unique per hour, so an hour read from disk and from the network is the same entry).
std::string FileKey(const std::string& path);

}  // namespace ghsift
