#include "io/decoder.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string_view>

#include "io/gzip_decoder.hpp"
#include "io/plain_decoder.hpp"
#include "io/zstd_decoder.hpp"

namespace ghsift {
namespace {

bool StartsWith(std::span<const char> head, std::string_view prefix) {
  return head.size() >= prefix.size() && std::memcmp(head.data(), prefix.data(), prefix.size()) == 0;
}

//! gzip and zstd by their magic numbers, plain JSON lines by a first '{' or whitespace; none
//! when the first bytes do not say.
std::optional<Compression> CompressionFromBytes(std::span<const char> head) {
  if (StartsWith(head, "\x1f\x8b")) return Compression::kGzip;
  if (StartsWith(head, "\x28\xb5\x2f\xfd")) return Compression::kZstd;
  if (!head.empty() && std::string_view("{ \t\r\n").find(head[0]) != std::string_view::npos) {
    return Compression::kNone;
  }
  return std::nullopt;
}

//! Enough for every magic number and a readable start of a file that is none of ours.
constexpr size_t kHeadBytes = 32;

//! The first bytes of an input, up to its first line end, as text a terminal shows: quoted, with
//! bytes outside printable ASCII written as \xNN.
std::string Preview(std::span<const char> head) {
  std::string out = "\"";
  for (const char c : head) {
    if (c == '\n' || c == '\r') break;
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out += c;
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    }
  }
  return out + "\"";
}

//! Why an input that is neither gzip, zstd nor JSON lines cannot be read, naming what it is
//! when its first bytes say so; empty when it may still be one of ours (a damaged header or
//! plain text: the decoder the name asks for, or the line checks, report it).
std::string NotADump(std::span<const char> head, Compression by_name) {
  std::string kind;
  if (StartsWith(head, "BZh")) kind = "a bzip2 file";
  else if (StartsWith(head, std::string_view("\xfd" "7zXZ\0", 6))) kind = "an xz file";
  else if (StartsWith(head, "PK\x03\x04")) kind = "a zip archive";
  else if (StartsWith(head, "\x04\x22\x4d\x18")) kind = "an lz4 file";
  else if (StartsWith(head, "<")) kind = "an HTML or XML page (an error page served or saved in place of the hour?)";
  else if (by_name == Compression::kGzip) kind = "named as gzip but neither gzip, zstd nor JSON lines";
  else if (by_name == Compression::kZstd) kind = "named as zstd but neither zstd, gzip nor JSON lines";
  else return "";
  return "not a GH Archive dump: " + kind + ", starting with " + Preview(head) +
         "; ghsift reads gzip, zstd and plain JSON lines";
}

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
  Result<bool> ReadOnAfterEarlyEnd() override { return source_->ReadOnAfterEarlyEnd(); }

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
    const std::optional<Compression> by_bytes = CompressionFromBytes(head);
    if (!head.empty() && !by_bytes) {
      const std::string why = NotADump(head, CompressionFromName(name_));
      if (!why.empty()) return Status::Corrupt(why);
    }
    const Compression compression = by_bytes.value_or(CompressionFromName(name_));
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
  return CompressionFromBytes(head).value_or(CompressionFromName(name));
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
