#include "io/decoder.hpp"

#include "io/gzip_decoder.hpp"
#include "io/plain_decoder.hpp"
#include "io/zstd_decoder.hpp"

namespace ghsift {

Compression CompressionFromName(const std::string& path) {
  auto ends_with = [&](std::string_view suffix) {
    return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".gz")) return Compression::kGzip;
  if (ends_with(".zst") || ends_with(".zstd")) return Compression::kZstd;
  return Compression::kNone;
}

Result<std::unique_ptr<Decoder>> OpenDecoder(const std::string& path) {
  auto source = FileSource::Open(path);
  if (!source.ok()) return source.status();
  switch (CompressionFromName(path)) {
    case Compression::kGzip: return std::unique_ptr<Decoder>(new GzipDecoder(std::move(source).value()));
    case Compression::kZstd: return std::unique_ptr<Decoder>(new ZstdDecoder(std::move(source).value()));
    case Compression::kNone: break;
  }
  return std::unique_ptr<Decoder>(new PlainDecoder(std::move(source).value()));
}

}  // namespace ghsift
