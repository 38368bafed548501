#pragma once
// Shared by the micro benchmark suites: an in-process generated corpus (made once per process,
// removed at exit), whole-file helpers, a verification check that aborts before any timing, and
// a console reporter that prints ratios of benchmarks measured in the same run.
#include <benchmark/benchmark.h>
#include <simdjson.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gen/gen_options.hpp"
#include "gen/generator.hpp"
#include "io/decoder.hpp"
#include "io/line_splitter.hpp"

namespace ghsift::bench {

//! Verification failed: the numbers would be meaningless, so nothing is timed.
[[noreturn]] inline void Fail(const std::string& what) {
  std::fprintf(stderr, "VERIFY FAILED: %s\n", what.c_str());
  std::exit(3);
}
inline void Check(bool ok, const std::string& what) {
  if (!ok) Fail(what);
}

//! Events per generated hour; GHSIFT_BENCH_EVENTS overrides (keep runs short on shared machines).
inline int EventsPerHour(int fallback = 20000) {
  if (const char* v = std::getenv("GHSIFT_BENCH_EVENTS")) return std::max(100, std::atoi(v));
  return fallback;
}

//! A generated corpus in a private temporary directory, deleted when the process ends.
struct Corpus {
  std::filesystem::path dir;
  std::vector<std::string> files;  //!< hourly files, in name order
  gen::GenSummary summary;
  std::string truth_json;

  Corpus(const std::string& compress, int hours, int events_per_hour, uint64_t seed = 42) {
    dir = std::filesystem::temp_directory_path() /
          ("ghsift-bench-" + std::to_string(::getpid()) + "-" + compress + "-" + std::to_string(hours));
    gen::GenOptions options;
    options.out_dir = dir.string();
    options.hours = hours;
    options.events_per_hour = events_per_hour;
    options.seed = seed;
    options.compress = compress;
    options.threads = 2;
    const Status s = gen::Generate(options, &summary);
    Check(s.ok(), "gen: " + s.message());
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().filename() != "truth.json") files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    Check(static_cast<int>(files.size()) == hours, "gen wrote an unexpected number of files");
    truth_json = ReadRaw((dir / "truth.json").string());
  }
  ~Corpus() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  Corpus(const Corpus&) = delete;

  //! truth.json's events_by_type.
  std::map<std::string, uint64_t> TruthEventsByType() const {
    simdjson::ondemand::parser parser;
    simdjson::padded_string text(truth_json);
    auto doc = parser.iterate(text);
    std::map<std::string, uint64_t> out;
    auto by_type = doc["events_by_type"].get_object();
    if (by_type.error()) Fail("truth.json has no events_by_type");
    for (auto field : by_type) {
      std::string key(field.unescaped_key().value());
      out[key] = field.value().get_uint64().value();
    }
    return out;
  }
  uint64_t TruthEvents() const {
    simdjson::ondemand::parser parser;
    simdjson::padded_string text(truth_json);
    auto doc = parser.iterate(text);
    return doc["events"].get_uint64().value();
  }

  static std::string ReadRaw(const std::string& path) {
    std::string out;
    FILE* f = std::fopen(path.c_str(), "rb");
    Check(f != nullptr, "cannot open " + path);
    char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    std::fclose(f);
    return out;
  }
};

//! The decoded bytes of a dump file (through the engine's decoder for its name).
inline std::string DecodeWhole(const std::string& path) {
  auto decoder = OpenDecoder(path);
  Check(decoder.ok(), "open " + path + ": " + decoder.status().message());
  std::string out;
  std::vector<char> buf(1 << 20);
  for (;;) {
    auto n = (*decoder)->Decode(buf);
    Check(n.ok(), "decode " + path + ": " + n.status().message());
    if (*n == 0) break;
    out.append(buf.data(), *n);
  }
  return out;
}

//! NDJSON text kept with simdjson padding after it, and the lines as views into it.
struct Lines {
  std::string text;  //!< the decoded bytes followed by SIMDJSON_PADDING spaces
  std::vector<std::string_view> lines;
  uint64_t bytes = 0;  //!< decoded bytes (without the padding)

  explicit Lines(std::string decoded) : text(std::move(decoded)) {
    bytes = text.size();
    text.append(simdjson::SIMDJSON_PADDING, ' ');
    const char* p = text.data();
    const char* end = p + bytes;
    while (p < end) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
      const char* line_end = nl != nullptr ? nl : end;
      if (line_end > p) lines.emplace_back(p, static_cast<size_t>(line_end - p));
      p = line_end + 1;
    }
  }
};

//! A console reporter that also prints "A / B" ratios (time and bytes/s) of benchmarks of this
//! run. Pairs name full benchmark names (e.g. "BM_GzipDecoder/real_time"); with repetitions,
//! the median aggregate is used.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  struct Pair {
    std::string name, numerator, denominator, note;
  };
  //! Colors only on a terminal (a reporter passed in ignores --benchmark_color); NO_COLOR turns
  //! them off.
  explicit RatioReporter(std::vector<Pair> pairs)
      : ConsoleReporter(::isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr ? OO_ColorTabular : OO_Tabular),
        pairs_(std::move(pairs)) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      std::string name = run.run_name.str();
      const bool aggregate = run.run_type == Run::RT_Aggregate;
      if (aggregate && run.aggregate_name != "median") continue;
      Entry& e = results_[name];
      if (aggregate || !e.from_median) {
        e.time = run.GetAdjustedRealTime();
        e.unit = run.time_unit;
        auto it = run.counters.find("bytes_per_second");
        e.bytes_per_second = it != run.counters.end() ? static_cast<double>(it->second) : 0;
        e.from_median = aggregate;
        e.seen = true;
      }
    }
  }

  //! Time of a benchmark in nanoseconds per iteration (0 when it did not run).
  double NanosOf(const std::string& name) const {
    auto it = results_.find(name);
    if (it == results_.end()) return 0;
    return it->second.time * 1e9 / benchmark::GetTimeUnitMultiplier(it->second.unit);
  }
  double BytesPerSecondOf(const std::string& name) const {
    auto it = results_.find(name);
    return it == results_.end() ? 0 : it->second.bytes_per_second;
  }
  std::vector<std::string> Names() const {
    std::vector<std::string> out;
    for (const auto& [k, v] : results_) out.push_back(k);
    return out;
  }
  void AddPair(Pair p) { pairs_.push_back(std::move(p)); }

  void PrintRatios() const {
    bool header = false;
    for (const Pair& p : pairs_) {
      const double a = NanosOf(p.numerator), b = NanosOf(p.denominator);
      if (a <= 0 || b <= 0) continue;
      if (!header) {
        std::printf("\n%-44s %12s %12s  %s\n", "ratio (same run)", "time A/B", "speed A/B", "A = / B =");
        header = true;
      }
      const double sa = BytesPerSecondOf(p.numerator), sb = BytesPerSecondOf(p.denominator);
      char speed[32] = "-";
      if (sa > 0 && sb > 0) std::snprintf(speed, sizeof speed, "%.3f", sa / sb);
      std::printf("%-44s %12.3f %12s  %s / %s%s%s\n", p.name.c_str(), a / b, speed, p.numerator.c_str(),
                  p.denominator.c_str(), p.note.empty() ? "" : "  -- ", p.note.c_str());
    }
    std::fflush(stdout);
  }

 private:
  struct Entry {
    double time = 0;
    benchmark::TimeUnit unit = benchmark::kNanosecond;
    double bytes_per_second = 0;
    bool from_median = false;
    bool seen = false;
  };
  std::vector<Pair> pairs_;
  std::map<std::string, Entry> results_;
};

//! The usual main: run the selected benchmarks with a RatioReporter, then print the ratios.
inline int RunWithRatios(int argc, char** argv, RatioReporter& reporter) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintRatios();
  benchmark::Shutdown();
  return 0;
}

}  // namespace ghsift::bench
