#include "io/byte_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <isa-l/crc64.h>

#include <cerrno>
#include <vector>
#include <cstring>

namespace ghsift {

Result<FileSource> FileSource::Open(const std::string& path) {
  // O_NONBLOCK: a FIFO opened without it waits for a writer, and that wait ignores a stop request;
  // with it the open returns at once and the check below refuses the FIFO. On a regular file the
  // flag changes nothing.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Status::IoError(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::IoError(path + ": not a regular file");
  }
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  return FileSource(fd, path, static_cast<uint64_t>(st.st_size));
}

FileSource::FileSource(FileSource&& other) noexcept
    : fd_(other.fd_),
      path_(std::move(other.path_)),
      size_(other.size_),
      bytes_read_(other.bytes_read_),
      crc_(other.crc_) {
  other.fd_ = -1;
}

FileSource& FileSource::operator=(FileSource&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    size_ = other.size_;
    bytes_read_ = other.bytes_read_;
    crc_ = other.crc_;
    other.fd_ = -1;
  }
  return *this;
}

FileSource::~FileSource() {
  if (fd_ >= 0) ::close(fd_);
}

Result<size_t> FileSource::Read(std::span<char> out) {
  while (true) {
    const ssize_t n = ::read(fd_, out.data(), out.size());
    if (n >= 0) {
      bytes_read_ += static_cast<uint64_t>(n);
      crc_ = ExtendContentHash(crc_, out.first(static_cast<size_t>(n)));
      return static_cast<size_t>(n);
    }
    if (errno != EINTR) return Status::IoError(path_ + ": read failed: " + std::strerror(errno));
  }
}

uint64_t ExtendContentHash(uint64_t crc, std::span<const char> bytes) {
  return crc64_ecma_refl(crc, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

Result<uint64_t> HashFile(const std::string& path) {
  auto source = FileSource::Open(path);
  if (!source.ok()) return source.status();
  std::vector<char> block(1 << 20);
  while (true) {
    auto n = source->Read(block);
    if (!n.ok()) return n.status();
    if (*n == 0) return source->content_hash();
  }
}

}  // namespace ghsift
