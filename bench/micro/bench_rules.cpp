// The rule-editing loop: compiling, loading from the cache and scanning the default rule set,
// combined (one database per field, what ingest uses) against per-rule (one cached database per
// rule, what `rules check/eval/explain` use so that an edit recompiles one rule).
// Input: the MHNurf Caffe reports of ../shared/data/labeled (title, body, comments).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "bench/micro/bench_common.hpp"
#include "eval/evaluation.hpp"
#include "eval/labeled_report.hpp"
#include "rules/rule_database.hpp"

namespace ghsift::bench {
namespace {

using Layout = RuleDatabase::Layout;

struct RulesData {
  RuleSet rules;
  std::vector<LabeledReport> reports;
  int64_t bytes = 0;
  std::string cache_dir;
};

const RulesData& TheRulesData() {
  static const RulesData* d = [] {
    auto* data = new RulesData;
    auto rules = LoadRuleSet(std::string(GHSIFT_SOURCE_DIR) + "/rules");
    Check(rules.ok(), rules.status().message());
    data->rules = std::move(rules).value();
    const std::string caffe = std::string(GHSIFT_SOURCE_DIR) + "/../shared/data/labeled/mhnurf/caffe.csv";
    auto reports = ReadLabeledReports(caffe, {});
    Check(reports.ok(), reports.status().message() + " (bench_rules reads the labeled MHNurf reports)");
    data->reports = std::move(reports).value();
    for (const auto& r : data->reports) {
      for (Field f : {Field::kTitle, Field::kBody, Field::kComment}) {
        for (const auto& t : r.text[f]) data->bytes += static_cast<int64_t>(t.size());
      }
    }
    // A private cache, so the user's is neither used nor filled.
    data->cache_dir = (std::filesystem::temp_directory_path() / "ghsift-bench-rules-cache").string();
    ::setenv("GHSIFT_CACHE_DIR", data->cache_dir.c_str(), 1);
    // Verify before timing: both layouts match the same rules on every report (this also
    // fills the cache for the load benchmarks).
    auto combined = RuleDatabase::Compile(data->rules, RuleDatabase::Mode::kFlag, Layout::kCombined);
    auto per_rule = RuleDatabase::Compile(data->rules, RuleDatabase::Mode::kFlag, Layout::kPerRule);
    Check(combined.ok() && per_rule.ok(), "the default rule set does not compile");
    const auto a = JudgeReports(*combined, data->reports), b = JudgeReports(*per_rule, data->reports);
    for (size_t i = 0; i < a.size(); ++i) {
      Check(a[i].rules == b[i].rules, "layouts disagree on report " + data->reports[i].id);
    }
    return data;
  }();
  return *d;
}

std::shared_ptr<const RuleDatabase> CompileOrDie(Layout layout) {
  auto db = RuleDatabase::Compile(TheRulesData().rules, RuleDatabase::Mode::kFlag, layout);
  Check(db.ok(), db.status().message());
  return *db;
}

//! Compiling with the cache off: what a first run (or, combined, any edit) costs.
void BM_Compile(benchmark::State& state, Layout layout) {
  TheRulesData();
  ::setenv("GHSIFT_NO_RULE_CACHE", "1", 1);
  for (auto _ : state) benchmark::DoNotOptimize(CompileOrDie(layout));
  ::unsetenv("GHSIFT_NO_RULE_CACHE");
}

//! Every database read back from the cache: an unchanged rule set.
void BM_LoadCached(benchmark::State& state, Layout layout) {
  TheRulesData();
  for (auto _ : state) benchmark::DoNotOptimize(CompileOrDie(layout));
}

//! Judging every report (ReportScan and the decision), as `rules eval` does.
void BM_Judge(benchmark::State& state, Layout layout) {
  const RulesData& d = TheRulesData();
  const auto db = CompileOrDie(layout);
  for (auto _ : state) benchmark::DoNotOptimize(JudgeReports(db, d.reports));
  state.SetBytesProcessed(state.iterations() * d.bytes);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * d.reports.size()));
}

BENCHMARK_CAPTURE(BM_Compile, combined, Layout::kCombined)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Compile, per_rule, Layout::kPerRule)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_LoadCached, combined, Layout::kCombined)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LoadCached, per_rule, Layout::kPerRule)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Judge, combined, Layout::kCombined)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Judge, per_rule, Layout::kPerRule)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ghsift::bench

int main(int argc, char** argv) {
  ghsift::bench::RatioReporter reporter({
      {"per-rule / combined compile", "BM_Compile/per_rule/iterations:1", "BM_Compile/combined/iterations:1", ""},
      {"per-rule / combined cache load", "BM_LoadCached/per_rule", "BM_LoadCached/combined", ""},
      {"per-rule / combined judge", "BM_Judge/per_rule", "BM_Judge/combined", "scan + decision"},
  });
  return ghsift::bench::RunWithRatios(argc, argv, reporter);
}
