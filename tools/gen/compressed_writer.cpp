#include "gen/compressed_writer.hpp"

#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>

namespace ghsift::gen {

namespace {
constexpr size_t kBufferSize = 1 << 18;
}

Result<Compression> ParseCompression(const std::string& name) {
  if (name == "gz") return Compression::kGzip;
  if (name == "zst") return Compression::kZstd;
  if (name == "none") return Compression::kNone;
  return Status::InvalidArgument("compression must be gz, zst or none, got '" + name + "'");
}

const char* FileExtension(Compression compression) {
  switch (compression) {
    case Compression::kGzip: return ".json.gz";
    case Compression::kZstd: return ".json.zst";
    default: return ".json";
  }
}

Status CheckLevel(Compression compression, int level) {
  if (compression == Compression::kGzip && (level < 0 || level > 9)) {
    return Status::InvalidArgument("gzip level must be 0-9, got " + std::to_string(level));
  }
  if (compression == Compression::kZstd && (level < 1 || level > ZSTD_maxCLevel())) {
    return Status::InvalidArgument("zstd level must be 1-" + std::to_string(ZSTD_maxCLevel()) + ", got " +
                                   std::to_string(level));
  }
  return Status::Ok();
}

CompressedWriter::~CompressedWriter() { Release(); }

void CompressedWriter::Release() {
  if (zlib_ != nullptr) {
    deflateEnd(zlib_);
    delete zlib_;
    zlib_ = nullptr;
  }
  if (zstd_ != nullptr) {
    ZSTD_freeCCtx(zstd_);
    zstd_ = nullptr;
  }
  if (file_ != nullptr) {
    std::fclose(file_);
    file_ = nullptr;
  }
}

Status CompressedWriter::Open(const std::string& path, Compression compression, int level) {
  Release();
  path_ = path;
  compression_ = compression;
  bytes_written_ = 0;
  file_ = std::fopen(path.c_str(), "wb");
  if (file_ == nullptr) return Status::IoError(path + ": cannot create: " + std::strerror(errno));
  buffer_.resize(kBufferSize);
  if (compression == Compression::kGzip) {
    zlib_ = new z_stream();
    // windowBits 31 = 15 + 16: a gzip header and trailer instead of a zlib one.
    if (deflateInit2(zlib_, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      delete zlib_;
      zlib_ = nullptr;
      return Status::InvalidArgument(path + ": zlib refused level " + std::to_string(level));
    }
  } else if (compression == Compression::kZstd) {
    zstd_ = ZSTD_createCCtx();
    if (zstd_ == nullptr) return Status::IoError(path + ": cannot create a zstd context");
    const size_t rc = ZSTD_CCtx_setParameter(zstd_, ZSTD_c_compressionLevel, level);
    if (ZSTD_isError(rc)) return Status::InvalidArgument(path + ": zstd: " + ZSTD_getErrorName(rc));
    ZSTD_CCtx_setParameter(zstd_, ZSTD_c_checksumFlag, 1);
  }
  return Status::Ok();
}

Status CompressedWriter::WriteOut(const char* data, size_t size) {
  if (size == 0) return Status::Ok();
  if (std::fwrite(data, 1, size, file_) != size) {
    return Status::IoError(path_ + ": write failed: " + std::strerror(errno));
  }
  bytes_written_ += size;
  return Status::Ok();
}

Status CompressedWriter::Write(std::string_view data) {
  if (file_ == nullptr) return Status::IoError(path_ + ": write on a closed file");
  switch (compression_) {
    case Compression::kNone:
      return WriteOut(data.data(), data.size());
    case Compression::kGzip: {
      zlib_->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
      zlib_->avail_in = static_cast<uInt>(data.size());
      while (zlib_->avail_in > 0) {
        zlib_->next_out = reinterpret_cast<Bytef*>(buffer_.data());
        zlib_->avail_out = static_cast<uInt>(buffer_.size());
        if (deflate(zlib_, Z_NO_FLUSH) == Z_STREAM_ERROR) return Status::IoError(path_ + ": deflate failed");
        GHSIFT_TRY(WriteOut(buffer_.data(), buffer_.size() - zlib_->avail_out));
      }
      return Status::Ok();
    }
    case Compression::kZstd: {
      ZSTD_inBuffer in{data.data(), data.size(), 0};
      while (in.pos < in.size) {
        ZSTD_outBuffer out{buffer_.data(), buffer_.size(), 0};
        const size_t rc = ZSTD_compressStream2(zstd_, &out, &in, ZSTD_e_continue);
        if (ZSTD_isError(rc)) return Status::IoError(path_ + ": zstd: " + ZSTD_getErrorName(rc));
        GHSIFT_TRY(WriteOut(buffer_.data(), out.pos));
      }
      return Status::Ok();
    }
  }
  return Status::Ok();
}

Status CompressedWriter::Close() {
  if (file_ == nullptr) return Status::IoError(path_ + ": close on a closed file");
  Status status;
  if (compression_ == Compression::kGzip) {
    int rc = Z_OK;
    zlib_->next_in = nullptr;
    zlib_->avail_in = 0;
    while (rc != Z_STREAM_END && status.ok()) {
      zlib_->next_out = reinterpret_cast<Bytef*>(buffer_.data());
      zlib_->avail_out = static_cast<uInt>(buffer_.size());
      rc = deflate(zlib_, Z_FINISH);
      if (rc == Z_STREAM_ERROR) {
        status = Status::IoError(path_ + ": deflate failed");
        break;
      }
      status = WriteOut(buffer_.data(), buffer_.size() - zlib_->avail_out);
    }
  } else if (compression_ == Compression::kZstd) {
    ZSTD_inBuffer in{nullptr, 0, 0};
    size_t remaining = 1;
    while (remaining != 0 && status.ok()) {
      ZSTD_outBuffer out{buffer_.data(), buffer_.size(), 0};
      remaining = ZSTD_compressStream2(zstd_, &out, &in, ZSTD_e_end);
      if (ZSTD_isError(remaining)) {
        status = Status::IoError(path_ + ": zstd: " + ZSTD_getErrorName(remaining));
        break;
      }
      status = WriteOut(buffer_.data(), out.pos);
    }
  }
  const bool close_ok = std::fclose(file_) == 0;
  file_ = nullptr;
  Release();
  if (status.ok() && !close_ok) status = Status::IoError(path_ + ": close failed: " + std::strerror(errno));
  return status;
}

}  // namespace ghsift::gen
