// End to end: IngestPipeline::Run over several generated hours (.json.gz, all repositories) into
// a fresh store, with 1 and 2 threads. Bytes/s are uncompressed bytes, items/s events.
// Reference in the same run: GzipDecoder alone over the same files (one thread), the
// decompression limit a single-threaded ingest cannot beat.
#include "bench/micro/bench_common.hpp"
#include "pipelines/ingest_pipeline.hpp"
#include "pipelines/store_scope.hpp"

namespace ghsift::bench {
namespace {

int Hours() {
  if (const char* v = std::getenv("GHSIFT_BENCH_HOURS")) return std::max(1, std::atoi(v));
  return 4;
}

const Corpus& GzCorpus() {
  static Corpus c("gz", Hours(), EventsPerHour(10000));
  return c;
}

struct Data {
  RuleSet rules;
  std::shared_ptr<const RuleDatabase> db;
};
const Data& TheData() {
  static Data* d = [] {
    auto* data = new Data;
    auto rules = LoadRuleSet(std::string(GHSIFT_SOURCE_DIR) + "/rules");
    Check(rules.ok(), rules.status().message());
    data->rules = *rules;
    auto db = RuleDatabase::Compile(*rules);
    Check(db.ok(), db.status().message());
    data->db = *db;
    return data;
  }();
  return *d;
}

std::filesystem::path FreshDir() {
  static int n = 0;
  auto dir = std::filesystem::temp_directory_path() /
             ("ghsift-bench-pipeline-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
  std::filesystem::remove_all(dir);
  return dir;
}

//! One ingest into a fresh store; returns the outcomes (the store is closed on return).
std::vector<FileOutcome> Ingest(const std::filesystem::path& dir, int threads, benchmark::State* state) {
  auto store = Store::Open(dir.string(), StoreMode::kReadWrite);
  Check(store.ok(), store.status().message());
  const Status scope = CheckStoreScope(**store, TheData().rules, RepoFilter::All());
  Check(scope.ok(), scope.message());
  IngestOptions options;
  options.threads = threads;
  IngestPipeline pipeline(**store, TheData().db, RepoFilter::All(), options);
  if (state != nullptr) state->ResumeTiming();
  auto outcomes = pipeline.Run(GzCorpus().files);
  store->reset();  // closing flushes: part of an ingest, as in the CLI
  if (state != nullptr) state->PauseTiming();
  return outcomes;
}

void BM_IngestPipeline(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    const auto dir = FreshDir();
    const auto outcomes = Ingest(dir, threads, &state);
    for (const auto& o : outcomes)
      if (o.result != FileResult::kIngested) state.SkipWithError(("not ingested: " + o.message).c_str());
    std::filesystem::remove_all(dir);
    state.ResumeTiming();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * GzCorpus().summary.bytes_uncompressed));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * GzCorpus().summary.events));
}

void BM_GzipDecodeOnly(benchmark::State& state) {
  std::vector<char> out(1 << 20);
  for (auto _ : state) {
    uint64_t total = 0;
    for (const auto& path : GzCorpus().files) {
      auto decoder = OpenDecoder(path);
      Check(decoder.ok(), decoder.status().message());
      for (;;) {
        auto n = (*decoder)->Decode(out);
        Check(n.ok(), n.status().message());
        if (*n == 0) break;
        total += *n;
      }
    }
    benchmark::DoNotOptimize(total);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * GzCorpus().summary.bytes_uncompressed));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * GzCorpus().summary.events));
}

BENCHMARK(BM_GzipDecodeOnly)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_IngestPipeline)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

//! Before timing: one ingest with 2 threads takes every file, with the generator's event and
//! byte counts, and no bad lines.
void Verify() {
  const auto dir = FreshDir();
  const auto outcomes = Ingest(dir, 2, nullptr);
  std::filesystem::remove_all(dir);
  uint64_t events = 0, bytes = 0;
  for (const auto& o : outcomes) {
    Check(o.result == FileResult::kIngested, o.path + ": " + o.message);
    Check(o.entry.bad_lines == 0, o.path + ": unexpected bad lines");
    events += o.entry.events;
    bytes += o.entry.decoded_bytes;
  }
  Check(events == GzCorpus().TruthEvents(), "ingested events != truth.json events");
  Check(bytes == GzCorpus().summary.bytes_uncompressed, "decoded bytes != generator's uncompressed bytes");
  std::printf("verified: %zu files, %llu events, %.1f MB uncompressed ingested as generated\n", outcomes.size(),
              static_cast<unsigned long long>(events), static_cast<double>(bytes) / 1e6);
}

}  // namespace
}  // namespace ghsift::bench

int main(int argc, char** argv) {
  ghsift::bench::Verify();
  ghsift::bench::RatioReporter reporter({
      {"ingest 1 thread / gzip decode only", "BM_IngestPipeline/1/min_time:2.000/real_time",
       "BM_GzipDecodeOnly/real_time", "reference: the decompression limit"},
      {"ingest 2 threads / gzip decode only", "BM_IngestPipeline/2/min_time:2.000/real_time",
       "BM_GzipDecodeOnly/real_time", ""},
      {"ingest 2 threads / 1 thread", "BM_IngestPipeline/2/min_time:2.000/real_time",
       "BM_IngestPipeline/1/min_time:2.000/real_time", "time < 1: parallel speedup"},
  });
  return ghsift::bench::RunWithRatios(argc, argv, reporter);
}
