// ghsift ingest --store DIR [--rules PATH]... [--all-repos | --repos FILE] [--threads N] FILE|DIR|URL...
//                [--from T [--to T] [--source URL]] [--follow [--poll-seconds N] [--give-up-hours H]]
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <map>
#include <optional>
#include <set>

#include "commands/commands.hpp"
#include "common/time_range.hpp"
#include "commands/common_options.hpp"
#include "commands/ingest_hours.hpp"
#include "pipelines/follow.hpp"
#include "pipelines/store_backups.hpp"
#include "commands/mpi_ingest.hpp"
#include "pipelines/rule_layers_meta.hpp"
#include "output.hpp"
#include "version.hpp"
#include "pipelines/ingest_pipeline.hpp"
#include "pipelines/input_files.hpp"
#include "progress_display.hpp"
#include "pipelines/store_scope.hpp"
#include "io/archive_hours.hpp"
#include "query/coverage.hpp"
#include "rollup/rollup.hpp"

namespace ghsift::cli {
namespace {

// Set by SIGINT/SIGTERM: the pipeline stops taking chunks, abandons the files in flight
// (nothing of them is committed) and every finished file stays committed.
std::atomic<bool> g_stop{false};
std::atomic<int> g_stop_signal{0};

void OnStopSignal(int signal) {
  g_stop_signal = signal;
  g_stop = true;
}

//! What `ingest` was asked, as the command line gave it, in the groups RunIngest reads them by.
struct IngestArgs {
  std::string store;
  std::vector<std::string> inputs;
  std::vector<std::string> rules;  //!< layers, in order
  std::string repos;
  bool all_repos = false;
  bool keep_text = false;
  bool recursive = false;
  bool verify = false;
  bool replace = false;  //!< --replace: good copies of files the store holds with bad lines
  bool mpi = false;
  bool quiet = false;
  bool timings = false;
  //! An hour still not published this long after it ended is recorded as missing at source.
  double give_up_hours = 24;

  //! How the work is cut: threads, chunks, commit groups, table files, the longest line.
  struct Tuning {
    int threads = 0;
    size_t chunk_mib = 4;
    uint64_t commit_mib = IngestOptions::kDefaultCommitGroupBytes >> 20;
    double commit_seconds = IngestOptions::kDefaultCommitGroupSeconds;
    uint64_t table_file_mib = CommitBatch::kTableFileMinBytes >> 20;
    size_t max_line_mib = 64;
  } tuning;

  //! Hours read over HTTP: URLs given, a --from/--to range, or --follow.
  struct Remote {
    std::string from, to;
    std::string catch_up;  //!< --catch-up: how far back the hours since the store's newest are read
    std::string source = "https://data.gharchive.org";
    size_t connections = 8;
    int retries = 5;
    //! --source-down-after: URLs in a row that gave nothing before a range stops asking the source
    //! (IngestOptions::unanswered_limit): each already spent its --retries, so the source is down,
    //! and the next run (cron's, an hour later) asks for the rest again. 0: ask for every hour.
    size_t source_down_after = 3;
    bool source_down_given = false;  //!< --source-down-after was given (not with --follow or --mpi)
    std::string save_dumps;
    bool save_given = false;  //!< --save-dumps was given (an empty directory name is an error)
    uint64_t max_hour_mib = 8 << 10;
    long stall_seconds = 60;
  } remote;

  struct Follow {
    bool on = false;
    int64_t poll_seconds = 120;
    bool poll_given = false;  //!< --poll-seconds was given (it applies to --follow only)
  } follow;

  bool partial = false;  //!< --partial was given (its store is merged, not backed up)
  //! --backup-to: after the commits, a backup of the store when the newest one is old enough.
  struct Backup {
    std::string to;
    double every_hours = 24;
    uint32_t keep = 0;  //!< 0: all are kept
    bool every_given = false, keep_given = false;
  } backup;
};

//! --backup-to's policy (pipelines/store_backups.hpp).
BackupPolicy PolicyOf(const IngestArgs& args) {
  return {.dir = args.backup.to,
          .every_seconds = static_cast<int64_t>(args.backup.every_hours * 3600),
          .keep = args.backup.keep > 0 ? std::optional<uint32_t>(args.backup.keep) : std::nullopt};
}

//! --backup-to after a run of files or a range: a backup when there is none yet, or when this run
//! committed something and one is due (BackupDue). False when one was due and failed (said on
//! stderr; the files stay committed).
bool BackUpAfterRun(const IngestArgs& args, Store& store, bool committed) {
  const BackupPolicy policy = PolicyOf(args);
  const auto newest = NewestBackupTime(policy.dir);
  if (newest.ok() && *newest && (!committed || !BackupDue(policy, *newest, NowSeconds()))) return true;
  const auto made = newest.ok() ? BackUpStore(store, policy) : Result<StoreBackup>(newest.status());
  if (!made.ok()) {
    std::fprintf(stderr, "ghsift: --backup-to: %s (the files are committed; the next run backs up)\n",
                 TerminalSafe(made.status().message()).c_str());
    return false;
  }
  if (!args.quiet) std::fprintf(stderr, "ghsift: %s\n", BackupMadeText(*made, policy).c_str());
  return true;
}

//! The message of a 404 for an hour that ended less than --give-up-hours ago: GH Archive publishes
//! an hour some minutes after it ends, and late hours later still. Such an hour is not recorded as
//! missing at the source (which `ingest --follow` would then step over).
constexpr const char* kNotPublishedYet = "not published yet";

void MarkNotPublishedYet(std::vector<FileOutcome>& outcomes, double give_up_hours, int64_t now) {
  for (FileOutcome& o : outcomes) {
    if (o.result != FileResult::kMissing) continue;
    const std::optional<int64_t> hour = HourOfFileName(FileKey(o.path));
    if (hour && !GivenUp(*hour, now, static_cast<int64_t>(give_up_hours * 3600))) o.message = kNotPublishedYet;
  }
}

//! The report events of an ingested file that named no usable report number: each was counted as an
//! event and made no report, which is said as a bad record is (file, line, column, reason).
void PrintWithoutNumber(const FileOutcome& o, const std::string& path) {
  if (o.result != FileResult::kIngested) return;
  for (const BadLine& b : o.without_number) {
    std::fprintf(stderr, "ghsift: %s:%llu:%llu: report event without a usable number, counted as an event, no report: %s\n",
                 path.c_str(), static_cast<unsigned long long>(b.line), static_cast<unsigned long long>(b.column),
                 TerminalSafe(b.reason).c_str());
  }
  if (o.entry.report_events_without_number > o.without_number.size()) {
    std::fprintf(stderr, "ghsift: %s: %llu more report events without a usable number\n", path.c_str(),
                 static_cast<unsigned long long>(o.entry.report_events_without_number - o.without_number.size()));
  }
}

//! A failure's message with its numbers left out: "Failed to connect to ... after 0 ms" and "...
//! after 1 ms" are one cause.
std::string WithoutNumbers(std::string_view message) {
  std::string kind;
  for (const char c : message) {
    if (c < '0' || c > '9') {
      kind += c;
    } else if (kind.empty() || kind.back() != '#') {
      kind += '#';
    }
  }
  return kind;
}

//! What makes two failures of a run alike: the reason, without the file's name and numbers.
std::string FailureKind(const FileOutcome& o) { return WithoutNumbers(FailureReason(o)); }

//! The line of a file that failed: nothing of it was counted.
void PrintFailed(const FileOutcome& o) {
  std::fprintf(stderr, "ghsift: %s: %s (nothing of this file was counted)\n", TerminalSafe(o.path).c_str(),
               TerminalSafe(FailureReason(o)).c_str());
}

//! Under --quiet, a run of files that failed alike names its first few, and the rest in one line:
//! with the source down, a week of catch-up fails every hour the same way, and cron's mail should
//! not list them all. The store records each failure (`stats --coverage` lists them).
void PrintAlikeFailures(const std::vector<const FileOutcome*>& run) {
  constexpr size_t kNamed = 3;
  const size_t named = run.size() <= kNamed + 1 ? run.size() : kNamed;  // one more is named, not summed up
  for (size_t i = 0; i < named; ++i) PrintFailed(*run[i]);
  if (named == run.size()) return;
  std::fprintf(stderr,
               "ghsift: %zu more files failed alike, the first %s, the last %s (nothing of them was counted; "
               "`ghsift stats --coverage` lists each)\n",
               run.size() - named, TerminalSafe(run[named]->path).c_str(), TerminalSafe(run.back()->path).c_str());
}

//! The URLs a run did not ask for once the source gave nothing (FileResult::kNotAsked), in one line.
void PrintNotAsked(const std::vector<const FileOutcome*>& not_asked, size_t source_down_after) {
  if (not_asked.empty()) return;
  const std::string which = not_asked.size() == 1 ? TerminalSafe(not_asked.front()->path)
                                                  : "the first " + TerminalSafe(not_asked.front()->path) +
                                                        ", the last " + TerminalSafe(not_asked.back()->path);
  std::fprintf(stderr,
               "ghsift: the source gave nothing for %zu files in a row (each after its --retries), so %zu more %s "
               "not asked for: %s (nothing of them was counted; the next run asks for them again)\n",
               source_down_after, not_asked.size(), not_asked.size() == 1 ? "was" : "were", which.c_str());
}

//! With `quiet`, what a re-run from cron meets every time is not printed: files and hours already
//! ingested (a dump directory's old hours, a range's hours known by name and not downloaded), hours
//! not published yet (asked for again by the next run), and hours given up on that the store has
//! on record as missing at the source (`recorded_missing`). Hours given up on in this run are
//! said in one line: the run's one word that the store will lack them; files that failed alike
//! one after another, too (PrintAlikeFailures). A file that fails as the store has on record from
//! an earlier run (`recorded_failures`: file key to the message without numbers) is not said again:
//! an hour corrupt at the source, asked for by every run of the catch-up's week, mails once.
//! Returns how many failures it left unsaid as on record.
size_t PrintOutcomes(const std::vector<FileOutcome>& outcomes, bool quiet = false, size_t source_down_after = 0,
                     const std::set<std::string>& recorded_missing = {},
                     const std::map<std::string, std::string>& recorded_failures = {}) {
  size_t unsaid = 0;
  std::vector<std::string> given_up;
  std::vector<const FileOutcome*> not_asked;
  std::vector<const FileOutcome*> alike;  // under quiet: the run of failures not said yet
  std::string alike_kind;                 // its FailureKind
  for (const FileOutcome& o : outcomes) {
    if (quiet && o.result == FileResult::kSkipped) continue;
    if (quiet && o.result == FileResult::kFailed) {
      const auto recorded = recorded_failures.find(FileKey(o.path));
      if (recorded != recorded_failures.end() && recorded->second == WithoutNumbers(o.message)) {
        ++unsaid;
        continue;
      }
      std::string kind = FailureKind(o);
      if (!alike.empty() && kind != alike_kind) {
        PrintAlikeFailures(alike);
        alike.clear();
      }
      alike_kind = std::move(kind);
      alike.push_back(&o);
      continue;
    }
    if (o.result == FileResult::kNotAsked) {  // said in one line, quiet or not
      not_asked.push_back(&o);
      continue;
    }
    PrintAlikeFailures(alike);  // a run ends at any other outcome
    alike.clear();
    if (quiet && o.result == FileResult::kMissing) {
      if (o.message != kNotPublishedYet && !recorded_missing.count(FileKey(o.path))) given_up.push_back(FileKey(o.path));
      continue;
    }
    const std::string path = TerminalSafe(o.path);  // a file name is anyone's text
    if (o.result == FileResult::kFailed) {
      PrintFailed(o);
    } else if (o.result == FileResult::kMissing && o.message == kNotPublishedYet) {
      std::fprintf(stderr, "ghsift: %s: not published yet (the hour ended less than --give-up-hours ago); not "
                   "recorded as missing: the next run asks again\n", path.c_str());
    } else if (o.result == FileResult::kMissing) {
      std::fprintf(stderr, "ghsift: %s: not published at the source; recorded (stats --coverage)\n", path.c_str());
    } else if (o.result == FileResult::kSkipped) {
      std::fprintf(stderr, "ghsift: %s: skipped, %s\n", path.c_str(), TerminalSafe(o.message).c_str());
    } else if (o.result == FileResult::kIngested && !o.message.empty()) {
      std::fprintf(stderr, "ghsift: %s: %s\n", path.c_str(), TerminalSafe(o.message).c_str());  // an empty hour
    }
    for (const BadLine& b : o.bad_lines) {
      std::fprintf(stderr, "ghsift: %s:%llu:%llu: bad record skipped: %s\n", path.c_str(),
                   static_cast<unsigned long long>(b.line), static_cast<unsigned long long>(b.column),
                   TerminalSafe(b.reason).c_str());
    }
    if (o.result == FileResult::kIngested && o.entry.bad_lines > o.bad_lines.size()) {
      std::fprintf(stderr, "ghsift: %s: %llu more bad records skipped\n", path.c_str(),
                   static_cast<unsigned long long>(o.entry.bad_lines - o.bad_lines.size()));
    }
    PrintWithoutNumber(o, path);
  }
  PrintAlikeFailures(alike);
  PrintNotAsked(not_asked, source_down_after);
  if (given_up.empty()) return unsaid;
  const std::string which = given_up.size() == 1 ? TerminalSafe(given_up.front())
                                                 : "the first " + TerminalSafe(given_up.front()) + ", the last " +
                                                       TerminalSafe(given_up.back());
  std::fprintf(stderr,
               "ghsift: %s not published at the source --give-up-hours after %s ended: given up on and recorded as "
               "missing (`ghsift stats --coverage` lists them): %s\n",
               given_up.size() == 1 ? "1 hour" : (std::to_string(given_up.size()) + " hours").c_str(),
               given_up.size() == 1 ? "it" : "they", which.c_str());
  return unsaid;
}

int RunFollowIngest(const IngestArgs& args, Store& store, IngestPipeline& pipeline, const HttpOptions& http) {
  FollowOptions follow;
  follow.base_url = args.remote.source;
  follow.poll_seconds = args.follow.poll_seconds;
  follow.give_up_seconds = static_cast<int64_t>(args.give_up_hours * 3600);
  follow.stop = &g_stop;
  if (!args.remote.from.empty()) {
    const auto from = ParseHourSpan(args.remote.from, "--from", NowSeconds());
    if (!from.ok()) return Fail(from.status().message());
    // The follower counts hours by their files' names (UTC ones, in the archive it follows).
    follow.first_hour = from->file_hour.value_or(from->first);
  } else {
    auto start = DefaultFollowStart(store, NowSeconds());
    if (!start.ok()) return Fail(start.status().message());
    follow.first_hour = *start;
  }
  const bool quiet = args.quiet;
  follow.say = [quiet](const std::string& line) {
    if (!quiet) std::fprintf(stderr, "%s\n", line.c_str());
  };
  follow.warn = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  follow.on_ingested = [](const FileOutcome& outcome) { PrintOutcomes({outcome}); };
  if (!args.backup.to.empty()) follow.backup = PolicyOf(args);
  follow.say("ghsift: following " + args.remote.source + " from " + FormatHour(follow.first_hour) + " into " + args.store +
             " (asking for an hour when it ends, again every " + std::to_string(args.follow.poll_seconds) +
             " s while it is not published; stop with SIGINT or SIGTERM)");
  // Said at once when the source cannot be reached (a wrong address, no network), instead of
  // waiting quietly; the follower goes on, as the network may come back.
  HttpOptions probe = http;
  probe.stop = &g_stop;  // a stop during the check ends it at once
  const Status reached = CheckFollowSource(args.remote.source, follow.first_hour, probe);
  if (!reached.ok() && !g_stop) {
    follow.source_reached = false;
    follow.warn("ghsift: follow: cannot reach the source " + args.remote.source + ": " + TerminalSafe(reached.message()) +
                "; following anyway (each hour is asked for again when due; check the address and the network)");
  }
  const auto summary = RunFollow(store, pipeline, follow);
  if (!summary.ok()) return Fail(summary.status().message());
  const int signal = g_stop_signal.load();
  const std::string abandoned =
      summary->hours_abandoned == 0 ? std::string()
                                    : "; " + std::to_string(summary->hours_abandoned) + " hour" +
                                          (summary->hours_abandoned == 1
                                               ? " was in flight, abandoned with nothing of it counted"
                                               : "s were in flight, abandoned with nothing of them counted");
  std::fprintf(stderr,
               "ghsift: follow stopped by %s at %s (the oldest hour not read yet%s): %llu hour%s ingested in this "
               "run (%s events), %llu recorded missing at source, %llu given up as failed; `ingest --follow` "
               "without --from resumes there\n",
               signal == SIGINT ? "SIGINT" : "SIGTERM", FormatHour(summary->next_hour).c_str(), abandoned.c_str(),
               static_cast<unsigned long long>(summary->hours_ingested), summary->hours_ingested == 1 ? "" : "s",
               WithCommas(summary->events).c_str(), static_cast<unsigned long long>(summary->hours_missing),
               static_cast<unsigned long long>(summary->hours_failed));
  return kExitOk;
}

//! The combinations of options that make no sense together, said before anything is read.
Status CheckCombinations(const IngestArgs& args) {
  if (args.store.empty()) return Status::InvalidArgument("ingest needs --store DIR (or --partial DIR)");
  const IngestArgs::Remote& remote = args.remote;
  if (args.replace && (args.follow.on || args.mpi || !remote.from.empty() || !remote.to.empty())) {
    return Status::InvalidArgument(
        "--replace takes the good copies as files or URLs; not with --follow, --mpi or --from/--to");
  }
  if (args.follow.on) {
    if (!args.inputs.empty()) return Status::InvalidArgument("--follow reads the hours from --source; it takes no files or URLs");
    if (!remote.to.empty()) {
      return Status::InvalidArgument(
          "--follow runs until stopped; it takes no --to (use --from/--to without --follow for a range)");
    }
    if (args.mpi) return Status::InvalidArgument("--follow cannot run under --mpi");
    if (!IsHttpUrl(remote.source)) {
      return Status::InvalidArgument("--source must be an http:// or https:// URL, not '" + remote.source + "'");
    }
    // The hours are added as they end (RunFollow); only --from is checked here.
    if (!remote.from.empty()) GHSIFT_TRY(ParseHourSpan(remote.from, "--from", NowSeconds()).status());
  } else if (args.follow.poll_given) {
    return Status::InvalidArgument("--poll-seconds goes with --follow (a range asks for each hour once)");
  }
  if (!remote.from.empty() || !remote.to.empty()) {
    if (remote.from.empty()) return Status::InvalidArgument("--to needs --from");
  }
  if (!remote.catch_up.empty()) {
    if (remote.from.empty() || args.follow.on || args.mpi) {
      return Status::InvalidArgument("--catch-up goes with a range (--from/--to), not with --follow or --mpi");
    }
    GHSIFT_TRY(ParseHourSpan(remote.catch_up, "--catch-up", NowSeconds()).status());
  }
  if (remote.save_given && remote.save_dumps.empty()) return Status::InvalidArgument("--save-dumps needs a directory");
  if (!args.backup.to.empty() && (args.partial || args.mpi)) {
    return Status::InvalidArgument("--backup-to backs up a store; not with --partial or --mpi (back up the store "
                                   "the partials are merged into)");
  }
  if (args.backup.to.empty() && (args.backup.every_given || args.backup.keep_given)) {
    return Status::InvalidArgument("--backup-every-hours and --backup-keep go with --backup-to");
  }
  if (remote.source_down_given && (args.follow.on || args.mpi)) {
    return Status::InvalidArgument("--source-down-after goes with a range or URLs: --follow asks again at its own pace, "
                                   "and --mpi hands out files one by one");
  }
  return Status::Ok();
}

//! The files and URLs to read: those named (directories opened), then the hours of --from/--to.
Result<std::vector<std::string>> CollectInputs(const IngestArgs& args) {
  auto files = ResolveInputs(args.inputs, args.recursive);
  if (!files.ok()) return files.status();
  const IngestArgs::Remote& remote = args.remote;
  if (!args.follow.on && !remote.from.empty()) {
    std::string note;
    auto urls = HourUrls(remote.from, remote.to, remote.source, NowSeconds(), &note);
    if (!urls.ok()) return urls.status();
    if (!note.empty() && !args.quiet) std::fprintf(stderr, "%s\n", note.c_str());
    files->insert(files->end(), urls->begin(), urls->end());
  }
  if (files->empty() && !args.follow.on) {
    return Status::InvalidArgument("nothing to ingest: name files, directories or URLs, or a range with --from/--to");
  }
  return files;
}

//! --catch-up: puts the hours from the store's newest to the range's first before the range's,
//! as far back as the option says. False when older hours are left out: said with the command
//! that reads them, so that an outage longer than the catch-up is not lost quietly.
Result<bool> AddCatchUpHours(const IngestArgs& args, const Store& store, std::vector<std::string>& files) {
  const int64_t now = NowSeconds();
  GHSIFT_ASSIGN_OR_RETURN(const HourSpan limit, ParseHourSpan(args.remote.catch_up, "--catch-up", now));
  GHSIFT_ASSIGN_OR_RETURN(const HourSpan from, ParseHourSpan(args.remote.from, "--from", now));
  GHSIFT_ASSIGN_OR_RETURN(const std::set<int64_t> held, StoredHours(store));
  const auto file_hour = [](const HourSpan& span) {
    return span.file_hour.value_or(FileHourOfUtcHour(span.first).value_or(span.first));
  };
  const CatchUp caught = CatchUpHours(held, file_hour(from), file_hour(limit), args.remote.source);
  files.insert(files.begin(), caught.urls.begin(), caught.urls.end());
  if (caught.left_last < caught.left_first) return true;
  const std::string first = FormatHour(caught.left_first), last = FormatHour(caught.left_last);
  // The command that reads them asks the same source (a mirror's URL, when one was given).
  const std::string source = args.remote.source == IngestArgs::Remote{}.source
                                 ? ""
                                 : " --source " + TerminalSafe(args.remote.source);
  std::fprintf(stderr,
               "ghsift: --catch-up %s: the store's newest hour is %s; the %lld hours %s to %s are older than "
               "that and not asked for: `ghsift ingest --store %s%s --from %s --to %s` reads them\n",
               TerminalSafe(args.remote.catch_up).c_str(), FormatHour(*held.rbegin()).c_str(),
               static_cast<long long>(caught.left_last - caught.left_first + 1), first.c_str(), last.c_str(),
               TerminalSafe(args.store).c_str(), source.c_str(), first.c_str(), last.c_str());
  return false;
}

//! The pipeline's options; creates the --save-dumps directory.
Result<IngestOptions> OptionsFor(const IngestArgs& args, bool remote_inputs) {
  const IngestArgs::Tuning& tuning = args.tuning;
  const IngestArgs::Remote& remote = args.remote;
  IngestOptions options;
  options.threads = tuning.threads;
  options.splitter.chunk_bytes = tuning.chunk_mib << 20;
  options.splitter.max_line_bytes = tuning.max_line_mib << 20;
  options.commit_group_bytes = tuning.commit_mib << 20;
  options.commit_group_seconds = tuning.commit_seconds;
  options.keep_text = args.keep_text;
  options.verify = args.verify;
  options.replace = args.replace;
  if (remote_inputs) options.max_open_files = std::max<size_t>(remote.connections, 1);
  // A range or a catch-up stops asking a source that gives nothing. --follow keeps its own pace
  // (each hour asked again later), and an MPI run's ranks are handed files one by one.
  if (remote_inputs && !args.follow.on && !args.mpi) options.unanswered_limit = remote.source_down_after;
  options.http.buffer_bytes = BufferBytesFor(remote.connections);
  options.http.retries = remote.retries;
  options.http.max_bytes = remote.max_hour_mib << 20;
  options.http.stall_seconds = remote.stall_seconds;
  options.http.user_agent = "ghsift/" + std::string(GhsiftVersion());
  options.save_dumps_dir = remote.save_dumps;
  if (!remote.save_dumps.empty()) {
    if (!remote_inputs) {
      return Status::InvalidArgument("--save-dumps keeps copies of downloaded hours; these inputs are all local files");
    }
    std::error_code ec;
    std::filesystem::create_directories(remote.save_dumps, ec);
    if (ec) return Status::IoError("--save-dumps " + remote.save_dumps + ": cannot create the directory: " + ec.message());
  }
  options.stop = &g_stop;
  return options;
}

//! How many files of a run ended each way, and what the ingested ones held.
struct RunTally {
  uint64_t ingested = 0, skipped = 0, failed = 0, stopped = 0, missing = 0, unpublished = 0, not_asked = 0;
  uint64_t events = 0, bad_lines = 0, without_number = 0, bytes = 0;
};

RunTally TallyOf(const std::vector<FileOutcome>& outcomes) {
  RunTally t;
  for (const FileOutcome& o : outcomes) {
    switch (o.result) {
      case FileResult::kIngested:
        ++t.ingested;
        t.events += o.entry.events;
        t.bad_lines += o.entry.bad_lines;
        t.without_number += o.entry.report_events_without_number;
        t.bytes += o.entry.decoded_bytes;
        break;
      case FileResult::kSkipped: ++t.skipped; break;
      case FileResult::kStopped: ++t.stopped; break;
      case FileResult::kNotAsked: ++t.not_asked; break;
      case FileResult::kMissing: ++(o.message == kNotPublishedYet ? t.unpublished : t.missing); break;
      default: ++t.failed; break;
    }
  }
  return t;
}

//! Keeps this run's failures and counts in the store (for `stats` and the next run). Returns
//! how many could not be written, each said: such a run fails.
size_t RecordOutcomes(Store& store, const std::vector<FileOutcome>& outcomes, const RunTally& tally,
                      const IngestArgs& args) {
  size_t unrecorded = 0;
  auto record = [&](const Status& status) {
    if (status.ok()) return;
    ++unrecorded;
    std::fprintf(stderr, "ghsift: %s: cannot record this run's outcome: %s\n", args.store.c_str(),
                 status.message().c_str());
  };
  for (const FileOutcome& o : outcomes) {
    // A replacement that fails leaves the copy on record as it was: not a failed file. Neither is
    // a file refused because its name is ingested with other content: that hour is in the store.
    if (o.result == FileResult::kFailed && !args.replace && !o.name_held) {
      record(store.RecordFailure(FileKey(o.path), o.message));
    }
    if (o.result == FileResult::kMissing && o.message != kNotPublishedYet) {
      record(store.RecordFailure(FileKey(o.path), std::string(kMissingAtSource) + ": " + o.path));
    }
  }
  if (tally.skipped > 0) record(store.AddStat("skipped_files", static_cast<int64_t>(tally.skipped)));
  if (tally.failed > 0) record(store.AddStat("failed_files", static_cast<int64_t>(tally.failed)));
  return unrecorded;
}

void PrintSummary(const RunTally& t, double seconds, const std::string& store_path, uint64_t disk_bytes) {
  // Rates only when something was read: "0 B/s, 0k events/s" says nothing.
  std::string rates;
  if (seconds > 0 && t.bytes > 0) {
    const double per_second = t.events / seconds;
    char events_rate[32];
    if (per_second >= 1000) std::snprintf(events_rate, sizeof events_rate, "%.0fk", per_second / 1000);
    else std::snprintf(events_rate, sizeof events_rate, "%.0f", per_second);
    rates = " (" + HumanBytes(t.bytes / seconds) + "/s, " + events_rate + " events/s)";
  }
  const std::string not_read = (t.missing > 0 ? ", " + std::to_string(t.missing) + " missing at source" : std::string()) +
                               (t.unpublished > 0 ? ", " + std::to_string(t.unpublished) + " not published yet"
                                                  : std::string()) +
                               (t.not_asked > 0 ? ", " + std::to_string(t.not_asked) + " not asked for" : std::string());
  // Only when there are some: the archive's hours have none, and the line is long enough.
  const std::string without_number =
      t.without_number > 0 ? ", " + WithCommas(t.without_number) + " report events without a usable number" : "";
  std::fprintf(stderr,
               "ghsift: ingested %llu file%s (%llu skipped, %llu failed%s): %s events, %s bad lines%s, %s uncompressed "
               "in %.2f s%s into %s (%s on disk).\n",
               static_cast<unsigned long long>(t.ingested), t.ingested == 1 ? "" : "s",
               static_cast<unsigned long long>(t.skipped), static_cast<unsigned long long>(t.failed), not_read.c_str(),
               WithCommas(t.events).c_str(), WithCommas(t.bad_lines).c_str(), without_number.c_str(),
               HumanBytes(static_cast<double>(t.bytes)).c_str(), seconds, rates.c_str(), store_path.c_str(),
               HumanBytes(static_cast<double>(disk_bytes)).c_str());
}

//! Where a run's time went (--timings): its fixed costs (before main: loading the shared
//! libraries; the rules; the store's opening) beside the work, so a short run shows them.
struct RunTimes {
  std::chrono::steady_clock::time_point setup_start = std::chrono::steady_clock::now();
  double rules = 0, open = 0, pipeline = 0;  // open: on its own thread, beside the rules (StoreOpening)
  double last_commit = 0;                    // the part of `pipeline` after its last chunk
  SettleTimes settle;

  static double Since(std::chrono::steady_clock::time_point from) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count();
  }
  void Print() const {
    std::fprintf(stderr,
                 "ghsift: timings: start %.3f s CPU (shared libraries), rules %.3f s, store open %.3f s; "
                 "read, parse, scan and commit %.3f s (the commit after the last chunk %.3f s); %s; total %.3f s\n",
                 CpuSecondsBeforeMain(), rules, open, pipeline, last_commit, SettleTimesText(settle).c_str(),
                 Since(setup_start));
  }
};

//! Reads the given files and hours into the store: the pipeline, the rollup refresh, what the
//! store keeps of the run, and what the user is told.
int RunFiles(const IngestArgs& args, Store& store, IngestPipeline& pipeline, const std::vector<std::string>& files,
             RunTimes& times) {
  IngestProgress progress;
  const auto start = std::chrono::steady_clock::now();
  std::vector<FileOutcome> outcomes;
  {
    ProgressDisplay display(progress, !args.quiet && ::isatty(STDERR_FILENO));
    outcomes = pipeline.Run(files, &progress);
  }
  times.pipeline = RunTimes::Since(start);
  times.last_commit = static_cast<double>(progress.last_commit_ns.load()) / 1e9;
  // Recount the reports this run touched into the rollup (or build it, for a store that has none
  // or one of an older layout). After a stop request the user wants out: readers count stale
  // reports themselves, and the next run refreshes.
  const bool committed = std::any_of(outcomes.begin(), outcomes.end(),
                                     [](const FileOutcome& o) { return o.result == FileResult::kIngested; });
  Status refreshed = Status::Ok();
  if (!g_stop) {
    refreshed = SettleStore(store, committed, &times.settle);
  } else if (committed) {
    refreshed = store.Finish();
  }
  const double seconds = RunTimes::Since(start);
  MarkNotPublishedYet(outcomes, args.give_up_hours, NowSeconds());
  std::set<std::string> recorded_missing;  // what --quiet's filter reads; read for it only
  std::map<std::string, std::string> recorded_failures;
  if (args.quiet) {
    for (const auto& [name, reason] : store.Failures()) {
      if (IsMissingAtSource(reason)) {
        recorded_missing.insert(name);
      } else {
        recorded_failures.emplace(name, WithoutNumbers(reason));
      }
    }
  }
  const size_t unsaid =
      PrintOutcomes(outcomes, args.quiet, args.remote.source_down_after, recorded_missing, recorded_failures);
  if (unsaid > 0 && ::isatty(STDERR_FILENO)) {
    // Run by hand, a quiet run whose every failure is on record would show only its status: cron
    // mails nothing for them, but a person at a terminal is told.
    std::fprintf(stderr, "ghsift: %zu file%s failed again as on record from an earlier run, not said again under "
                 "--quiet (`ghsift stats --coverage` lists %s)\n", unsaid, unsaid == 1 ? "" : "s",
                 unsaid == 1 ? "it" : "them");
  }
  const RunTally tally = TallyOf(outcomes);
  const size_t unrecorded = RecordOutcomes(store, outcomes, tally, args);
  if (!args.quiet) PrintSummary(tally, seconds, args.store, store.DiskBytes());
  if (args.timings) times.Print();
  if (!refreshed.ok()) {
    std::fprintf(stderr,
                 "ghsift: after the commits: %s (the files are committed and queries stay exact; the next "
                 "ingest refreshes it)\n",
                 refreshed.message().c_str());
    return kExitError;
  }
  // Not after a stop request: the run is to end now.
  const bool backed_up = args.backup.to.empty() || g_stop || BackUpAfterRun(args, store, tally.ingested > 0);
  if (g_stop) {
    const int signal = g_stop_signal.load();
    // Stopped after the last commit, nothing is left to finish: the command need not run again.
    const std::string rest = tally.stopped == 0
                                 ? "none left unfinished"
                                 : std::to_string(tally.stopped) +
                                       " not finished (nothing of them counted; run the same command again to finish)";
    std::fprintf(stderr, "ghsift: stopped by %s: %llu files committed, %s\n", signal == SIGINT ? "SIGINT" : "SIGTERM",
                 static_cast<unsigned long long>(tally.ingested), rest.c_str());
    return 128 + signal;
  }
  return tally.failed > 0 || tally.not_asked > 0 || unrecorded > 0 || !backed_up ? kExitError : kExitOk;
}

//! The store, opened on another thread while the rules load: RocksDB's open (15-20 ms) and the
//! rules' (about 40 ms: YAML, the Hyperscan database) do not depend on each other, and a run
//! pays both before it reads a byte. A store this run creates is removed again when the run ends
//! before using it (a bad rule file, a bad option), so that such a mistake leaves nothing
//! behind, as when the store was opened after the rules.
class StoreOpening {
 public:
  explicit StoreOpening(const std::string& path) : path_(path) {
    std::error_code ec;
    created_dir_ = !std::filesystem::exists(path_, ec);
    created_store_ = created_dir_ || (std::filesystem::is_directory(path_, ec) && std::filesystem::is_empty(path_, ec));
    opening_ = std::async(std::launch::async, [this] {
      const auto start = std::chrono::steady_clock::now();
      auto store = Store::Open(path_, StoreMode::kReadWrite);
      seconds_ = RunTimes::Since(start);
      return store;
    });
  }
  StoreOpening(const StoreOpening&) = delete;
  StoreOpening& operator=(const StoreOpening&) = delete;
  ~StoreOpening() {
    if (opening_.valid()) Abandon();
  }

  //! The opened store (or why not) and how long the opening took.
  Result<std::unique_ptr<Store>> Take(double* seconds) {
    auto store = opening_.get();
    *seconds = seconds_;
    return store;
  }

 private:
  //! The run ended before it used the store: close it, and remove what this run created.
  void Abandon() {
    auto store = opening_.get();
    if (!store.ok() || !created_store_) return;
    store->reset();
    std::error_code ec;
    if (created_dir_) {
      std::filesystem::remove_all(path_, ec);
      return;
    }
    for (const auto& entry : std::filesystem::directory_iterator(path_, ec)) std::filesystem::remove_all(entry.path(), ec);
  }

  std::string path_;
  bool created_dir_ = false, created_store_ = false;
  double seconds_ = 0;
  std::future<Result<std::unique_ptr<Store>>> opening_;
};

int RunIngest(const IngestArgs& args) {
  // Installed before anything slow (rule compilation, opening the store), so that a signal at
  // any moment ends with the same clean stop and message.
  std::signal(SIGINT, OnStopSignal);
  std::signal(SIGTERM, OnStopSignal);
  const Status combination = CheckCombinations(args);
  if (!combination.ok()) return Fail(combination.message());
  // A backup directory that cannot be one is said before anything is read, not after the commits.
  // (A missing one is said when the backup is due: it may be a backup disk not mounted for now,
  // which is no reason to stop ingesting.)
  if (!args.backup.to.empty()) {
    const Status backups = CheckBackupDirectory(args.backup.to, /*may_be_new=*/true);
    if (!backups.ok()) return Fail("--backup-to: " + backups.message());
  }
  auto files = CollectInputs(args);
  if (!files.ok()) return Fail(files.status().message());
  RunTimes times;
  std::optional<StoreOpening> opening;
  if (!args.mpi) opening.emplace(args.store);  // an MPI run's ranks open their own partial stores
  auto rules = LoadRules(args.rules);
  if (!rules.ok()) return Fail(rules.status().message());
  times.rules = RunTimes::Since(times.setup_start);
  auto repos = LoadRepoFilter(args.all_repos, args.repos);
  if (!repos.ok()) return Fail(repos.status().message());
  const bool remote_inputs = args.follow.on || std::any_of(files->begin(), files->end(), [](const std::string& f) {
                               return IsHttpUrl(f);
                             });
  auto options = OptionsFor(args, remote_inputs);
  if (!options.ok()) return Fail(options.status().message());
  if (args.mpi) return RunMpiIngest({args.store, *files, *rules, args.rules, *repos, *options, args.quiet});

  auto store = opening->Take(&times.open);
  // Another ingest holding the store is not an error of this run, which read nothing and can be
  // run again (the cron script skips quietly on that status).
  if (!store.ok()) return FailOpening(store.status());
  (*store)->set_table_file_min_bytes(args.tuning.table_file_mib << 20);
  const Status scope = CheckStoreScope(**store, (*rules)->rules(), *repos, args.keep_text);
  if (!scope.ok()) return Fail(scope.message());
  const Status layers = RecordRuleLayers(**store, args.rules);
  if (!layers.ok()) return Fail(layers.message());
  bool caught_up = true;
  if (!args.remote.catch_up.empty()) {
    auto added = AddCatchUpHours(args, **store, *files);
    if (!added.ok()) return Fail(added.status().message());
    caught_up = *added;
  }
  IngestPipeline pipeline(**store, *rules, *repos, *options);
  if (args.follow.on) return RunFollowIngest(args, **store, pipeline, options->http);
  const int code = RunFiles(args, **store, pipeline, *files, times);
  return code == kExitOk && !caught_up ? kExitError : code;
}

}  // namespace

void AddIngestCommand(CLI::App& command, int& exit_code) {
  auto args = std::make_shared<IngestArgs>();
  CLI::App* cmd = &command;
  auto* store = cmd->add_option("--store", args->store, "Store directory (created if missing)");
  auto* partial = cmd->add_option("--partial", args->store,
                                  "Write a partial store for `ghsift merge` (the map step on a cluster); "
                                  "the same as --store, named for the job scripts");
  store->excludes(partial);
  partial->excludes(store);

  cmd->add_option("inputs", args->inputs,
                  "Dump files, directories of them (read in name order), or http(s):// URLs of hours");
  cmd->add_flag("--verify", args->verify,
                "Re-hash files already in the store instead of trusting their name, size and modification time");
  cmd->add_flag("--replace", args->replace,
                "Each input is a good copy of a file the store holds with bad lines (same name): what the bad "
                "copy added is taken out and the good copy added, atomically, as if only it had been ingested");
  cmd->add_flag("--recursive,-r", args->recursive, "Directories: take the dumps of their subdirectories too");
  cmd->add_option("--from", args->remote.from, "Read the GH Archive hours from this one: YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH, YYYY-MM-DD-H or 7d");
  cmd->add_option("--to", args->remote.to, "... to this one, inclusive (a day or a month: all its hours; default: --from, or now after a span such as 7d)");
  cmd->add_flag("--follow", args->follow.on,
                "Keep going: catch up to the newest published hour (from --from, else where the store ends), then "
                "read each next hour as it is published, until SIGINT/SIGTERM (exit 0)");
  CLI::Option* poll = cmd->add_option("--poll-seconds", args->follow.poll_seconds,
                                      "--follow: ask again this often for an hour that has ended and is not published "
                                      "yet (every 15 min once it is an hour late)")
                          ->capture_default_str()
                          ->check(CountCheck(1, 86400));
  cmd->add_option("--give-up-hours", args->give_up_hours,
                  "An hour still not published this long after it ended is recorded as missing at source (a range "
                  "leaves a younger one unrecorded, for the next run); --follow also gives up on a failing one")
      ->capture_default_str()
      ->check(NumberCheck(0, 720));
  cmd->add_option("--catch-up", args->remote.catch_up,
                  "With --from: also read the hours from the store's newest to the range, as far back as this "
                  "(a span such as 7d, or a time); older ones are named, with exit 2 (the cron script's catch-up "
                  "after an outage)");
  cmd->add_option("--source", args->remote.source, "Base URL the hours are read from (a GH Archive mirror)")
      ->capture_default_str();
  cmd->add_option("--connections", args->remote.connections, "Hours downloaded at once")
      ->capture_default_str()
      ->check(CountCheck(1, 64));
  cmd->add_option("--retries", args->remote.retries, "Further attempts at a failed transfer, with backoff")
      ->capture_default_str()
      ->check(CountCheck(0, 100));
  CLI::Option* source_down = cmd->add_option("--source-down-after", args->remote.source_down_after,
                  "After this many hours in a row gave nothing (not a byte, not a 404), each after its --retries, "
                  "the hours left are not asked for in this run; the next run asks for them (0: ask for every hour; "
                  "not with --follow or --mpi)")
      ->capture_default_str()
      ->check(CountCheck(0, 1000000));
  CLI::Option* save =
      cmd->add_option("--save-dumps", args->remote.save_dumps,
                      "Keep a copy of each downloaded hour in this directory (one that fails as NAME.failed)");
  cmd->add_option("--max-hour-mib", args->remote.max_hour_mib, "A downloaded hour larger than this fails")
      ->capture_default_str()
      ->check(CountCheck(1, 1 << 22));
  cmd->add_option("--stall-seconds", args->remote.stall_seconds, "A transfer with no byte for this long is retried")
      ->capture_default_str()
      ->check(CountCheck(1, 3600));
  AddRulesOption(*cmd, args->rules);
  cmd->add_option("--repos", args->repos, "Tracked repositories, one per line: owner/name [id:N] [former: owner/name...] (default: rules/repos.txt)");
  cmd->add_flag("--all-repos", args->all_repos, "Keep issue state for every repository");
  cmd->add_option("--threads", args->tuning.threads, "Worker threads (default: all cores)")->check(CountCheck(0, 1024));
  cmd->add_option("--chunk-mib", args->tuning.chunk_mib, "Decoded MiB per pipeline chunk")
      ->capture_default_str()
      ->check(CountCheck(1, 256));
  cmd->add_flag("--timings", args->timings,
                "Print where the time went (pipeline, rollup refresh, final flush), also with --quiet");
  cmd->add_option("--commit-mib", args->tuning.commit_mib,
                  "Commit finished files together until this many decoded MiB (one atomic batch; 0: each file "
                  "alone). A stop or crash loses at most one group, read again by the next run")
      ->capture_default_str()
      ->check(CountCheck(0, 1 << 20));
  cmd->add_option("--commit-seconds", args->tuning.commit_seconds,
                  "Also commit a group once its first file has waited this long, so that a long range shows in "
                  "the store while it runs (0: no time limit)")
      ->capture_default_str()
      ->check(NumberCheck(0, 86400));
  cmd->add_option("--table-file-mib", args->tuning.table_file_mib,
                  "Commits of at least this many MiB of keys enter the store as table files, smaller ones "
                  "through its log (0: always table files)")
      ->capture_default_str()
      ->check(CountCheck(0, 1 << 20));
  cmd->add_option("--max-line-mib", args->tuning.max_line_mib, "Longer lines are skipped as bad lines")
      ->capture_default_str()
      ->check(CountCheck(1, 1024));
  cmd->add_flag("--quiet,-q", args->quiet,
                "No progress line and no summary; files and hours already ingested, and hours not published yet, "
                "go unsaid (failures are always printed; --follow still says why and where it stopped)");
  cmd->add_flag("--mpi", args->mpi,
                "Run under mpirun/srun: rank 0 hands out files, the other ranks ingest them into partial stores "
                "that rank 0 merges");
  cmd->add_option("--backup-to", args->backup.to,
                  "After the commits, back the store up into this directory (which must exist; `ghsift backup`) "
                  "when none there is of this period of --backup-every-hours; --follow: after a round's commits");
  CLI::Option* every = cmd->add_option("--backup-every-hours", args->backup.every_hours,
                                       "--backup-to: at most one backup per period this long, counted from 00:00 UTC "
                                       "(24: one a day; 0: after every run or round that committed)")
                           ->capture_default_str()
                           ->check(NumberCheck(0, 24 * 366));
  CLI::Option* keep = cmd->add_option("--backup-keep", args->backup.keep,
                                      "--backup-to: keep the newest N backups there, removing older ones")
                          ->type_name("UINT:N >= 1")
                          ->check(CountCheck(1, 1000000));
  cmd->add_flag("--keep-text", args->keep_text,
                "Keep the text of every event of tracked reports (compressed) so `ghsift rescan` can re-apply "
                "changed rules (the latest text of flagged reports is kept without it, for `sample`)");
  cmd->callback([args, poll, save, source_down, partial, every, keep, &exit_code] {
    args->follow.poll_given = poll->count() > 0;
    args->partial = partial->count() > 0;
    args->backup.every_given = every->count() > 0;
    args->backup.keep_given = keep->count() > 0;
    args->remote.save_given = save->count() > 0;
    args->remote.source_down_given = source_down->count() > 0;
    exit_code = RunIngest(*args);
  });
}

}  // namespace ghsift::cli
