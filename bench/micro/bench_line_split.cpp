// Stage 3, line split: LineSplitter over a plain .json hour (PlainDecoder), so only the chunking
// is measured. Reference in the same run: reading the same file through the same FileSource into
// one reused buffer (the floor the splitter cannot beat). Argument = chunk size in MiB.
#include <zlib.h>

#include "bench/micro/bench_common.hpp"
#include "io/byte_source.hpp"

namespace ghsift::bench {
namespace {

const Corpus& PlainCorpus() {
  static Corpus c("none", 1, EventsPerHour());
  return c;
}

struct SplitResult {
  uint64_t bytes = 0;
  uint64_t chunks = 0;
  uint32_t crc = 0;
  bool well_formed = true;  //!< every chunk but the last ends with '\n'; sequences are 0,1,2,...
};

SplitResult Split(const std::string& path, size_t chunk_bytes, Chunk& chunk, bool verify) {
  auto decoder = OpenDecoder(path);
  Check(decoder.ok(), decoder.status().message());
  LineSplitterOptions options;
  options.chunk_bytes = chunk_bytes;
  LineSplitter splitter(std::move(*decoder), options);
  SplitResult r;
  for (;;) {
    auto more = splitter.Next(chunk);
    Check(more.ok(), more.status().message());
    if (!*more) break;
    r.bytes += chunk.size;
    if (verify) {
      r.crc = static_cast<uint32_t>(crc32(r.crc, reinterpret_cast<const Bytef*>(chunk.data()), static_cast<uInt>(chunk.size)));
      if (chunk.sequence != r.chunks) r.well_formed = false;
      if (!chunk.last && (chunk.size == 0 || chunk.data()[chunk.size - 1] != '\n')) r.well_formed = false;
      if (chunk.buffer.size() < chunk.size + kChunkPadding) r.well_formed = false;
    }
    ++r.chunks;
  }
  return r;
}

void BM_LineSplitter(benchmark::State& state) {
  const Corpus& corpus = PlainCorpus();
  const size_t chunk_bytes = static_cast<size_t>(state.range(0)) << 20;
  Chunk chunk;
  SplitResult r;
  for (auto _ : state) {
    r = Split(corpus.files.front(), chunk_bytes, chunk, false);
    benchmark::DoNotOptimize(r.bytes);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * r.bytes));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * corpus.summary.events));
  state.counters["chunks"] = static_cast<double>(r.chunks);
}

//! Reference: the file read into a reused 4 MiB buffer, nothing else.
void BM_ReadOnly(benchmark::State& state) {
  const Corpus& corpus = PlainCorpus();
  std::vector<char> buf(4 << 20);
  uint64_t bytes = 0;
  for (auto _ : state) {
    auto source = FileSource::Open(corpus.files.front());
    Check(source.ok(), source.status().message());
    bytes = 0;
    for (;;) {
      auto n = source->Read(buf);
      Check(n.ok(), n.status().message());
      if (*n == 0) break;
      bytes += *n;
    }
    benchmark::DoNotOptimize(bytes);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

BENCHMARK(BM_ReadOnly)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LineSplitter)->Arg(1)->Arg(4)->Arg(16)->Unit(benchmark::kMillisecond)->UseRealTime();

void Verify() {
  const Corpus& corpus = PlainCorpus();
  const std::string whole = Corpus::ReadRaw(corpus.files.front());
  const uint32_t want = static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(whole.data()), static_cast<uInt>(whole.size())));
  for (size_t mib : {1, 4, 16}) {
    Chunk chunk;
    const SplitResult r = Split(corpus.files.front(), mib << 20, chunk, true);
    Check(r.bytes == whole.size(), "chunks do not add up to the file size");
    Check(r.crc == want, "concatenated chunks differ from the file");
    Check(r.well_formed, "a chunk does not end at a line end, or sequences skip");
  }
  std::printf("verified: chunks of 1/4/16 MiB concatenate to the %zu-byte file, each ends at '\\n'\n", whole.size());
}

}  // namespace
}  // namespace ghsift::bench

int main(int argc, char** argv) {
  ghsift::bench::Verify();
  ghsift::bench::RatioReporter reporter({
      {"split 4 MiB / read only", "BM_LineSplitter/4/real_time", "BM_ReadOnly/real_time", "reference: plain read"},
      {"split 1 MiB / split 4 MiB", "BM_LineSplitter/1/real_time", "BM_LineSplitter/4/real_time", ""},
      {"split 16 MiB / split 4 MiB", "BM_LineSplitter/16/real_time", "BM_LineSplitter/4/real_time", ""},
  });
  return ghsift::bench::RunWithRatios(argc, argv, reporter);
}
