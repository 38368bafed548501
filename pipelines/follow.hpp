#pragma once
// `ingest --follow`: catch up to the newest published GH Archive hour, then read each next hour
// as it is published, until asked to stop.
//
// Hour H (the hour that starts at H * 3600 s, UTC) is due when it ends. Due hours that the store
// does not hold are asked for oldest first, at most `batch_hours` per pipeline run; a run that
// committed something is followed by a rollup refresh. An hour the source does not have yet
// (404/410) is asked for again every `poll_seconds` (every 15 minutes once it is an hour late),
// and one still absent `give_up_seconds` after it ended is recorded as missing at source (shown
// by `stats --coverage`). An hour that failed (retries exhausted, corrupt body) is recorded as
// failed and asked for again the same way until the give-up time. Newer hours never wait for an
// older one that is late.
//
// A stop request (SIGINT/SIGTERM) ends the wait at once, or the pipeline run in flight with
// every finished hour committed and the unfinished ones abandoned whole. The oldest hour not
// done is kept in the store's meta (kFollowNextMeta), where the next --follow without --from
// resumes. With a backup policy, a round that committed is followed by a backup when one is due.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>

#include "common/result.hpp"
#include "io/http_source.hpp"
#include "pipelines/ingest_pipeline.hpp"
#include "pipelines/store_backups.hpp"
#include "store/store.hpp"

namespace ghsift {

struct FollowOptions {
  std::string base_url;               //!< the hours are base_url/YYYY-MM-DD-H.json.gz
  int64_t first_hour = 0;             //!< where to start (see DefaultFollowStart)
  int64_t poll_seconds = 120;         //!< between two requests for an hour not published yet
  int64_t give_up_seconds = 24 * 3600;  //!< after an hour's end: recorded missing (or failed)
  size_t batch_hours = 24;            //!< hours per pipeline run while catching up
  //! The clock, Unix seconds (unset: the system's), and how to wait `seconds` of it, returning
  //! early on a stop (unset: real time). A caller with its own clock (a test) passes both.
  std::function<int64_t()> now;
  std::function<void(int64_t seconds)> sleep;
  const std::atomic<bool>* stop = nullptr;
  std::function<void(const std::string&)> say;   //!< progress lines (quiet: nothing)
  std::function<void(const std::string&)> warn;  //!< failures and hours given up: always shown
  std::function<void(const FileOutcome&)> on_ingested;  //!< e.g. to print its bad records
  //! The source answered CheckFollowSource: until it answers some request, no "up to date".
  bool source_reached = true;
  //! Back the store up after a round's commits when one is due (BackupDue, by `now`): no other
  //! process can while the follower holds the store. A failed backup is warned of and tried again
  //! in the next period; the follower goes on.
  std::optional<BackupPolicy> backup;
};

struct FollowSummary {
  uint64_t hours_ingested = 0;
  uint64_t events = 0;
  uint64_t hours_missing = 0;  //!< recorded as missing at source
  uint64_t hours_failed = 0;   //!< given up after failing
  uint64_t hours_abandoned = 0;  //!< in flight when the stop came (nothing of them counted)
  int64_t next_hour = 0;       //!< the oldest hour not done when it stopped
};

//! Meta key: the oldest hour (YYYY-MM-DD-H) a follow had not finished when it last wrote.
inline constexpr const char* kFollowNextMeta = "follow_next";

//! Where a --follow without --from starts: where the last one stopped; else, in a store another
//! ingest wrote, the oldest hour of the day up to its newest hour that it does not hold (a
//! failed hour, one not published yet when it was asked for), else the hour after that newest
//! one (held: ingested, or recorded missing at source); else the newest hour that has ended by
//! `now`.
Result<int64_t> DefaultFollowStart(const Store& store, int64_t now);

//! How far back from a store's newest hour a follower that did not write it looks for hours it
//! lacks: the day the cron script asks for (26 hours).
inline constexpr int64_t kCatchUpHours = 26;

//! The hours the store holds a file of, or has recorded as missing at the source (by the file's
//! name).
Result<std::set<int64_t>> StoredHours(const Store& store);

//! The newest hour the store holds a file of, or has recorded as missing at the source (by the
//! file's name); none in a store of no hour. Where a follower starts, and what `ingest
//! --catch-up` reads on from.
Result<std::optional<int64_t>> NewestStoredHour(const Store& store);

//! An hour not published `give_up_seconds` after it ended is given up on (recorded as missing at
//! the source); before that, a 404 means "not published yet". Range ingest and follow alike.
inline bool GivenUp(int64_t hour, int64_t now, int64_t give_up_seconds) {
  return now >= (hour + 1) * 3600 + give_up_seconds;
}

//! Asks the source for `hour`'s file once (no retry) and reads its first byte: any answer (the
//! file, or 404: not published) means the source is there; a failed connection or an HTTP error
//! is returned with its reason (--source is always an http(s) URL).
Status CheckFollowSource(const std::string& base_url, int64_t hour, HttpOptions http);

//! Runs until `options.stop` is set; an error only when the store cannot be read or written.
Result<FollowSummary> RunFollow(Store& store, IngestPipeline& pipeline, const FollowOptions& options);

//! Why a file failed, without the file's own name when the message starts with it (a transfer's
//! messages name their URL, and the lines that print them name it first).
std::string FailureReason(const FileOutcome& outcome);

//! "2024-01-01T04:00Z" for Unix seconds (messages).
std::string FormatInstant(int64_t seconds);

}  // namespace ghsift
