#pragma once
// The last stage: the RocksDB store. A file's effects and its entry in the ingested-files set
// are written in one atomic commit (with those of the other files of its commit group: a
// WriteBatch, or table files added at once when the group is large, see CommitBatch), so a file
// is either fully counted or not at all.
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "aggregate/file_aggregate.hpp"
#include "common/result.hpp"
#include "store/commit_batch.hpp"
#include "store/file_entry.hpp"
#include "store/partial_merge.hpp"
#include "store/store_backup.hpp"

namespace ghsift {

//! The reason an hour is recorded with (Store::RecordFailure) when its source has no such file:
//! a gap of the archive itself, which coverage lists apart from failures.
inline constexpr std::string_view kMissingAtSource = "missing at source";
//! A recorded failure that is an hour the HTTP source did not have.
inline bool IsMissingAtSource(std::string_view reason) { return reason.starts_with(kMissingAtSource); }

enum class StoreMode {
  kReadWrite,  //!< the single writer (holds RocksDB's LOCK)
  kRead,       //!< a reader; works while a writer is active and never blocks it
};

class Store {
 public:
  //! Opens (creating it for kReadWrite) the store at `path`. A directory that holds something
  //! other than a ghsift store is refused.
  static Result<std::unique_ptr<Store>> Open(const std::string& path, StoreMode mode);
  //! The process that holds the store at `path` open for writing (an ingest still running), by
  //! RocksDB's lock on PATH/LOCK; 0 when none does. A reader needs no lock, so `merge` asks.
  static int64_t WriterOf(const std::string& path);
  ~Store();

  Result<std::optional<FileEntry>> FindFile(const std::string& name) const;
  //! Writes one file's aggregate together with its entry, atomically.
  Status CommitFile(const std::string& name, const FileEntry& entry, const FileAggregate& aggregate);
  //! Writes several files at once: their aggregates combined into `aggregate`, and each file's
  //! entry, in one atomic batch. Repeated keys (a repository's counters of the same day, an
  //! issue seen in several hours) are then written once for the group instead of once per file.
  Status CommitFiles(const std::vector<std::pair<std::string, FileEntry>>& files, const FileAggregate& aggregate);
  //! Replaces a file the store holds with bad lines by a good copy of it (same name), in one
  //! atomic batch: what the bad copy added (kept when it was committed) is taken out of every
  //! sum and the good copy's aggregate is added, as if only the good copy had been ingested. An
  //! error, with the store unchanged, for a file not in the store, one ingested without bad
  //! lines, or one an older ghsift ingested (which kept no record of what it added).
  Status ReplaceFile(const std::string& name, const FileEntry& entry, const FileAggregate& aggregate);
  Status AddStat(const std::string& name, int64_t delta);
  //! Remembers that a file failed (and why) until it is ingested successfully.
  Status RecordFailure(const std::string& name, const std::string& reason);
  //! (file name, reason) of files that failed and were not ingested since.
  std::vector<std::pair<std::string, std::string>> Failures() const;

  Result<std::optional<std::string>> GetMeta(const std::string& key) const;
  Status PutMeta(const std::string& key, const std::string& value);

  //! Calls `fn(key, value)` for counters whose key starts with `prefix`.
  Status ScanCounters(const std::string& prefix, const std::function<void(std::string_view, int64_t)>& fn) const;
  //! Calls `fn(repo_id, number, record)` for every issue (of one repo when repo_id is set).
  Status ScanIssues(std::optional<int64_t> repo_id,
                    const std::function<Status(int64_t, int64_t, const IssueRecord&)>& fn) const;
  //! Report keys [begin, end) (an empty end: to the last), to share a pass between threads.
  struct KeyRange {
    std::string begin, end;
  };
  //! Cuts the reports (only the stale ones when `stale`) into up to `parts` ranges of equal
  //! spans of repository ids.
  std::vector<KeyRange> SplitReports(size_t parts, bool stale) const;
  //! ScanIssues over the reports of `range`.
  Status ScanIssuesIn(const KeyRange& range,
                      const std::function<Status(int64_t, int64_t, const IssueRecord&)>& fn) const;
  Result<std::optional<IssueRecord>> GetIssue(int64_t repo_id, int64_t number) const;
  //! Calls `fn(repo_id, number, record)` for each of the reports `keys` (sorted) names that the
  //! store holds, read in key order by one iterator: many reports read far faster so than by
  //! a GetIssue each.
  Status ScanIssuesOf(const std::vector<std::pair<int64_t, int64_t>>& keys,
                      const std::function<Status(int64_t, int64_t, const IssueRecord&)>& fn) const;
  //! Calls `fn(encoded ReportTextRecord)` for each text kept for a report (ingest --keep-text).
  Status ScanTexts(int64_t repo_id, int64_t number, const std::function<Status(std::string_view)>& fn) const;
  //! The latest text (title, body, labels) and the comments kept of a report that matched a
  //! problem rule (none for other reports, and in stores ingested before it was kept).
  Result<std::optional<LatestTextRecord>> GetLatestText(int64_t repo_id, int64_t number) const;
  //! Overwrites issue records and meta entries in one atomic batch (rescan); the rollup is
  //! cleared in the same batch, for the next RefreshRollup to rebuild.
  Status ReplaceIssues(const std::vector<std::pair<std::pair<int64_t, int64_t>, IssueRecord>>& records,
                       const std::map<std::string, std::string>& meta);
  // The rollup: counts of reports per cell (repo, month, kind, state, category), kept so that
  // `query` need not read every report. Writers only mark the reports a commit touches as stale
  // (in the same batch, with no read); RefreshRollup (engine/rollup) recounts the stale ones.
  // A store without a rollup (a first ingest) marks nothing: its refresh builds the rollup from
  // every report anyway. The store knows the keys, not what a cell means.

  //! Meta key of the formats every report record of the store is written in ("issues 3, latest_texts
  //! 2"); unset in a store written before records carried their format's tagged fields.
  static constexpr const char* kRecordFormatsMetaKey = "record_formats";
  //! The value of kRecordFormatsMetaKey this ghsift writes.
  static std::string RecordFormats();

  //! Meta key holding the layout version of a complete rollup (unset: none, or a rebuild was cut).
  static constexpr const char* kRollupMetaKey = "rollup";
  //! Whether commits mark the reports they touch stale: only while a rollup exists.
  Result<bool> MarksStale() const;

  //! Calls `fn(repo_id, number, record, counted_under)` for every stale report, in key order:
  //! its current record (none if it has gone) and the cell keys it was last counted under,
  //! as RollupUpdate::counted_under gave them ("" = none).
  Status ScanStaleIssues(
      const std::function<Status(int64_t, int64_t, const std::optional<IssueRecord>&, std::string_view)>& fn,
      const KeyRange& range = {}) const;
  //! Calls `fn(key, count)` for the rollup cells whose key starts with `prefix`.
  Status ScanRollup(const std::string& prefix, const std::function<void(std::string_view, int64_t)>& fn) const;
  //! Calls `fn(key, count)` for the rollup cells in [begin, end), in key order.
  Status ScanRollupIn(const std::string& begin, const std::string& end,
                      const std::function<void(std::string_view, int64_t)>& fn) const;
  //! The rollup's bytes in [begin, end), as RocksDB estimates them (as ApproximateListingBytes).
  uint64_t ApproximateRollupBytes(const std::string& begin, const std::string& end) const;
  struct RollupUpdate {
    std::vector<std::pair<std::string, int64_t>> deltas;  //!< cell key -> count to add
    //! (repo_id, number) -> the cells it is counted under from now on; the report is no longer stale
    std::vector<std::pair<std::pair<int64_t, int64_t>, std::string>> counted_under;
    std::optional<std::string> version;  //!< when set, written as meta "rollup" (a finished rebuild)
    //! Whether the reports of `counted_under` may be marked stale (a rebuild starts with no marks).
    bool unmark_stale = true;
    //! Listing index entries (rollup/listing_index.hpp) to delete, then (key, value) to put.
    std::vector<std::string> unlisted;
    std::vector<std::pair<std::string, std::string>> listed;
  };
  //! Applies one update atomically.
  Status ApplyRollup(const RollupUpdate& update);
  //! Empties the rollup, its per-report entries, the listing index and the stale set, and unsets
  //! meta "rollup", atomically: the start of a rebuild.
  Status ClearRollup();
  //! Whether the store has the listing index's family (an older store, opened by a reader, may not).
  bool HasListing() const;
  //! Calls `fn(key, value)` for the listing index entries in [begin, end), in key order.
  Status ScanListing(const std::string& begin, const std::string& end,
                     const std::function<Status(std::string_view, std::string_view)>& fn) const;
  //! The listing index's bytes in [begin, end), as RocksDB estimates them (files and memtables);
  //! 0 when it cannot tell (a caller then reads the range in one pass).
  uint64_t ApproximateListingBytes(const std::string& begin, const std::string& end) const;

  //! Calls `fn(name, entry)` for each ingested file, in name order.
  Status ScanFiles(const std::function<void(const std::string&, const FileEntry&)>& fn) const;

  //! The latest name of a repository ("" when unknown).
  std::string RepoName(int64_t repo_id) const;
  //! Calls `fn(repo_id, latest name)` for every repository, in id order (one pass, where a
  //! RepoName per row costs a lookup each when an answer has thousands of repositories).
  Status ScanRepoNames(const std::function<void(int64_t, std::string_view)>& fn) const;
  //! Every repository id that was ever seen under `name` (case-insensitive).
  std::vector<int64_t> RepoIdsByName(const std::string& name) const;

  //! Adds everything a partial store (made by `ingest --partial`) holds, atomically: counters and
  //! issue records merge as if its files had been ingested here. The partial is streamed through
  //! table files (StreamPartial), so memory does not grow with its size. A partial whose files
  //! are all here already is skipped (kAlreadyExists); one that shares only some of them is
  //! refused, since its sums cannot be split by file. On failure the store is unchanged.
  Status MergeFrom(const Store& partial);
  //! Backs the store up into the backup directory `dir` (created if missing; store_backup.hpp):
  //! its state after the last commit, with `description`. Only the table files no backup there
  //! holds are copied. With `keep`, the newest `keep` backups stay and older ones are removed.
  //! Needs the store open for writing, so that no commit runs meanwhile.
  Result<StoreBackup> BackUp(const std::string& dir, const BackupDescription& description,
                             std::optional<uint32_t> keep);
  //! Whether `path` holds a store, said as a reader's Open says it ("no such store", "not a ghsift
  //! store ..."), without opening it: for a writer that must not make one there.
  static Status CheckIsStore(const std::string& path);
  //! Writes the marker that makes a directory of a store's RocksDB files a ghsift store (a
  //! restored backup: BackupEngine copies RocksDB's files only).
  static Status WriteMarker(const std::string& path);

  //! Table file size and threads of MergeFrom; tests set small files to take the many-file path.
  void set_merge_options(const PartialMergeOptions& options) { merge_options_ = options; }

  //! Where Finish's time went (`ingest --timings`): the compactions wait for a free background
  //! thread, so on a large store they mostly measure the compaction debt the run left behind.
  struct FinishTimes {
    double flush_seconds = 0;               //!< writing the memtables out
    double compact_seconds = 0;             //!< the stale set's and the rollup's compactions
    uint64_t pending_compaction_bytes = 0;  //!< RocksDB's estimate, over every family, at the end
  };
  //! Leaves the store quick to open and read after a writing run: every memtable goes to table
  //! files, so the log retires and the next reader need not replay it (seconds after a large
  //! ingest). After a large rollup refresh (tens of thousands of reports) the stale set and the
  //! rollup are compacted too, so that reading them steps over no tombstone per report and no
  //! pile of count operands per cell; small refreshes leave that to RocksDB's own compactions.
  Status Finish(FinishTimes* times = nullptr);
  //! Starts writing the memtables to table files and returns at once; Finish waits for it. Run
  //! before RefreshRollup, the flush of what the ingest wrote overlaps the refresh.
  Status StartFlush();

  //! Commits of at least this many bytes go in as table files, smaller ones through the log
  //! (CommitBatch); tests set 0 or a huge value to take one path.
  void set_table_file_min_bytes(uint64_t bytes) { table_file_min_bytes_ = bytes; }

  //! The store's counters (files, events, bad_lines, ...) by name.
  Result<std::map<std::string, int64_t>> Stats() const;
  //! Bytes the store occupies on disk.
  uint64_t DiskBytes() const;
  const std::string& path() const { return path_; }

 private:
  Store() = default;
  rocksdb::ColumnFamilyHandle* Family(int which) const { return handles_[static_cast<size_t>(which)]; }
  Status ClearRollupIn(rocksdb::WriteBatch& batch);
  //! The meta key of `name`'s failure record when one is on record: a file committed or merged
  //! ends it. Only a record on file is deleted: a delete in the meta family would overlap its
  //! memtable and make RocksDB flush it before every commit.
  std::optional<std::string> RecordedFailureKey(const std::string& name) const;
  //! Adds an aggregate's non-counter writes (repository names, report records except those in
  //! `written_records`, which the caller wrote, stale marks, kept texts) to `batch`.
  Status AddAggregate(CommitBatch& batch, const FileAggregate& aggregate,
                      const std::set<std::pair<int64_t, int64_t>>& written_records);
  //! Writes a commit's batch after checking the free space; `what` names it in errors.
  Status WriteCommit(CommitBatch& batch, const std::string& what);
  //! Every write of this store goes through here: after one has failed (a full disk), no other is
  //! tried in this process, and each is refused with the first failure. RocksDB 7.8 (Debian's,
  //! built with assertions) appends to its write-ahead log again after a failed append and can
  //! abort there, as its info log did (StoreLog); the store keeps what its last good write made
  //! it, and the next run writes again.
  Status Written(const std::function<Status()>& write);
  //! Rewrites the report records of a store of older formats in the current ones (a writer, at
  //! open): the answers stay the same, and the store then holds one format only.
  Status UpgradeRecords();
  //! Compacts each family left in many small table files (Finish): a reader opens them all.
  Status CompactScatteredFamilies(const rocksdb::CompactRangeOptions& compact);
  //! Calls `fn(key, value)` for the keys of an int64-valued family that start with `prefix`.
  Status ScanCounts(int family, const std::string& prefix, const std::function<void(std::string_view, int64_t)>& fn,
                    const char* what) const;
  //! A family's bytes in [begin, end), files and memtables, as RocksDB estimates them; 0 when it
  //! cannot tell.
  uint64_t ApproximateBytes(int family, const std::string& begin, const std::string& end) const;

  std::string path_;
  Status write_failed_;  //!< the first failed write (Written), or ok
  std::mutex write_failed_mutex_;
  std::string secondary_path_;  //!< reader's private directory (removed on close)
  // Since the last Finish: stale marks ApplyRollup deleted (tombstones a reader's scan of the
  // stale set steps over) and its steps that added count operands (one per cell at most each).
  std::atomic<uint64_t> stale_marks_cleared_{0};
  std::atomic<uint64_t> rollup_steps_{0};
  uint64_t table_file_min_bytes_ = CommitBatch::kTableFileMinBytes;
  PartialMergeOptions merge_options_;
  std::mutex rollup_write_mutex_;  //!< one ApplyRollup batch written at a time
  std::unique_ptr<rocksdb::DB> db_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
};

}  // namespace ghsift
