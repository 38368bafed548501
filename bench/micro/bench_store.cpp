// Stage 7, store: Store::CommitFile of one real file aggregate (one generated hour, built the way
// ingest builds it: LineSplitter chunks -> ChunkWorker -> Combine) into a fresh RocksDB store,
// and RunQuery (issues by repo, category performance; events by type) over a store holding it.
// Bytes/s and items/s count the file's uncompressed bytes and events.
#include <map>

#include "bench/micro/bench_common.hpp"
#include "common/time_util.hpp"
#include "pipelines/chunk_worker.hpp"
#include "pipelines/store_scope.hpp"
#include "query/query.hpp"
#include "rules/decision.hpp"

namespace ghsift::bench {
namespace {

struct Data {
  RuleSet rules;
  FileAggregate aggregate;
  FileEntry entry;
  std::string name;
  std::filesystem::path query_store;  //!< a store holding the file, for the query benchmarks
};

const Corpus& GzCorpus() {
  static Corpus c("gz", 1, EventsPerHour());
  return c;
}

Data& TheData() {
  static Data* d = [] {
    auto* data = new Data;
    const std::string path = GzCorpus().files.front();
    auto rules = LoadRuleSet(std::string(GHSIFT_SOURCE_DIR) + "/rules");
    Check(rules.ok(), rules.status().message());
    data->rules = *rules;
    auto db = RuleDatabase::Compile(*rules);
    Check(db.ok(), db.status().message());
    const RepoFilter repos = RepoFilter::All();
    LineSplitterOptions options;
    ChunkWorker worker(*db, repos, options.max_line_bytes);
    auto decoder = OpenDecoder(path);
    Check(decoder.ok(), decoder.status().message());
    LineSplitter splitter(std::move(*decoder), options);
    Chunk chunk;
    for (;;) {
      auto more = splitter.Next(chunk);
      Check(more.ok(), more.status().message());
      if (!*more) break;
      FileAggregate local;
      worker.Process(chunk, local);
      data->aggregate.Combine(std::move(local));
    }
    data->aggregate.ResolveLineNumbers();
    data->aggregate.AddBytes(splitter.decoded_bytes());
    data->entry.size = std::filesystem::file_size(path);
    data->entry.decoded_bytes = splitter.decoded_bytes();
    data->entry.events = data->aggregate.events();
    data->entry.bad_lines = data->aggregate.bad_lines();
    data->entry.ingested_at = 1700000000;
    data->name = std::filesystem::path(path).filename().string();
    return data;
  }();
  return *d;
}

std::filesystem::path FreshDir(const std::string& tag) {
  static int n = 0;
  auto dir = std::filesystem::temp_directory_path() /
             ("ghsift-bench-store-" + std::to_string(::getpid()) + "-" + tag + "-" + std::to_string(n++));
  std::filesystem::remove_all(dir);
  return dir;
}

std::unique_ptr<Store> OpenStore(const std::filesystem::path& dir) {
  auto store = Store::Open(dir.string(), StoreMode::kReadWrite);
  Check(store.ok(), store.status().message());
  const Status scope = CheckStoreScope(**store, TheData().rules, RepoFilter::All());
  Check(scope.ok(), scope.message());
  return std::move(*store);
}

//! CommitFile alone: opening the fresh store and closing it are outside the timing.
void BM_CommitFile(benchmark::State& state) {
  const Data& d = TheData();
  for (auto _ : state) {
    state.PauseTiming();
    const auto dir = FreshDir("commit");
    auto store = OpenStore(dir);
    state.ResumeTiming();
    const Status s = store->CommitFile(d.name, d.entry, d.aggregate);
    state.PauseTiming();
    if (!s.ok()) state.SkipWithError(s.message().c_str());
    store.reset();
    std::filesystem::remove_all(dir);
    state.ResumeTiming();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * d.entry.decoded_bytes));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * d.entry.events));
  state.counters["issues"] = static_cast<double>(d.aggregate.issues().size());
  state.counters["counters"] = static_cast<double>(d.aggregate.counters().size());
}

//! CommitFile plus closing the store (RocksDB flushes the memtable on close): the durable cost.
void BM_CommitFileAndClose(benchmark::State& state) {
  const Data& d = TheData();
  for (auto _ : state) {
    state.PauseTiming();
    const auto dir = FreshDir("close");
    auto store = OpenStore(dir);
    state.ResumeTiming();
    const Status s = store->CommitFile(d.name, d.entry, d.aggregate);
    store.reset();
    state.PauseTiming();
    if (!s.ok()) state.SkipWithError(s.message().c_str());
    std::filesystem::remove_all(dir);
    state.ResumeTiming();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * d.entry.decoded_bytes));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * d.entry.events));
}

std::unique_ptr<Store> QueryStore() {
  auto store = Store::Open(TheData().query_store.string(), StoreMode::kReadWrite);
  Check(store.ok(), store.status().message());
  return std::move(*store);
}

QueryOptions PerfByRepo() {
  QueryOptions q;
  q.metric = Metric::kIssues;
  q.dimensions = {"repo"};
  q.category = "performance";
  return q;
}
QueryOptions EventsByType() {
  QueryOptions q;
  q.metric = Metric::kEvents;
  q.dimensions = {"type"};
  return q;
}

void RunQueryBench(benchmark::State& state, const QueryOptions& q) {
  auto store = QueryStore();
  size_t rows = 0;
  for (auto _ : state) {
    auto table = RunQuery(*store, q);
    if (!table.ok()) state.SkipWithError(table.status().message().c_str());
    rows = table->rows.size();
    benchmark::DoNotOptimize(rows);
  }
  state.counters["rows"] = static_cast<double>(rows);
}
void BM_RunQuery_PerfIssuesByRepo(benchmark::State& state) { RunQueryBench(state, PerfByRepo()); }
void BM_RunQuery_EventsByType(benchmark::State& state) { RunQueryBench(state, EventsByType()); }

BENCHMARK(BM_CommitFile)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_CommitFileAndClose)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_RunQuery_PerfIssuesByRepo)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_RunQuery_EventsByType)->Unit(benchmark::kMillisecond)->UseRealTime();

//! Before timing: the query store answers what the aggregate says directly. Performance issues
//! per repo = issue records (kind issue) whose rule ids the decision model flags `performance`,
//! under the repo's latest name; events per type = truth.json's events_by_type.
void Verify() {
  Data& d = TheData();
  d.query_store = FreshDir("query");
  {
    auto store = OpenStore(d.query_store);
    const Status s = store->CommitFile(d.name, d.entry, d.aggregate);
    Check(s.ok(), s.message());
  }
  auto store = QueryStore();
  const DecisionModel model = DecisionModel::FromRuleSet(d.rules);
  std::map<std::string, int64_t> want;
  for (const auto& [key, record] : d.aggregate.issues()) {
    if (record.kind != 0) continue;
    const auto flagged = model.Flagged(record.rules);
    if (std::find(flagged.begin(), flagged.end(), "performance") == flagged.end()) continue;
    ++want[d.aggregate.repo_names().at(key.repo_id).name];
  }
  auto table = RunQuery(*store, PerfByRepo());
  Check(table.ok(), table.status().message());
  std::map<std::string, int64_t> got;
  for (size_t i = 0; i < table->rows.size(); ++i) got[table->rows[i][0]] += table->counts[i];
  Check(!want.empty(), "no performance issues in the corpus: the query benchmark would be empty");
  Check(got == want, "RunQuery(performance by repo) differs from the aggregate's own decision");

  auto types = RunQuery(*store, EventsByType());
  Check(types.ok(), types.status().message());
  std::map<std::string, uint64_t> by_type;
  for (size_t i = 0; i < types->rows.size(); ++i) by_type[types->rows[i][0]] += static_cast<uint64_t>(types->counts[i]);
  auto truth = GzCorpus().TruthEventsByType();
  std::erase_if(truth, [](const auto& kv) { return kv.second == 0; });
  Check(by_type == truth, "RunQuery(events by type) differs from truth.json");
  int64_t perf = 0;
  for (const auto& [k, v] : got) perf += v;
  std::printf("verified: store answers %lld performance issues in %zu repos and %zu event types as expected\n",
              static_cast<long long>(perf), got.size(), by_type.size());
}

}  // namespace
}  // namespace ghsift::bench

int main(int argc, char** argv) {
  ghsift::bench::Verify();
  ghsift::bench::RatioReporter reporter({
      {"commit+close / commit", "BM_CommitFileAndClose/min_time:1.000/real_time", "BM_CommitFile/min_time:1.000/real_time", ""},
  });
  const int rc = ghsift::bench::RunWithRatios(argc, argv, reporter);
  std::error_code ec;
  std::filesystem::remove_all(ghsift::bench::TheData().query_store, ec);
  return rc;
}
