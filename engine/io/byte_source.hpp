#pragma once
// The first stage: raw bytes from a file, read in large blocks.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "common/result.hpp"

namespace ghsift {

class FileSource {
 public:
  //! Opens `path` for sequential reading.
  static Result<FileSource> Open(const std::string& path);
  FileSource(FileSource&& other) noexcept;
  FileSource& operator=(FileSource&& other) noexcept;
  FileSource(const FileSource&) = delete;
  ~FileSource();

  //! Reads up to `out.size()` bytes; 0 means end of file.
  Result<size_t> Read(std::span<char> out);
  uint64_t size() const { return size_; }
  uint64_t bytes_read() const { return bytes_read_; }
  //! CRC-64 of the bytes read so far: after the last read, the file's content identity.
  uint64_t content_hash() const { return crc_; }
  const std::string& path() const { return path_; }

 private:
  FileSource(int fd, std::string path, uint64_t size) : fd_(fd), path_(std::move(path)), size_(size) {}
  int fd_ = -1;
  std::string path_;
  uint64_t size_ = 0;
  uint64_t bytes_read_ = 0;
  uint64_t crc_ = 0;
};

//! CRC-64 of a whole file, read in large blocks (the same value FileSource computes).
Result<uint64_t> HashFile(const std::string& path);

}  // namespace ghsift
