// Stage 5, rule scan: the default rules (GHSIFT_SOURCE_DIR/rules) over the report fields of one
// generated hour's issue, comment and pull-request events, as ingest scans them.
//
//   BM_ReportScan        ReportScan::Scan per report (markdown split + one Hyperscan scan per field)
//   BM_ScannerOnly       Scanner::Scan over fields split beforehand (Hyperscan alone)
//   BM_SplitMarkdown     the markdown split alone (RuleTextSplitter)
//   BM_EraseTemplatePrompts  the template prompts' search alone, over the split prose
//   BM_ScanWithoutRule/i ReportScan with a database lacking rule i; marginal cost of rule i is
//                        BM_ReportScan - BM_ScanWithoutRule/i (printed after the run). Only the
//                        --marginal_top=N rules (default 10; -1 = all, 0 = none) with the highest
//                        stand-alone scan time in a quick pre-pass get one.
// Bytes/s count scanned text (every field: title, body, comments, labels, ...).
//
// Before timing: a re-scan yields identical MatchSets, and the set of matched rules of every
// report equals the union of one-rule-at-a-time Hyperscan databases over the rule's fields.
#include <algorithm>
#include <chrono>
#include <cstring>

#include "bench/micro/bench_common.hpp"
#include "json/event_extractor.hpp"
#include "json/report_text.hpp"
#include "json/template_prompts.hpp"
#include "rules/report_scan.hpp"
#include "rules/rule_database.hpp"
#include "rules/scanner.hpp"

namespace ghsift::bench {
namespace {

//! One report's fields, owned, plus the views ReportScan takes.
struct OwnedReport {
  ReportText text;
  ReportTextViews views;
  //! Split as ReportScan splits them (for the Hyperscan-only benchmark and the reference).
  std::vector<std::pair<Field, std::string>> split;

  explicit OwnedReport(ReportText owned) : text(std::move(owned)), views(text) {
    RuleTextSplitter splitter;
    const auto add = [&](Field f, std::string_view t) { split.emplace_back(f, std::string(t)); };
    splitter.Snapshot(views.view(), add);
    splitter.Events(views.view(), add);
  }
  const ReportTextView& Text() const { return views.view(); }
  size_t Bytes() const {
    size_t n = 0;
    for (const auto& texts : text.texts.by_id) {
      for (const auto& t : texts) n += t.size();
    }
    return n;
  }
};

struct Data {
  std::vector<std::unique_ptr<OwnedReport>> reports;
  uint64_t bytes = 0;
  std::shared_ptr<const RuleDatabase> all;
  std::vector<double> standalone_ms;  //!< per rule, from the pre-pass
};

std::string RulesPath() { return std::string(GHSIFT_SOURCE_DIR) + "/rules"; }

const Corpus& GzCorpus() {
  static Corpus c("gz", 1, EventsPerHour());
  return c;
}

Data& TheData() {
  static Data* d = [] {
    auto* data = new Data;
    Lines lines(DecodeWhole(GzCorpus().files.front()));
    EventExtractor extractor;
    Event event;
    for (std::string_view line : lines.lines) {
      Check(extractor.Extract(line, event) == ExtractOutcome::kEvent, "bad line");
      if (!event.has_report || event.report.number <= 0) continue;
      auto r = std::make_unique<OwnedReport>(TextOf(event.report));
      data->bytes += r->Bytes();
      data->reports.push_back(std::move(r));
    }
    auto rules = LoadRuleSet(RulesPath());
    Check(rules.ok(), rules.status().message());
    auto db = RuleDatabase::Compile(*rules);
    Check(db.ok(), db.status().message());
    data->all = *db;
    return data;
  }();
  return *d;
}

std::vector<uint32_t> Sorted(const MatchSet& m) {
  std::vector<uint32_t> ids = m.ids();
  std::sort(ids.begin(), ids.end());
  return ids;
}

void RunReportScan(benchmark::State& state, std::shared_ptr<const RuleDatabase> db) {
  const Data& d = TheData();
  Scanner scanner(std::move(db));
  ReportScan scan(scanner);
  MatchSet matches;
  uint64_t hits = 0;
  for (auto _ : state) {
    for (const auto& r : d.reports) {
      matches.Clear();
      scan.Scan(r->Text(), matches);
      hits += matches.ids().size();
    }
    benchmark::DoNotOptimize(hits);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * d.bytes));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * d.reports.size()));
}

void BM_ReportScan(benchmark::State& state) { RunReportScan(state, TheData().all); }

void BM_ScannerOnly(benchmark::State& state) {
  const Data& d = TheData();
  Scanner scanner(d.all);
  MatchSet matches;
  uint64_t hits = 0;
  for (auto _ : state) {
    for (const auto& r : d.reports) {
      matches.Clear();
      for (const auto& [field, text] : r->split) (void)scanner.Scan(field, text, matches);
      hits += matches.ids().size();
    }
    benchmark::DoNotOptimize(hits);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * d.bytes));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * d.reports.size()));
}

void BM_SplitMarkdown(benchmark::State& state) {
  const Data& d = TheData();
  RuleTextSplitter splitter;
  size_t bytes = 0;
  const auto note = [&](Field, std::string_view text) { bytes += text.size(); };
  for (auto _ : state) {
    for (const auto& r : d.reports) {
      splitter.Snapshot(r->Text(), note);
      splitter.Events(r->Text(), note);
    }
    benchmark::DoNotOptimize(bytes);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * d.bytes));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * d.reports.size()));
}

//! The search for issue templates' prompts alone (part of BM_SplitMarkdown), over the prose the
//! split gives: the generated texts hold no prompt, as most real ones do not, so this is what
//! every text pays for the few that hold one.
void BM_EraseTemplatePrompts(benchmark::State& state) {
  const Data& d = TheData();
  RuleTextSplitter splitter;
  std::vector<std::string> prose;
  const auto keep = [&](Field f, std::string_view text) {
    if (Spec(f).markdown) prose.emplace_back(text);
  };
  for (const auto& r : d.reports) {
    splitter.Snapshot(r->Text(), keep);
    splitter.Events(r->Text(), keep);
  }
  for (auto _ : state) {
    for (std::string& text : prose) EraseTemplatePrompts(text, 0);
    benchmark::DoNotOptimize(prose.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * d.bytes));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * d.reports.size()));
}

BENCHMARK(BM_ReportScan)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ScannerOnly)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SplitMarkdown)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_EraseTemplatePrompts)->Unit(benchmark::kMillisecond)->UseRealTime();

//! A block-mode database of one rule (its pattern and flags as ingest compiles them).
struct SingleRuleDb {
  hs_database_t* db = nullptr;
  hs_scratch_t* scratch = nullptr;
  FieldMask fields = 0;
  ~SingleRuleDb() {
    hs_free_scratch(scratch);
    hs_free_database(db);
  }
};

int OnMatch(unsigned, unsigned long long, unsigned long long, unsigned, void* ctx) {
  *static_cast<bool*>(ctx) = true;
  return 1;  // stop: one match is enough
}

bool SingleMatches(const SingleRuleDb& s, Field f, std::string_view text) {
  if (!(s.fields & MaskOf(f))) return false;
  bool hit = false;
  hs_scan(s.db, text.data(), static_cast<unsigned>(text.size()), 0, s.scratch, OnMatch, &hit);
  return hit;
}

bool SingleMatchesReport(const SingleRuleDb& s, const OwnedReport& r) {
  for (const auto& [field, text] : r.split) {
    if (SingleMatches(s, field, text)) return true;
  }
  return false;
}

//! Verification, and the pre-pass timing each rule alone over all reports.
void VerifyAndPrepass() {
  Data& d = TheData();
  const auto& rules = d.all->rules().rules;
  Check(!d.reports.empty(), "the corpus has no reports to scan");
  Scanner scanner(d.all);
  ReportScan scan(scanner);
  std::vector<std::vector<uint32_t>> first(d.reports.size());
  MatchSet m;
  for (size_t i = 0; i < d.reports.size(); ++i) {
    m.Clear();
    scan.Scan(d.reports[i]->Text(), m);
    first[i] = Sorted(m);
  }
  size_t flagged = 0;
  for (size_t i = 0; i < d.reports.size(); ++i) {
    m.Clear();
    scan.Scan(d.reports[i]->Text(), m);
    Check(Sorted(m) == first[i], "a re-scan of report " + std::to_string(i) + " gave another MatchSet");
    flagged += !first[i].empty();
  }
  // Reference: rule by rule, one single-pattern database each.
  std::vector<std::vector<uint32_t>> ref(d.reports.size());
  d.standalone_ms.assign(rules.size(), 0);
  for (size_t id = 0; id < rules.size(); ++id) {
    const Rule& rule = rules[id];
    auto flags = HyperscanFlags(rule, RuleDatabase::Mode::kFlag);
    Check(flags.ok(), flags.status().message());
    SingleRuleDb s;
    s.fields = rule.fields;
    hs_compile_error_t* error = nullptr;
    if (hs_compile(rule.pattern.c_str(), *flags, HS_MODE_BLOCK, nullptr, &s.db, &error) != HS_SUCCESS) {
      hs_free_compile_error(error);
      Fail("rule " + rule.id + " does not compile alone");
    }
    Check(hs_alloc_scratch(s.db, &s.scratch) == HS_SUCCESS, "hs_alloc_scratch");
    const auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < d.reports.size(); ++i) {
      if (SingleMatchesReport(s, *d.reports[i])) ref[i].push_back(static_cast<uint32_t>(id));
    }
    d.standalone_ms[id] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
  for (size_t i = 0; i < d.reports.size(); ++i) {
    if (ref[i] != first[i]) {
      std::string a, b;
      for (uint32_t id : first[i]) a += rules[id].id + " ";
      for (uint32_t id : ref[i]) b += rules[id].id + " ";
      Fail("report " + std::to_string(i) + ": multi-pattern database matched {" + a + "}, rule-by-rule {" + b + "}");
    }
  }
  std::printf("verified: %zu reports (%.1f MB of text), %zu with a match; re-scan identical; equal to %zu "
              "one-rule databases\n",
              d.reports.size(), static_cast<double>(d.bytes) / 1e6, flagged, rules.size());
}

int ParseTop(int& argc, char** argv) {
  int top = 10;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--marginal_top=", 15) == 0) {
      top = std::atoi(argv[i] + 15);
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  return top;
}

}  // namespace
}  // namespace ghsift::bench

int main(int argc, char** argv) {
  using namespace ghsift;
  using namespace ghsift::bench;
  // Databases without one rule are compiled here; keep them out of the user's cache.
  const std::string cache = (std::filesystem::temp_directory_path() / "ghsift-bench-hscache").string();
  setenv("GHSIFT_CACHE_DIR", cache.c_str(), 0);
  const int top = ParseTop(argc, argv);
  VerifyAndPrepass();
  Data& d = TheData();
  const auto& rules = d.all->rules().rules;

  std::vector<size_t> order(rules.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return d.standalone_ms[a] > d.standalone_ms[b]; });
  const size_t n = top < 0 ? order.size() : std::min(order.size(), static_cast<size_t>(top));
  RatioReporter reporter({
      {"Hyperscan only / ReportScan", "BM_ScannerOnly/real_time", "BM_ReportScan/real_time", "share of scan in Hyperscan"},
      {"markdown split / ReportScan", "BM_SplitMarkdown/real_time", "BM_ReportScan/real_time", "share of scan in the split"},
      {"template prompts / ReportScan", "BM_EraseTemplatePrompts/real_time", "BM_ReportScan/real_time",
       "share of scan in the prompts' search (part of the split)"},
  });
  std::vector<size_t> chosen(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n));
  if (n > 0) std::printf("pre-pass: compiling %zu databases without one rule each (cached in %s)\n", n, getenv("GHSIFT_CACHE_DIR"));
  for (size_t id : chosen) {
    RuleSet without = d.all->rules();
    without.rules.erase(without.rules.begin() + static_cast<std::ptrdiff_t>(id));
    auto db = RuleDatabase::Compile(without);
    Check(db.ok(), db.status().message());
    std::shared_ptr<const RuleDatabase> shared = *db;
    const std::string label = rules[id].id;
    benchmark::RegisterBenchmark(("BM_ScanWithoutRule/" + std::to_string(id)).c_str(),
                                 [shared, label](benchmark::State& state) {
                                   state.SetLabel(label);
                                   RunReportScan(state, shared);
                                 })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MinTime(top < 0 ? 0.1 : 0.5);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintRatios();

  const double all_ns = reporter.NanosOf("BM_ReportScan/real_time");
  bool header = false;
  for (size_t id : chosen) {
    // The run name carries the options (".../min_time:0.500/real_time"): match by prefix.
    double without_ns = 0;
    const std::string prefix = "BM_ScanWithoutRule/" + std::to_string(id) + "/";
    for (const auto& name : reporter.Names())
      if (name.rfind(prefix, 0) == 0) without_ns = reporter.NanosOf(name);
    if (all_ns <= 0 || without_ns <= 0) continue;
    if (!header) {
      std::printf("\n%-5s %-40s %14s %14s %10s\n", "rule", "id", "alone (ms)", "marginal (ms)", "of all");
      header = true;
    }
    std::printf("%-5zu %-40s %14.2f %14.2f %9.1f%%\n", id, rules[id].id.c_str(), d.standalone_ms[id],
                (all_ns - without_ns) / 1e6, 100.0 * (all_ns - without_ns) / all_ns);
  }
  if (!header && n > 0) {
    std::printf("\n(marginal costs need BM_ReportScan and BM_ScanWithoutRule in the same run; names seen:)\n");
    for (const auto& name : reporter.Names()) std::printf("  %s\n", name.c_str());
  }
  benchmark::Shutdown();
  return 0;
}
