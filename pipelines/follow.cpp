#include "pipelines/follow.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>
#include <thread>
#include <vector>

#include "io/archive_hours.hpp"
#include "common/number_text.hpp"
#include "common/time_range.hpp"
#include "rollup/rollup.hpp"

namespace ghsift {
namespace {

constexpr int64_t kHour = 3600;

int64_t DueAt(int64_t hour) { return (hour + 1) * kHour; }

//! An hour asked for and not done yet.
struct Pending {
  int64_t next_try = 0;    //!< not asked for again before this (clock seconds)
  int64_t reported = 0;    //!< the retry interval its "not published yet" line named (0: none)
};

//! Waits `seconds` of real time, or less when a stop is requested.
void Sleep(int64_t seconds, const std::atomic<bool>* stop) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < until) {
    if (stop != nullptr && stop->load()) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

bool Stopped(const FollowOptions& o) { return o.stop != nullptr && o.stop->load(); }

//! The pause before an hour is asked for again: the poll interval while it is less than an hour
//! late (GH Archive publishes an hour some minutes after it ends), then a quarter of an hour.
int64_t RetryInterval(const FollowOptions& o, int64_t hour, int64_t now) {
  return now - DueAt(hour) < kHour ? o.poll_seconds : std::max<int64_t>(o.poll_seconds, 900);
}

//! "24 h", "1.5 h", "100.5 h", "90 s".
std::string HoursText(int64_t seconds) {
  if (seconds % kHour == 0) return std::to_string(seconds / kHour) + " h";
  if (seconds < kHour) return std::to_string(seconds) + " s";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", static_cast<double>(seconds) / kHour);
  std::string shown = text;
  while (shown.back() == '0') shown.pop_back();  // "1.50" -> "1.5"
  if (shown.back() == '.') shown.pop_back();
  return shown + " h";
}

//! "every 3 s", "every 15 min": how often an hour is asked for from now on.
std::string EveryText(int64_t seconds) {
  return seconds % 60 == 0 && seconds >= 60 ? "every " + std::to_string(seconds / 60) + " min"
                                            : "every " + std::to_string(seconds) + " s";
}

}  // namespace

std::string FailureReason(const FileOutcome& outcome) {
  const std::string prefix = outcome.path + ": ";
  return outcome.message.starts_with(prefix) ? outcome.message.substr(prefix.size()) : outcome.message;
}

std::string FormatInstant(int64_t seconds) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%MZ", &tm);
  return text;
}

Result<int64_t> DefaultFollowStart(const Store& store, int64_t now) {
  GHSIFT_ASSIGN_OR_RETURN(const std::optional<std::string> resume, store.GetMeta(kFollowNextMeta));
  if (resume) {
    if (const auto hour = ParseHour(*resume)) return *hour;
  }
  GHSIFT_ASSIGN_OR_RETURN(const std::set<int64_t> held, StoredHours(store));
  if (held.empty()) return now / kHour - 1;  // the newest hour that has ended
  // A store a range ingest or the cron script wrote: its last day's hours that failed or were
  // not published yet are asked for again, as the next cron run would have (the hours held are
  // skipped by name, without a request).
  const int64_t newest = *held.rbegin();
  for (int64_t hour = std::max(newest - (kCatchUpHours - 1), *held.begin()); hour < newest; ++hour) {
    if (!held.count(hour)) return hour;
  }
  return newest + 1;
}

Result<std::set<int64_t>> StoredHours(const Store& store) {
  std::set<int64_t> hours;
  const auto consider = [&](const std::string& name) {
    if (const auto hour = HourOfFileName(name)) hours.insert(*hour);
  };
  GHSIFT_TRY(store.ScanFiles([&](const std::string& name, const FileEntry&) { consider(name); }));
  for (const auto& [name, reason] : store.Failures()) {
    if (IsMissingAtSource(reason)) consider(name);
  }
  return hours;
}

Result<std::optional<int64_t>> NewestStoredHour(const Store& store) {
  GHSIFT_ASSIGN_OR_RETURN(const std::set<int64_t> hours, StoredHours(store));
  if (hours.empty()) return std::optional<int64_t>();
  return std::optional<int64_t>(*hours.rbegin());
}

Status CheckFollowSource(const std::string& base_url, int64_t hour, HttpOptions http) {
  http.retries = 0;
  http.connect_timeout_seconds = std::min<long>(http.connect_timeout_seconds, 15);
  http.save_path.clear();
  http.arrivals = nullptr;
  auto source = HttpSource::Open(ArchiveUrl(base_url, hour), http);
  if (!source.ok()) return source.status();
  char byte = 0;
  const Result<size_t> read = (*source)->Read({&byte, 1});
  if (read.ok() || read.status().code() == StatusCode::kNotFound) return Status::Ok();
  return read.status();
}

Result<FollowSummary> RunFollow(Store& store, IngestPipeline& pipeline, const FollowOptions& options) {
  FollowOptions o = options;
  if (!o.now) o.now = NowSeconds;
  if (!o.sleep) o.sleep = [stop = o.stop](int64_t seconds) { Sleep(seconds, stop); };
  if (!o.say) o.say = [](const std::string&) {};
  if (!o.warn) o.warn = [](const std::string&) {};
  FollowSummary summary;
  bool reached = o.source_reached;  // "up to date" only once the source has answered
  std::map<int64_t, Pending> pending;  // due hours not done, oldest first
  int64_t next_new = o.first_hour;     // the first hour not yet due (not in `pending`)
  int64_t waiting_for = -1;            // the hour the last "waiting" line named
  std::string resume_written;
  // When the newest backup was made (by `now`; BackupDue); read from the backup directory at the start.
  std::optional<int64_t> last_backup;
  if (o.backup) {
    const auto newest = NewestBackupTime(o.backup->dir);
    if (!newest.ok()) return newest.status().WithContext("--backup-to");
    last_backup = newest.value();
  }
  const auto back_up_if_due = [&](int64_t now) {
    if (!o.backup || !BackupDue(*o.backup, last_backup, now)) return;
    last_backup = now;  // a failed backup is tried again in the next period, not every round
    const auto made = BackUpStore(store, *o.backup);
    if (made.ok()) {
      o.say("ghsift: follow: " + BackupMadeText(made.value(), *o.backup));
    } else {
      o.warn("ghsift: follow: --backup-to: " + made.status().message() +
             " (the follower goes on, and backs up again in the next period of --backup-every-hours)");
    }
  };
  const auto resume_hour = [&] { return pending.empty() ? next_new : std::min(pending.begin()->first, next_new); };
  const auto write_resume = [&]() -> Status {
    const std::string resume = FormatHour(resume_hour());
    if (resume == resume_written) return Status::Ok();
    GHSIFT_TRY(store.PutMeta(kFollowNextMeta, resume));
    resume_written = resume;
    return Status::Ok();
  };

  while (!Stopped(o)) {
    const int64_t now = o.now();
    for (; DueAt(next_new) <= now; ++next_new) pending.emplace(next_new, Pending{});

    // The hours to ask for now, oldest first; those the store holds (read from disk, or by an
    // earlier run) are done without a request.
    std::vector<int64_t> batch;
    for (auto it = pending.begin(); it != pending.end() && batch.size() < o.batch_hours;) {
      if (it->second.next_try > now) {
        ++it;
        continue;
      }
      GHSIFT_ASSIGN_OR_RETURN(const std::optional<FileEntry> held, store.FindFile(ArchiveFileName(it->first)));
      if (held) {
        it = pending.erase(it);
        continue;
      }
      batch.push_back(it->first);
      ++it;
    }

    if (batch.empty()) {
      GHSIFT_TRY(write_resume());
      int64_t wake = DueAt(next_new);
      for (const auto& [hour, p] : pending) wake = std::min(wake, p.next_try);
      if (waiting_for != next_new) {
        waiting_for = next_new;
        const std::string state = !reached ? "the source has not answered yet; " : pending.empty() ? "up to date; " : "";
        o.say("ghsift: follow: " + state + "waiting for " +
              FormatHour(next_new) + " (ends " +
              FormatInstant(DueAt(next_new)) + ")" +
              (pending.empty() ? "" : "; " + std::to_string(pending.size()) + " older hour" +
                                          (pending.size() == 1 ? "" : "s") + " pending (not published yet, or " +
                                          "failed and asked for again)"));
      }
      o.sleep(std::clamp<int64_t>(wake - now, 1, o.poll_seconds));
      continue;
    }

    std::vector<std::string> urls;
    for (const int64_t hour : batch) urls.push_back(ArchiveUrl(o.base_url, hour));
    const std::vector<FileOutcome> outcomes = pipeline.Run(urls, nullptr);
    const int64_t after = o.now();
    bool committed = false;
    uint64_t round_hours = 0, round_events = 0;
    std::vector<int64_t> round_ingested;
    for (size_t i = 0; i < outcomes.size(); ++i) {
      const FileOutcome& outcome = outcomes[i];
      const int64_t hour = batch[i];
      Pending& p = pending[hour];
      const bool given_up = GivenUp(hour, after, o.give_up_seconds);
      if (outcome.result == FileResult::kIngested || outcome.result == FileResult::kMissing) reached = true;
      switch (outcome.result) {
        case FileResult::kIngested:
          committed = true;
          ++round_hours;
          round_events += outcome.entry.events;
          round_ingested.push_back(hour);
          if (o.on_ingested) o.on_ingested(outcome);
          pending.erase(hour);
          break;
        case FileResult::kSkipped:
          pending.erase(hour);
          break;
        case FileResult::kNotAsked:  // not set for --follow (IngestOptions::unanswered_limit)
        case FileResult::kStopped:
          // Only what was being read (a transfer open); the hours of the batch never opened were
          // not in flight, and the next run asks for them as for any other.
          if (outcome.opened) ++summary.hours_abandoned;
          break;
        case FileResult::kMissing:
          if (given_up) {
            GHSIFT_TRY(store.RecordFailure(ArchiveFileName(hour), std::string(kMissingAtSource) + ": " + urls[i]));
            o.warn("ghsift: " + urls[i] + ": not published at the source " + HoursText(o.give_up_seconds) +
                   " after the hour ended; recorded as missing (stats --coverage)");
            ++summary.hours_missing;
            pending.erase(hour);
          } else {
            const int64_t interval = RetryInterval(o, hour, after);
            p.next_try = after + interval;
            // Said once, and again when the pace changes (an hour late: every quarter of an hour).
            if (p.reported != interval) {
              p.reported = interval;
              o.say("ghsift: follow: " + FormatHour(hour) + " not published yet; asking again " + EveryText(interval) +
                    (interval > o.poll_seconds ? " (it is more than an hour late)" : "") + " until " +
                    FormatInstant(DueAt(hour) + o.give_up_seconds));
            }
          }
          break;
        case FileResult::kFailed: {
          GHSIFT_TRY(store.RecordFailure(ArchiveFileName(hour), outcome.message));
          const std::string reason = FailureReason(outcome);
          if (given_up) {
            o.warn("ghsift: " + urls[i] + ": " + reason + " (nothing of this hour was counted; given up, " +
                   "recorded as failed: stats --coverage)");
            ++summary.hours_failed;
            pending.erase(hour);
          } else {
            p.next_try = after + RetryInterval(o, hour, after);
            o.warn("ghsift: " + urls[i] + ": " + reason + " (nothing of this hour was counted; asking " +
                   "again at " + FormatInstant(p.next_try) + ")");
          }
          break;
        }
      }
    }
    summary.hours_ingested += round_hours;
    summary.events += round_events;
    if (committed) {
      // The rollup follows each round, so that queries answer from it; after a stop request
      // only the flush (readers count stale reports themselves, the next run refreshes).
      const Status settled = Stopped(o) ? store.Finish() : SettleStore(store, true);
      if (!settled.ok()) {
        o.warn("ghsift: after the commits: " + settled.message() +
               " (the hours are committed and queries stay exact; the next round refreshes it)");
      }
      if (!Stopped(o)) back_up_if_due(after);
    }
    GHSIFT_TRY(write_resume());
    if (round_hours > 0) {
      // A run of consecutive hours as a range; with gaps (an hour late or failed), each one.
      const bool consecutive = round_ingested.back() - round_ingested.front() + 1 ==
                               static_cast<int64_t>(round_ingested.size());
      std::string hours = FormatHour(round_ingested.front());
      if (consecutive && round_ingested.size() > 1) hours += " .. " + FormatHour(round_ingested.back());
      for (size_t i = 1; !consecutive && i < round_ingested.size(); ++i) hours += ", " + FormatHour(round_ingested[i]);
      o.say("ghsift: follow: ingested " + hours + " (" + std::to_string(round_hours) + " hour" +
            (round_hours == 1 ? "" : "s") + ", " + WithCommas(round_events) + " events)");
    }
  }
  summary.next_hour = resume_hour();
  return summary;
}

}  // namespace ghsift
