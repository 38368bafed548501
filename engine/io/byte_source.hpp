#pragma once
// The first stage: raw bytes of one input (a file, or an HTTP body: see http_source.hpp).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "common/result.hpp"

namespace ghsift {

//! A forward-only stream of an input's raw (still compressed) bytes.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  //! Reads up to `out.size()` bytes; 0 means the clean end of the input.
  virtual Result<size_t> Read(std::span<char> out) = 0;
  //! The next bytes, lent without a copy where the source holds them in memory already (an HTTP
  //! body's received blocks), else read into `scratch`. Valid until the next call; empty at the
  //! clean end. Decoders read their input through this; Read serves the content typing's first
  //! bytes and plain inputs.
  virtual Result<std::span<const char>> ReadView(std::span<char> scratch) {
    GHSIFT_ASSIGN_OR_RETURN(const size_t n, Read(scratch));
    return std::span<const char>(scratch.data(), n);
  }
  //! False while a Read would wait for bytes that have not arrived (an HTTP body); files are
  //! always ready. A hint for choosing which input to read next.
  virtual bool Ready() const { return true; }
  //! Bytes the input holds when known up front (a file's size; an HTTP Content-Length), else 0.
  virtual uint64_t size() const = 0;
  virtual uint64_t bytes_read() const = 0;
  //! After the read that found the end, CRC-64 of the whole input: its content identity.
  virtual uint64_t content_hash() const = 0;
  //! Called by a decoder whose compressed stream is unfinished at the end of the input. A source
  //! whose end may not be the input's (an HTTP body sent without a Content-Length ends where
  //! the connection closed, cut or not) fetches the rest and returns true: reads go on with the
  //! next bytes. False leaves the end as the input's own (a file; a body of announced length),
  //! and the decoder reports the stream truncated; a failure (retries spent) is the input's.
  virtual Result<bool> ReadOnAfterEarlyEnd() { return false; }
};

class FileSource final : public ByteSource {
 public:
  //! Opens `path` for sequential reading.
  static Result<FileSource> Open(const std::string& path);
  FileSource(FileSource&& other) noexcept;
  FileSource& operator=(FileSource&& other) noexcept;
  FileSource(const FileSource&) = delete;
  ~FileSource();

  //! Reads up to `out.size()` bytes; 0 means end of file.
  Result<size_t> Read(std::span<char> out) override;
  uint64_t size() const override { return size_; }
  uint64_t bytes_read() const override { return bytes_read_; }
  uint64_t content_hash() const override { return crc_; }
  const std::string& path() const { return path_; }

 private:
  FileSource(int fd, std::string path, uint64_t size) : fd_(fd), path_(std::move(path)), size_(size) {}
  int fd_ = -1;
  std::string path_;
  uint64_t size_ = 0;
  uint64_t bytes_read_ = 0;
  uint64_t crc_ = 0;
};

//! Continues a CRC-64 (ECMA-182, reflected, as ISA-L computes it) over `bytes`.
uint64_t ExtendContentHash(uint64_t crc, std::span<const char> bytes);

//! CRC-64 of a whole file, read in large blocks (the same value FileSource computes).
Result<uint64_t> HashFile(const std::string& path);

}  // namespace ghsift
