// Stage 2, read + decode: the engine's GzipDecoder (ISA-L) and ZstdDecoder over one generated
// hour, against zlib inflate and the plain zstd streaming API on the same bytes, read through the
// same FileSource (so both sides pay the same I/O). Bytes/s are uncompressed bytes.
#include <zlib.h>
#include <zstd.h>

#include "bench/micro/bench_common.hpp"
#include "io/byte_source.hpp"

namespace ghsift::bench {
namespace {

constexpr size_t kOutBlock = 1 << 20;  // what the LineSplitter asks for at a time (order of)

const Corpus& GzCorpus() {
  static Corpus c("gz", 1, EventsPerHour());
  return c;
}
const Corpus& ZstCorpus() {
  static Corpus c("zst", 1, EventsPerHour());
  return c;
}

//! The engine's decoder: returns uncompressed bytes and an order-sensitive checksum.
std::pair<uint64_t, uint32_t> EngineDecode(const std::string& path, std::vector<char>& out, bool checksum) {
  auto decoder = OpenDecoder(path);
  Check(decoder.ok(), decoder.status().message());
  uint64_t total = 0;
  uint32_t crc = 0;
  for (;;) {
    auto n = (*decoder)->Decode(out);
    Check(n.ok(), n.status().message());
    if (*n == 0) break;
    total += *n;
    if (checksum) crc = static_cast<uint32_t>(crc32(crc, reinterpret_cast<const Bytef*>(out.data()), static_cast<uInt>(*n)));
  }
  return {total, crc};
}

//! Reference: zlib inflate (gzip wrapper, every member), input read in 1 MiB blocks.
std::pair<uint64_t, uint32_t> ZlibDecode(const std::string& path, std::vector<char>& out, bool checksum) {
  auto source = FileSource::Open(path);
  Check(source.ok(), source.status().message());
  std::vector<char> in(1 << 20);
  z_stream z{};
  Check(inflateInit2(&z, 16 + MAX_WBITS) == Z_OK, "inflateInit2");
  uint64_t total = 0;
  uint32_t crc = 0;
  bool eof = false;
  for (;;) {
    if (z.avail_in == 0 && !eof) {
      auto n = source->Read(in);
      Check(n.ok(), n.status().message());
      if (*n == 0) eof = true;
      z.next_in = reinterpret_cast<Bytef*>(in.data());
      z.avail_in = static_cast<uInt>(*n);
    }
    if (z.avail_in == 0 && eof) break;
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = inflate(&z, Z_NO_FLUSH);
    Check(rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR, "zlib inflate failed");
    const size_t produced = out.size() - z.avail_out;
    total += produced;
    if (checksum) crc = static_cast<uint32_t>(crc32(crc, reinterpret_cast<const Bytef*>(out.data()), static_cast<uInt>(produced)));
    if (rc == Z_STREAM_END) inflateReset(&z);  // next gzip member, if any
  }
  inflateEnd(&z);
  return {total, crc};
}

//! Reference: ZSTD_decompressStream directly.
std::pair<uint64_t, uint32_t> ZstdRawDecode(const std::string& path, std::vector<char>& out, bool checksum) {
  auto source = FileSource::Open(path);
  Check(source.ok(), source.status().message());
  std::vector<char> in(ZSTD_DStreamInSize());
  ZSTD_DCtx* ctx = ZSTD_createDCtx();
  uint64_t total = 0;
  uint32_t crc = 0;
  for (;;) {
    auto n = source->Read(in);
    Check(n.ok(), n.status().message());
    if (*n == 0) break;
    ZSTD_inBuffer input{in.data(), *n, 0};
    while (input.pos < input.size) {
      ZSTD_outBuffer output{out.data(), out.size(), 0};
      const size_t rc = ZSTD_decompressStream(ctx, &output, &input);
      Check(!ZSTD_isError(rc), "zstd decompress failed");
      total += output.pos;
      if (checksum) crc = static_cast<uint32_t>(crc32(crc, reinterpret_cast<const Bytef*>(out.data()), static_cast<uInt>(output.pos)));
    }
  }
  ZSTD_freeDCtx(ctx);
  return {total, crc};
}

using DecodeFn = std::pair<uint64_t, uint32_t> (*)(const std::string&, std::vector<char>&, bool);

void RunDecode(benchmark::State& state, const Corpus& corpus, DecodeFn fn) {
  std::vector<char> out(kOutBlock);
  const std::string& path = corpus.files.front();
  uint64_t bytes = 0;
  for (auto _ : state) {
    bytes = fn(path, out, false).first;
    benchmark::DoNotOptimize(bytes);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * corpus.summary.events));
  state.counters["ratio"] = static_cast<double>(bytes) / static_cast<double>(std::filesystem::file_size(path));
}

void BM_GzipDecoder(benchmark::State& state) { RunDecode(state, GzCorpus(), EngineDecode); }
void BM_ZlibInflate(benchmark::State& state) { RunDecode(state, GzCorpus(), ZlibDecode); }
void BM_ZstdDecoder(benchmark::State& state) { RunDecode(state, ZstCorpus(), EngineDecode); }
void BM_ZstdRaw(benchmark::State& state) { RunDecode(state, ZstCorpus(), ZstdRawDecode); }

BENCHMARK(BM_GzipDecoder)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ZlibInflate)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ZstdDecoder)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ZstdRaw)->Unit(benchmark::kMillisecond)->UseRealTime();

//! Before timing: every decoder yields the same bytes, as many as the generator wrote.
void Verify() {
  std::vector<char> out(kOutBlock);
  const auto gz = EngineDecode(GzCorpus().files.front(), out, true);
  const auto zl = ZlibDecode(GzCorpus().files.front(), out, true);
  const auto zs = EngineDecode(ZstCorpus().files.front(), out, true);
  const auto zr = ZstdRawDecode(ZstCorpus().files.front(), out, true);
  Check(gz.first == GzCorpus().summary.bytes_uncompressed, "GzipDecoder size != generator's uncompressed bytes");
  Check(gz == zl, "GzipDecoder output differs from zlib's");
  Check(zs == zr, "ZstdDecoder output differs from libzstd's");
  Check(zs == gz, "the .zst and .gz corpora (same seed) decode to different bytes");
  std::printf("verified: 4 decoders agree on %llu bytes (crc32 %08x)\n", static_cast<unsigned long long>(gz.first), gz.second);
}

}  // namespace
}  // namespace ghsift::bench

int main(int argc, char** argv) {
  using ghsift::bench::RatioReporter;
  ghsift::bench::Verify();
  RatioReporter reporter({
      {"gzip: ISA-L decoder / zlib", "BM_GzipDecoder/real_time", "BM_ZlibInflate/real_time", "reference: zlib inflate"},
      {"zstd: ZstdDecoder / libzstd", "BM_ZstdDecoder/real_time", "BM_ZstdRaw/real_time", "reference: raw stream API"},
      {"zstd decoder / gzip decoder", "BM_ZstdDecoder/real_time", "BM_GzipDecoder/real_time", ""},
  });
  return ghsift::bench::RunWithRatios(argc, argv, reporter);
}
