#include "eval/rule_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "common/assert.hpp"
#include "io/line_splitter.hpp"
#include "json/event_extractor.hpp"
#include "rules/report_scan.hpp"
#include "rules/rule_database.hpp"

namespace ghsift {
namespace {

//! Scans every report once; `out` (optional) receives each report's matched rule ids.
uint64_t ScanAll(ReportScan& scan, const std::vector<LabeledReport>& reports, std::vector<ReportTextViews>& views,
                 std::vector<std::vector<uint32_t>>* out) {
  MatchSet matches;
  uint64_t hits = 0;
  for (size_t i = 0; i < reports.size(); ++i) {
    matches.Clear();
    scan.Scan(views[i].view(), matches);
    hits += matches.ids().size();
    if (out != nullptr) {
      std::vector<uint32_t> ids = matches.ids();
      std::sort(ids.begin(), ids.end());
      (*out)[i] = std::move(ids);
    }
  }
  return hits;
}

//! Seconds per pass over all reports, repeated for at least `min_seconds`.
double TimePasses(const std::shared_ptr<const RuleDatabase>& db, const std::vector<LabeledReport>& reports,
                  std::vector<ReportTextViews>& views, double min_seconds) {
  Scanner scanner(db);
  ReportScan scan(scanner);
  int passes = 0;
  const auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  do {
    ScanAll(scan, reports, views, nullptr);
    ++passes;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } while (elapsed < min_seconds);
  return elapsed / passes;
}

//! What ReportScan reads of each report, in the reports' order.
std::vector<ReportTextViews> ViewsOf(const std::vector<LabeledReport>& reports) {
  std::vector<ReportTextViews> views;
  views.reserve(reports.size());
  for (const LabeledReport& r : reports) views.emplace_back(r.text);
  return views;
}

//! Times `a` and `b` alternately, kMarginalRepeats times each.
TimedPair TimeAlternately(const std::shared_ptr<const RuleDatabase>& a, const std::shared_ptr<const RuleDatabase>& b,
                          const std::vector<LabeledReport>& reports, std::vector<ReportTextViews>& views,
                          double min_seconds) {
  std::vector<double> a_series, b_series;
  for (int repeat = 0; repeat < kMarginalRepeats; ++repeat) {
    a_series.push_back(TimePasses(a, reports, views, min_seconds));
    b_series.push_back(TimePasses(b, reports, views, min_seconds));
  }
  return CompareTimings(std::move(a_series), std::move(b_series));
}

}  // namespace

TimedPair CompareTimings(std::vector<double> a, std::vector<double> b) {
  GHSIFT_ASSERT(!a.empty() && !b.empty());
  auto median = [](std::vector<double>& v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  };
  TimedPair out;
  out.median_a = median(a);
  out.median_b = median(b);
  if (!(out.median_a > 0)) return out;
  // Each series' spread against its own median: a baseline much faster than the set would
  // otherwise lend it the set's spread, magnified.
  out.noise = (a.back() - a.front()) / out.median_a;
  if (out.median_b > 0) out.noise = std::max(out.noise, (b.back() - b.front()) / out.median_b);
  out.difference = (out.median_a - out.median_b) / out.median_a;
  out.within_noise = std::abs(out.difference) <= out.noise;
  return out;
}

std::string FormatMarginalShare(const TimedPair& full_then_without) {
  const TimedPair& t = full_then_without;
  char text[80];
  if (t.within_noise) {
    std::snprintf(text, sizeof text, "<=%.1f%% (noise)", t.noise * 100);
  } else if (t.difference < 0) {
    std::snprintf(text, sizeof text, "%.1f%% +-%.1f%% (slower without it)", t.difference * 100, t.noise * 100);
  } else {
    std::snprintf(text, sizeof text, "%.1f%% +-%.1f%%", t.difference * 100, t.noise * 100);
  }
  return text;
}

std::string DescribeSpeedAgainst(const TimedPair& a_then_b) {
  const TimedPair& t = a_then_b;
  char text[200];
  std::snprintf(text, sizeof text,
                "at %.2f times its speed, %s (timings of one set spread +-%.1f%%; %d alternating timings each, medians)",
                t.median_b > 0 ? t.median_a / t.median_b : 0.0,
                t.within_noise ? "not told apart from the noise" : t.difference > 0 ? "faster" : "slower", t.noise * 100,
                kMarginalRepeats);
  return text;
}

TimedPair CompareScanSpeed(const std::shared_ptr<const RuleDatabase>& a, const std::shared_ptr<const RuleDatabase>& b,
                           const std::vector<LabeledReport>& reports, double min_seconds) {
  std::vector<ReportTextViews> views = ViewsOf(reports);
  return TimeAlternately(a, b, reports, views, min_seconds);
}

Result<std::vector<LabeledReport>> ReadReportsFromDump(const std::string& path, size_t limit) {
  auto decoder = OpenDecoder(path);
  if (!decoder.ok()) return decoder.status();
  LineSplitter splitter(std::move(decoder).value(), LineSplitterOptions());
  EventExtractor extractor;
  Event event;
  Chunk chunk;
  std::vector<LabeledReport> out;
  while (out.size() < limit) {
    auto more = splitter.Next(chunk);
    if (!more.ok()) return more.status().WithContext(path);
    if (!*more) break;
    std::string_view rest(chunk.data(), chunk.size);
    while (!rest.empty() && out.size() < limit) {
      const size_t newline = rest.find('\n');
      const std::string_view line = rest.substr(0, newline);
      rest.remove_prefix(newline == std::string_view::npos ? rest.size() : newline + 1);
      if (line.empty() || extractor.Extract(line, event) != ExtractOutcome::kEvent || !event.has_report) continue;
      LabeledReport r;
      r.id = std::string(event.repo_name) + "#" + std::to_string(event.report.number);
      r.group = std::string(event.repo_name);
      r.text = TextOf(event.report);
      out.push_back(std::move(r));
    }
  }
  return out;
}

Result<RuleBenchResult> BenchRules(const RuleSet& rules, const std::vector<LabeledReport>& reports,
                                   const RuleBenchOptions& options) {
  const size_t marginal_top = options.marginal_top;
  const double min_seconds = options.min_seconds;
  const BenchProgressFn& progress = options.progress;
  using Clock = std::chrono::steady_clock;
  const auto since = [](Clock::time_point from) { return std::chrono::duration<double>(Clock::now() - from).count(); };
  RuleBenchResult result;
  result.reports = reports.size();
  std::vector<ReportTextViews> views = ViewsOf(reports);
  for (const LabeledReport& r : reports) {
    for (const auto& texts : r.text.texts.by_id) {
      for (const auto& s : texts) result.bytes += s.size();
    }
  }
  if (result.bytes == 0) return Status::InvalidArgument("no report text to scan");
  const auto compile_start = Clock::now();
  auto full = RuleDatabase::Compile(rules);
  if (!full.ok()) return full.status();
  const double compile_seconds = since(compile_start);  // a set without one rule compiles alike
  const std::shared_ptr<const RuleDatabase>& baseline = options.baseline;
  const size_t n = rules.rules.size(), top = std::min(marginal_top, n);
  // The least time of what follows a step: each timing runs passes for at least its minimum.
  const double alternating_seconds = 2.0 * kMarginalRepeats * min_seconds;
  const double timing_floor =
      (baseline != nullptr ? alternating_seconds : min_seconds) + static_cast<double>(n) * min_seconds / 10;
  const double marginal_each = compile_seconds + alternating_seconds;
  const auto report = [&](BenchProgress::Step step, size_t done, size_t total, double step_seconds_left,
                          double later_seconds) {
    if (progress) progress({step, done, total, step_seconds_left + later_seconds});
  };
  // Items left of a step at the pace of those done (or at `guess` each before any is done).
  const auto pace = [&](Clock::time_point step_start, size_t done, size_t total, double guess) {
    return static_cast<double>(total - done) * (done == 0 ? guess : since(step_start) / static_cast<double>(done));
  };

  // Verify before timing: the whole database finds exactly what the rules find one by one.
  std::vector<std::vector<uint32_t>> expected(reports.size()), got(reports.size());
  std::vector<std::shared_ptr<const RuleDatabase>> alone;
  const auto verify_start = Clock::now();
  for (size_t k = 0; k < rules.rules.size(); ++k) {
    report(BenchProgress::Step::kVerify, k, n, pace(verify_start, k, n, 0), timing_floor + top * marginal_each);
    RuleSet one;
    one.rules = {rules.rules[k]};
    auto db = RuleDatabase::Compile(one);
    if (!db.ok()) return db.status();
    alone.push_back(*db);
    Scanner scanner(*db);
    ReportScan scan(scanner);
    std::vector<std::vector<uint32_t>> hits(reports.size());
    ScanAll(scan, reports, views, &hits);
    for (size_t i = 0; i < reports.size(); ++i) {
      if (!hits[i].empty()) expected[i].push_back(static_cast<uint32_t>(k));
    }
  }
  {
    Scanner scanner(*full);
    ReportScan scan(scanner);
    ScanAll(scan, reports, views, &got);
  }
  for (size_t i = 0; i < reports.size(); ++i) {
    if (got[i] != expected[i]) {
      return Status::InvalidArgument("verification failed: report " + reports[i].id +
                                     " matches differ between the whole database and the rules one by one");
    }
  }

  const double later_marginals = static_cast<double>(top) * marginal_each;
  report(BenchProgress::Step::kTime, 0, n + 1, timing_floor, later_marginals);
  const auto time_start = Clock::now();
  const double mb = static_cast<double>(result.bytes) / 1e6;
  if (baseline != nullptr) {
    // The whole set's speed is then the median of its alternating timings.
    result.against_baseline = TimeAlternately(baseline, *full, reports, views, min_seconds);
    result.baseline_mb_per_s = mb / result.against_baseline->median_a;
    result.mb_per_s = mb / result.against_baseline->median_b;
  } else {
    result.mb_per_s = mb / TimePasses(*full, reports, views, min_seconds);
  }
  for (size_t k = 0; k < rules.rules.size(); ++k) {
    report(BenchProgress::Step::kTime, k + 1, n + 1, pace(time_start, k + 1, n + 1, 0), later_marginals);
    const double seconds = TimePasses(alone[k], reports, views, min_seconds / 10);
    result.rules.push_back({rules.rules[k].id, static_cast<double>(result.bytes) / 1e6 / seconds, std::nullopt});
  }
  std::sort(result.rules.begin(), result.rules.end(),
            [](const RuleCost& a, const RuleCost& b) { return a.alone_mb_per_s < b.alone_mb_per_s; });
  const auto marginal_start = Clock::now();
  for (size_t k = 0; k < std::min(marginal_top, result.rules.size()); ++k) {
    report(BenchProgress::Step::kMarginal, k, top, pace(marginal_start, k, top, marginal_each), 0);
    RuleSet without = rules;
    std::erase_if(without.rules, [&](const Rule& r) { return r.id == result.rules[k].id; });
    auto db = RuleDatabase::Compile(without);
    if (!db.ok()) return db.status();
    result.rules[k].marginal = TimeAlternately(*full, *db, reports, views, min_seconds);
  }
  report(BenchProgress::Step::kMarginal, top, top, 0, 0);
  return result;
}

}  // namespace ghsift
