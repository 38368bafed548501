#include "gen/generator.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "common/result.hpp"
#include "gen/civil_time.hpp"
#include "gen/compressed_writer.hpp"
#include "gen/hour_writer.hpp"
#include "gen/issue_plan.hpp"
#include "gen/profile.hpp"
#include "gen/schemas.hpp"
#include "gen/truth.hpp"
#include "gen/world.hpp"

namespace ghsift::gen {

namespace {

Status CheckOptions(const GenOptions& o) {
  if (o.out_dir.empty()) return Status::InvalidArgument("gen: an output directory is required");
  if (o.hours < 1 || o.hours > 24 * 366 * 20) return Status::InvalidArgument("gen: hours must be >= 1");
  if (o.events_per_hour < 0 || o.events_per_hour > 50000000) {
    return Status::InvalidArgument("gen: events_per_hour must be >= 0");
  }
  if (o.bad_lines_per_file < 0) return Status::InvalidArgument("gen: bad_lines_per_file must be >= 0");
  if (!(o.tracked_share >= 0.0 && o.tracked_share <= 1.0)) {
    return Status::InvalidArgument("gen: tracked_share must be within [0, 1]");
  }
  if (!(o.lifecycle_share <= 1.0)) return Status::InvalidArgument("gen: lifecycle_share must be within [0, 1]");
  if (!(o.pr_share <= 1.0)) return Status::InvalidArgument("gen: pr_share must be within [0, 1]");
  if (!(o.pre_corpus_share <= 1.0)) return Status::InvalidArgument("gen: pre_corpus_share must be within [0, 1]");
  if (o.threads < 0) return Status::InvalidArgument("gen: threads must be >= 0");
  if (FindSchema(o.schema) == nullptr) {
    return Status::InvalidArgument("gen: schema must be " + SchemaNames() + ", got '" + o.schema + "'");
  }
  if (o.schema == "timeline-2012" &&
      (o.bad_lines_per_file > 0 || o.quirk_joined > 0 || o.quirk_nul > 0 || o.quirk_duplicates > 0)) {
    return Status::InvalidArgument(
        "gen: schema timeline-2012 writes each hour as one line of glued records; it takes no bad lines or quirks");
  }
  if (!o.profile.empty()) {
    if (FindProfile(o.profile) == nullptr) {
      return Status::InvalidArgument("gen: profile must be one of " + ProfileNames() + ", got '" + o.profile + "'");
    }
    if (o.schema != "modern") {
      return Status::InvalidArgument("gen: profile " + o.profile + " describes Events API hours; it needs schema modern, got '" +
                                     o.schema + "'");
    }
  }
  if (o.quirk_joined < 0 || o.quirk_nul < 0 || o.quirk_duplicates < 0) {
    return Status::InvalidArgument("gen: quirk counts must be >= 0");
  }
  if (o.quirk_duplicates > 0 && (o.schema == "legacy" || o.schema == "timeline")) {
    return Status::InvalidArgument("gen: duplicate events need event ids, which the legacy schema has not");
  }
  std::vector<char> kind(static_cast<size_t>(o.hours), 0);
  for (const auto* list : {&o.quirk_missing_hours, &o.quirk_single_event_hours}) {
    const char mark = list == &o.quirk_missing_hours ? 1 : 2;
    for (const int h : *list) {
      if (h < 0 || h >= o.hours) {
        return Status::InvalidArgument("gen: hour index " + std::to_string(h) + " is outside [0, " +
                                       std::to_string(o.hours) + ")");
      }
      if (kind[static_cast<size_t>(h)] != 0 && kind[static_cast<size_t>(h)] != mark) {
        return Status::InvalidArgument("gen: hour " + std::to_string(h) + " cannot be both missing and single-event");
      }
      kind[static_cast<size_t>(h)] = mark;
    }
  }
  return Status::Ok();
}

Status WriteTextFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) return Status::IoErrorFromErrno(path + ": cannot write");
  return Status::Ok();
}

// The options with every "unset" value replaced by the profile's or the fixed default.
GenOptions Resolve(const GenOptions& given, const Profile* profile) {
  GenOptions o = given;
  if (profile != nullptr) {
    if (o.start_hour.empty()) o.start_hour = profile->start_hour;
    if (o.lifecycle_share < 0) o.lifecycle_share = profile->lifecycle_share;
    if (o.pr_share < 0) o.pr_share = profile->pr_share;
    if (o.pre_corpus_share < 0) o.pre_corpus_share = profile->pre_corpus_share;
  }
  if (o.pr_share < 0) o.pr_share = kDefaultPrShare;
  if (o.pre_corpus_share < 0) o.pre_corpus_share = kDefaultPreCorpusShare;
  return o;
}

Status GenerateUnchecked(const GenOptions& given, GenSummary* summary) {
  GHSIFT_TRY(CheckOptions(given));
  const Profile* profile = given.profile.empty() ? nullptr : FindProfile(given.profile);
  const GenOptions options = Resolve(given, profile);
  // CheckOptions knows the schema.
  const std::string start_hour =
      options.start_hour.empty() ? std::string(FindSchema(options.schema)->start_hour) : options.start_hour;
  GHSIFT_ASSIGN_OR_RETURN(const int64_t corpus_start, ParseStartHour(start_hour));
  GHSIFT_ASSIGN_OR_RETURN(const Compression compression, ParseCompression(options.compress));
  GHSIFT_TRY(CheckLevel(compression, options.level));
  std::error_code ec;
  std::filesystem::create_directories(options.out_dir, ec);
  if (ec) return Status::IoError(options.out_dir + ": cannot create directory: " + ec.message());

  // Everything random that spans hours is decided here, before any thread starts.
  const World world = World::Build(options.seed, corpus_start, options.hours);
  const Plan plan = PlanReports(world, options);

  std::vector<char> missing(static_cast<size_t>(options.hours), 0), single(static_cast<size_t>(options.hours), 0);
  for (const int h : options.quirk_missing_hours) missing[static_cast<size_t>(h)] = 1;
  for (const int h : options.quirk_single_event_hours) single[static_cast<size_t>(h)] = 1;
  std::vector<HourJob> jobs;
  CorpusCounts counts;
  for (int h = 0; h < options.hours; ++h) {
    // Timeline-era files are named by the US-Pacific local hour of their events.
    const int64_t hour_start = corpus_start + int64_t{3600} * h;
    const bool pacific = options.schema == "timeline" || options.schema == "timeline-2012";
    const std::string stem =
        HourFileStem(pacific ? hour_start + int64_t{60} * PacificOffsetMinutes(hour_start) : hour_start);
    if (missing[static_cast<size_t>(h)]) {
      counts.missing_hours.push_back(stem);
      continue;
    }
    if (single[static_cast<size_t>(h)]) counts.single_event_hours.push_back(stem);
    HourJob& job = jobs.emplace_back();
    job.world = &world;
    job.plan = &plan;
    job.options = &options;
    job.profile = profile;
    job.compression = compression;
    job.hour = h;
    job.single_event = single[static_cast<size_t>(h)] != 0;
    counts.files.push_back(stem + FileExtension(compression));
    job.path = (std::filesystem::path(options.out_dir) / counts.files.back()).string();
  }

  std::vector<HourResult> results(jobs.size());
  unsigned threads = options.threads > 0 ? static_cast<unsigned>(options.threads) : std::thread::hardware_concurrency();
  threads = std::max(1u, std::min(threads, static_cast<unsigned>(std::max<size_t>(jobs.size(), 1))));
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next.fetch_add(1); i < jobs.size(); i = next.fetch_add(1)) results[i] = WriteHour(jobs[i]);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();

  GenSummary total;
  counts.lifecycle_written.assign(static_cast<size_t>(options.hours), 0);
  for (size_t i = 0; i < results.size(); ++i) {
    const HourResult& r = results[i];
    if (!r.status.ok()) return r.status;
    const int hour = jobs[i].hour;
    counts.lifecycle_written[static_cast<size_t>(hour)] = r.lifecycle_written;
    if (r.events > 0) {
      if (counts.first_hour < 0) counts.first_hour = hour;
      counts.last_hour = hour;
    }
    counts.modern_events += r.modern_events;
    counts.legacy_events += r.legacy_events;
    counts.joined_records += r.joined_records;
    counts.duplicate_events += r.duplicate_events;
    counts.nul_lines += r.nul_lines;
    ++total.files;
    total.events += r.events;
    total.bytes_uncompressed += r.bytes_uncompressed;
    total.bytes_written += r.bytes_written;
    counts.events += r.events;
    counts.bad_lines += r.bad_lines;
    for (size_t t = 0; t < kEventTypeCount; ++t) counts.by_type[t] += r.by_type[t];
    counts.reviewed_prs.Merge(r.reviewed_prs);  // results are in hour order
  }
  counts.view = options.schema == "events-2011" ? TextView::kEvents2011
                : options.schema == "slim-2025"  ? TextView::kSlim2025
                                                 : TextView::kFull;
  const std::string truth_path = (std::filesystem::path(options.out_dir) / "truth.json").string();
  GHSIFT_TRY(WriteTextFile(truth_path, BuildTruthJson(world, plan, counts)));
  if (summary != nullptr) *summary = total;
  return Status::Ok();
}

}  // namespace

Status Generate(const GenOptions& options, GenSummary* summary) {
  // The library never lets an exception escape (std::thread, filesystem and allocation throw).
  try {
    return GenerateUnchecked(options, summary);
  } catch (const std::exception& e) {
    return Status::IoError(std::string("gen: ") + e.what());
  }
}

}  // namespace ghsift::gen
