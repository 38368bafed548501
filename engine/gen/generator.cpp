#include "gen/generator.hpp"

#include <atomic>
#include <exception>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "common/result.hpp"
#include "gen/civil_time.hpp"
#include "gen/compressed_writer.hpp"
#include "gen/hour_writer.hpp"
#include "gen/issue_plan.hpp"
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
  if (o.threads < 0) return Status::InvalidArgument("gen: threads must be >= 0");
  return Status::Ok();
}

Status WriteTextFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) return Status::IoError(path + ": cannot write");
  return Status::Ok();
}

Status GenerateUnchecked(const GenOptions& options, GenSummary* summary) {
  GHSIFT_TRY(CheckOptions(options));
  GHSIFT_ASSIGN_OR_RETURN(const int64_t corpus_start, ParseStartHour(options.start_hour));
  GHSIFT_ASSIGN_OR_RETURN(const Compression compression, ParseCompression(options.compress));
  GHSIFT_TRY(CheckLevel(compression, options.level));
  std::error_code ec;
  std::filesystem::create_directories(options.out_dir, ec);
  if (ec) return Status::IoError(options.out_dir + ": cannot create directory: " + ec.message());

  // Everything random that spans hours is decided here, before any thread starts.
  const World world = World::Build(options.seed, corpus_start, options.hours);
  const Plan plan = PlanReports(world, options);

  std::vector<HourJob> jobs(static_cast<size_t>(options.hours));
  CorpusCounts counts;
  for (int h = 0; h < options.hours; ++h) {
    HourJob& job = jobs[static_cast<size_t>(h)];
    job.world = &world;
    job.plan = &plan;
    job.options = &options;
    job.compression = compression;
    job.hour = h;
    counts.files.push_back(HourFileStem(corpus_start + int64_t{3600} * h) + FileExtension(compression));
    job.path = (std::filesystem::path(options.out_dir) / counts.files.back()).string();
  }

  std::vector<HourResult> results(jobs.size());
  unsigned threads = options.threads > 0 ? static_cast<unsigned>(options.threads) : std::thread::hardware_concurrency();
  threads = std::max(1u, std::min(threads, static_cast<unsigned>(jobs.size())));
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next.fetch_add(1); i < jobs.size(); i = next.fetch_add(1)) results[i] = WriteHour(jobs[i]);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();

  GenSummary total;
  for (const HourResult& r : results) {
    if (!r.status.ok()) return r.status;
    ++total.files;
    total.events += r.events;
    total.bytes_uncompressed += r.bytes_uncompressed;
    total.bytes_written += r.bytes_written;
    counts.events += r.events;
    counts.bad_lines += r.bad_lines;
    for (size_t t = 0; t < kEventTypeCount; ++t) counts.by_type[t] += r.by_type[t];
  }
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
