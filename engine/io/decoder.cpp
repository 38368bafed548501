#include "io/decoder.hpp"

#include <algorithm>
#include <cstring>

#include "io/gzip_decoder.hpp"
#include "io/plain_decoder.hpp"
#include "io/zstd_decoder.hpp"

namespace ghsift {
namespace {

constexpr size_t kHeadBytes = 4;

//! Replays the first bytes read for content typing, then reads on from the source: the decoder
//! sees the input from its first byte, and the hash and byte counts stay the source's own.
class ReplayHeadSource final : public ByteSource {
 public:
  ReplayHeadSource(std::unique_ptr<ByteSource> source, std::string head)
      : source_(std::move(source)), head_(std::move(head)) {}
  Result<size_t> Read(std::span<char> out) override {
    if (replayed_ < head_.size()) {
      const size_t n = std::min(out.size(), head_.size() - replayed_);
      std::memcpy(out.data(), head_.data() + replayed_, n);
      replayed_ += n;
      return n;
    }
    return source_->Read(out);
  }
  Result<std::span<const char>> ReadView(std::span<char> scratch) override {
    // The head is replayed by Read, into scratch; then the source lends its own bytes.
    if (replayed_ < head_.size()) return ByteSource::ReadView(scratch);
    return source_->ReadView(scratch);
  }
  bool Ready() const override { return source_->Ready(); }
  uint64_t size() const override { return source_->size(); }
  uint64_t bytes_read() const override { return source_->bytes_read() - (head_.size() - replayed_); }
  uint64_t content_hash() const override { return source_->content_hash(); }

 private:
  std::unique_ptr<ByteSource> source_;
  std::string head_;
  size_t replayed_ = 0;
};

//! Reads the first bytes at the first Decode, not at open: opening never blocks (an HTTP body
//! may not have arrived yet) and a source's failure is reported where a decoder's would be.
class ContentTypedDecoder final : public Decoder {
 public:
  ContentTypedDecoder(std::unique_ptr<ByteSource> source, std::string name)
      : source_(std::move(source)), name_(std::move(name)) {}
  Result<size_t> Decode(std::span<char> out) override {
    if (inner_ == nullptr) GHSIFT_TRY(Start());
    return inner_->Decode(out);
  }
  bool Ready() const override { return inner_ ? inner_->Ready() : source_->Ready(); }
  uint64_t compressed_bytes_read() const override { return inner_ ? inner_->compressed_bytes_read() : 0; }
  uint64_t compressed_size() const override { return inner_ ? inner_->compressed_size() : source_->size(); }
  uint64_t content_hash() const override { return inner_ ? inner_->content_hash() : 0; }

 private:
  Status Start() {
    std::string head(kHeadBytes, '\0');
    size_t filled = 0;
    while (filled < head.size()) {  // a source may return fewer bytes than asked (HTTP)
      auto n = source_->Read({head.data() + filled, head.size() - filled});
      if (!n.ok()) return n.status();
      if (*n == 0) break;
      filled += *n;
    }
    head.resize(filled);
    const Compression compression = CompressionFromContent(head, name_);
    auto replay = std::make_unique<ReplayHeadSource>(std::move(source_), std::move(head));
    switch (compression) {
      case Compression::kGzip: inner_ = std::make_unique<GzipDecoder>(std::move(replay)); break;
      case Compression::kZstd: inner_ = std::make_unique<ZstdDecoder>(std::move(replay)); break;
      case Compression::kNone: inner_ = std::make_unique<PlainDecoder>(std::move(replay)); break;
    }
    return Status::Ok();
  }

  std::unique_ptr<ByteSource> source_;  //!< moved into the inner decoder at Start
  std::string name_;
  std::unique_ptr<Decoder> inner_;
};

}  // namespace

Compression CompressionFromName(const std::string& path) {
  auto ends_with = [&](std::string_view suffix) {
    return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".gz")) return Compression::kGzip;
  if (ends_with(".zst") || ends_with(".zstd")) return Compression::kZstd;
  return Compression::kNone;
}

Compression CompressionFromContent(std::span<const char> head, const std::string& name) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(head[i]); };
  if (head.size() >= 2 && byte(0) == 0x1f && byte(1) == 0x8b) return Compression::kGzip;
  if (head.size() >= 4 && byte(0) == 0x28 && byte(1) == 0xb5 && byte(2) == 0x2f && byte(3) == 0xfd) {
    return Compression::kZstd;
  }
  if (!head.empty() && std::string_view("{ \t\r\n").find(head[0]) != std::string_view::npos) {
    return Compression::kNone;
  }
  return CompressionFromName(name);
}

Result<std::unique_ptr<Decoder>> OpenDecoder(std::unique_ptr<ByteSource> source, const std::string& name) {
  return std::unique_ptr<Decoder>(new ContentTypedDecoder(std::move(source), name));
}

Result<std::unique_ptr<Decoder>> OpenDecoder(const std::string& path) {
  auto source = FileSource::Open(path);
  if (!source.ok()) return source.status();
  return OpenDecoder(std::make_unique<FileSource>(std::move(source).value()), path);
}

}  // namespace ghsift
