// Stage 4, event extraction: EventExtractor::Extract over every line of one generated hour (type
// prefilter on), and split into the two paths: the lines parsed in full (IssuesEvent,
// IssueCommentEvent, PullRequestEvent) and the lines whose envelope is read from the bytes.
// Reference in the same run: plain simdjson On-Demand reading the envelope (type, repo.id,
// repo.name, created_at) of every line, i.e. what extraction would cost without the prefilter.
#include <map>

#include "bench/micro/bench_common.hpp"
#include "common/time_util.hpp"
#include "json/event_extractor.hpp"

namespace ghsift::bench {
namespace {

struct Data {
  Lines lines;
  std::vector<std::string_view> full;   //!< lines of the three fully parsed types
  std::vector<std::string_view> fast;   //!< all other lines
  uint64_t full_bytes = 0, fast_bytes = 0;
  explicit Data(std::string decoded) : lines(std::move(decoded)) {}
};

const Corpus& GzCorpus() {
  static Corpus c("gz", 1, EventsPerHour());
  return c;
}
Data& TheData() {
  static Data* d = [] {
    auto* data = new Data(DecodeWhole(GzCorpus().files.front()));
    EventExtractor extractor;
    Event event;
    for (std::string_view line : data->lines.lines) {
      Check(extractor.Extract(line, event) == ExtractOutcome::kEvent, std::string("bad line: ") + extractor.error());
      if (event.kind == EventKind::kOther) {
        data->fast.push_back(line);
        data->fast_bytes += line.size() + 1;
      } else {
        data->full.push_back(line);
        data->full_bytes += line.size() + 1;
      }
    }
    return data;
  }();
  return *d;
}

void RunExtract(benchmark::State& state, const std::vector<std::string_view>& lines, uint64_t bytes) {
  EventExtractor extractor;
  Event event;
  uint64_t reports = 0;
  for (auto _ : state) {
    for (std::string_view line : lines) {
      if (extractor.Extract(line, event) != ExtractOutcome::kEvent) state.SkipWithError("bad line");
      reports += event.has_report;
    }
    benchmark::DoNotOptimize(reports);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * lines.size()));
}

void BM_Extract_All(benchmark::State& state) {
  const Data& d = TheData();
  RunExtract(state, d.lines.lines, d.lines.bytes);
}
void BM_Extract_FullParseLines(benchmark::State& state) {
  const Data& d = TheData();
  RunExtract(state, d.full, d.full_bytes);
}
void BM_Extract_PrefilterLines(benchmark::State& state) {
  const Data& d = TheData();
  RunExtract(state, d.fast, d.fast_bytes);
}

//! The reference envelope reader: simdjson On-Demand on every line.
struct Envelope {
  std::string_view type, repo_name;
  int64_t repo_id = 0, created_at = 0;
};
bool ReadEnvelope(simdjson::ondemand::parser& parser, std::string_view line, Envelope& e) {
  simdjson::ondemand::document doc;
  if (parser.iterate(line.data(), line.size(), line.size() + simdjson::SIMDJSON_PADDING).get(doc)) return false;
  simdjson::ondemand::object obj;
  if (doc.get_object().get(obj)) return false;
  // Fields are looked up in document order (type, ..., repo, ..., created_at) so one pass suffices.
  if (obj["type"].get_string().get(e.type)) return false;
  simdjson::ondemand::object repo;
  if (obj["repo"].get_object().get(repo)) return false;
  if (repo["id"].get_int64().get(e.repo_id)) return false;
  if (repo["name"].get_string().get(e.repo_name)) return false;
  std::string_view created;
  if (obj["created_at"].get_string().get(created)) return false;
  auto t = ParseIsoTime(created);
  if (!t) return false;
  e.created_at = *t;
  return true;
}

void BM_SimdjsonEnvelope_All(benchmark::State& state) {
  const Data& d = TheData();
  simdjson::ondemand::parser parser;
  Envelope e;
  uint64_t sum = 0;
  for (auto _ : state) {
    for (std::string_view line : d.lines.lines) {
      if (!ReadEnvelope(parser, line, e)) state.SkipWithError("reference parse failed");
      sum += static_cast<uint64_t>(e.repo_id);
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * d.lines.bytes));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * d.lines.lines.size()));
}

BENCHMARK(BM_Extract_All)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Extract_FullParseLines)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Extract_PrefilterLines)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SimdjsonEnvelope_All)->Unit(benchmark::kMillisecond)->UseRealTime();

//! Before timing: counts per type equal the generator's truth, and every envelope the extractor
//! returns (fast path or full parse) equals what plain simdjson reads from the line.
void Verify() {
  const Corpus& corpus = GzCorpus();
  const Data& d = TheData();
  EventExtractor extractor;
  simdjson::ondemand::parser parser;
  Event event;
  Envelope ref;
  std::map<std::string, uint64_t> by_type;
  uint64_t events = 0, reports = 0;
  for (std::string_view line : d.lines.lines) {
    Check(extractor.Extract(line, event) == ExtractOutcome::kEvent, "bad line");
    Check(ReadEnvelope(parser, line, ref), "reference parser rejects a line the extractor accepted");
    Check(ref.type == event.type && ref.repo_id == event.repo_id && ref.repo_name == event.repo_name &&
              ref.created_at == event.created_at,
          "envelope differs from simdjson's: " + std::string(line.substr(0, 120)));
    ++by_type[std::string(event.type)];
    ++events;
    reports += event.has_report;
  }
  Check(events == corpus.TruthEvents(), "events != truth.json events");
  Check(events == corpus.summary.events, "events != generator summary");
  auto truth = corpus.TruthEventsByType();
  std::erase_if(truth, [](const auto& kv) { return kv.second == 0; });
  Check(by_type == truth, "per-type event counts differ from truth.json events_by_type");
  std::printf("verified: %llu events; per-type counts equal truth.json; envelopes equal simdjson's\n",
              static_cast<unsigned long long>(events));
  std::printf("full-parse path: %zu of %zu lines (%.1f%%), %.1f%% of bytes; %llu carry a report\n", d.full.size(),
              d.lines.lines.size(), 100.0 * static_cast<double>(d.full.size()) / static_cast<double>(d.lines.lines.size()),
              100.0 * static_cast<double>(d.full_bytes) / static_cast<double>(d.lines.bytes),
              static_cast<unsigned long long>(reports));
}

}  // namespace
}  // namespace ghsift::bench

int main(int argc, char** argv) {
  ghsift::bench::Verify();
  ghsift::bench::RatioReporter reporter({
      {"extract all / simdjson envelope", "BM_Extract_All/real_time", "BM_SimdjsonEnvelope_All/real_time",
       "reference: On-Demand on every line"},
      {"full-parse lines: share of extract time", "BM_Extract_FullParseLines/real_time", "BM_Extract_All/real_time",
       "time A/B = share of the whole"},
      {"prefilter lines: share of extract time", "BM_Extract_PrefilterLines/real_time", "BM_Extract_All/real_time",
       "time A/B = share of the whole"},
  });
  return ghsift::bench::RunWithRatios(argc, argv, reporter);
}
