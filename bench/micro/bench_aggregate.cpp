// Stage 6, aggregation: FileAggregate::CountEvent over every event of one generated hour,
// AddReport over every report (with the rule ids the default rules matched), and Combine of
// chunk aggregates into a file aggregate (argument = number of chunks the hour is cut into).
// Events are extracted and scanned once beforehand and kept as owned copies.
#include <set>

#include "aggregate/event_type_table.hpp"
#include "aggregate/file_aggregate.hpp"
#include "bench/micro/bench_common.hpp"
#include "json/event_extractor.hpp"
#include "rules/report_scan.hpp"
#include "rules/rule_database.hpp"

namespace ghsift::bench {
namespace {

//! An Event whose views point into strings it owns (the address never moves: held by pointer).
struct OwnedEvent {
  std::string type, repo_name, action, state;
  std::array<std::string, kFieldCount> texts;  //!< by Field
  std::vector<std::string> labels;
  std::vector<std::string> rule_ids;  //!< what the default rules matched (reports only)
  Event event;

  explicit OwnedEvent(const Event& e) : type(e.type), repo_name(e.repo_name) {
    event = e;
    event.type = type;
    event.repo_name = repo_name;
    if (e.has_report) {
      action = e.report.action;
      for (size_t f = 0; f < texts.size(); ++f) texts[f] = e.report.text.by_id[f];
      state = e.report.state;
      for (std::string_view l : e.report.labels) labels.emplace_back(l);
      event.report.action = action;
      for (size_t f = 0; f < texts.size(); ++f) event.report.text.by_id[f] = texts[f];
      event.report.state = state;
      event.report.labels.assign(labels.begin(), labels.end());
    }
  }
};

struct Data {
  std::vector<std::unique_ptr<OwnedEvent>> events;
  std::vector<const OwnedEvent*> reports;
  uint64_t bytes = 0;
};

const Corpus& GzCorpus() {
  static Corpus c("gz", 1, EventsPerHour());
  return c;
}

Data& TheData() {
  static Data* d = [] {
    auto* data = new Data;
    Lines lines(DecodeWhole(GzCorpus().files.front()));
    data->bytes = lines.bytes;
    auto rules = LoadRuleSet(std::string(GHSIFT_SOURCE_DIR) + "/rules");
    Check(rules.ok(), rules.status().message());
    auto db = RuleDatabase::Compile(*rules);
    Check(db.ok(), db.status().message());
    Scanner scanner(*db);
    ReportScan scan(scanner);
    MatchSet matches;
    EventExtractor extractor;
    Event event;
    for (std::string_view line : lines.lines) {
      Check(extractor.Extract(line, event) == ExtractOutcome::kEvent, "bad line");
      auto owned = std::make_unique<OwnedEvent>(event);
      if (event.has_report && event.report.number > 0) {
        // As ChunkWorker::ScanReport scans it.
        matches.Clear();
        scan.Scan(ViewOf(owned->event.report), matches);
        for (uint32_t id : matches.ids()) owned->rule_ids.push_back((*db)->rules().rules[id].id);
        data->reports.push_back(owned.get());
      }
      data->events.push_back(std::move(owned));
    }
    return data;
  }();
  return *d;
}

void BM_CountEvent(benchmark::State& state) {
  const Data& d = TheData();
  for (auto _ : state) {
    FileAggregate aggregate;
    for (const auto& e : d.events) aggregate.CountEvent(e->event);
    benchmark::DoNotOptimize(aggregate.events());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * d.events.size()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * d.bytes));
}

void BM_AddReport(benchmark::State& state) {
  const Data& d = TheData();
  for (auto _ : state) {
    FileAggregate aggregate;
    for (const OwnedEvent* e : d.reports) aggregate.AddReport(e->event, e->rule_ids);  // copies, as ingest builds them
    benchmark::DoNotOptimize(aggregate.reports());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * d.reports.size()));
}

//! The hour cut into `parts` contiguous runs of events, each aggregated like one chunk.
std::vector<FileAggregate> ChunkAggregates(size_t parts) {
  const Data& d = TheData();
  std::vector<FileAggregate> out(parts);
  for (size_t i = 0; i < d.events.size(); ++i) {
    FileAggregate& a = out[i * parts / d.events.size()];
    const OwnedEvent& e = *d.events[i];
    a.CountEvent(e.event);
    if (e.event.has_report && e.event.report.number > 0) a.AddReport(e.event, e.rule_ids);
  }
  return out;
}

void BM_Combine(benchmark::State& state) {
  const std::vector<FileAggregate> parts = ChunkAggregates(static_cast<size_t>(state.range(0)));
  uint64_t entries = 0;
  for (const auto& p : parts) entries += p.counters().size() + p.issues().size() + p.repo_names().size();
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<FileAggregate> copy = parts;
    FileAggregate file;
    state.ResumeTiming();
    for (auto& p : copy) file.Combine(std::move(p));
    benchmark::DoNotOptimize(file.events());
    state.PauseTiming();
    copy.clear();  // destruction is not part of the fold
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * entries));
  state.counters["entries"] = static_cast<double>(entries);
}

BENCHMARK(BM_CountEvent)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AddReport)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Combine)->Arg(4)->Arg(16)->Unit(benchmark::kMillisecond)->UseRealTime();

bool SameAggregate(const FileAggregate& a, const FileAggregate& b) {
  if (a.counters() != b.counters() || a.issues() != b.issues() || a.events() != b.events() ||
      a.reports() != b.reports() || a.repo_names().size() != b.repo_names().size())
    return false;
  for (const auto& [id, name] : a.repo_names()) {
    const RepoName* other = b.repo_names().Find(id);
    if (other == nullptr || other->name != name.name || other->time != name.time) return false;
  }
  return true;
}

//! Before timing: per-type counts equal truth.json; the issue map has one record per distinct
//! (repo, number); combining chunk aggregates (in either order) equals aggregating at once.
void Verify() {
  const Data& d = TheData();
  FileAggregate whole;
  std::set<std::pair<int64_t, int64_t>> distinct;
  for (const auto& e : d.events) {
    whole.CountEvent(e->event);
    if (e->event.has_report && e->event.report.number > 0) {
      whole.AddReport(e->event, e->rule_ids);
      distinct.emplace(e->event.repo_id, e->event.report.number);
    }
  }
  Check(whole.events() == GzCorpus().TruthEvents(), "CountEvent: events != truth.json");
  std::map<std::string, uint64_t> by_type;
  whole.counters().ForEach(
      [&](const CounterKey& key, uint64_t n) { by_type[std::string(EventTypeName(key.type_id))] += n; });
  for (const auto& [name, counters] : whole.unknown_types())
    for (const auto& [key, n] : counters) by_type[name] += n;
  auto truth = GzCorpus().TruthEventsByType();
  std::erase_if(truth, [](const auto& kv) { return kv.second == 0; });
  Check(by_type == truth, "counters by type differ from truth.json events_by_type");
  Check(whole.issues().size() == distinct.size(), "issue records != distinct (repo, number) of the reports");
  for (size_t parts : {4, 16}) {
    std::vector<FileAggregate> chunks = ChunkAggregates(parts);
    FileAggregate forward, backward;
    std::vector<FileAggregate> copy = chunks;
    for (auto& c : chunks) forward.Combine(std::move(c));
    for (auto it = copy.rbegin(); it != copy.rend(); ++it) backward.Combine(std::move(*it));
    Check(SameAggregate(forward, whole), "Combine of " + std::to_string(parts) + " chunks != one aggregate");
    Check(SameAggregate(backward, whole), "Combine in reverse order differs");
  }
  std::printf("verified: %zu events (= truth.json per type), %zu reports -> %zu issue records; Combine "
              "of 4/16 chunks in both orders equals one aggregate\n",
              d.events.size(), d.reports.size(), whole.issues().size());
}

}  // namespace
}  // namespace ghsift::bench

int main(int argc, char** argv) {
  ghsift::bench::Verify();
  ghsift::bench::RatioReporter reporter({
      {"Combine 16 chunks / CountEvent all", "BM_Combine/16/real_time", "BM_CountEvent/real_time", ""},
      {"AddReport all / CountEvent all", "BM_AddReport/real_time", "BM_CountEvent/real_time", ""},
  });
  return ghsift::bench::RunWithRatios(argc, argv, reporter);
}
