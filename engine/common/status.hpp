#pragma once
// One error convention for the whole engine (see README "Errors"):
//  - expected failures (bad file, bad rule, store refusal) travel as Status / Result<T> values;
//  - bad records are not errors: they increment a named counter in IngestStats;
//  - programming errors are caught by GHSIFT_ASSERT;
//  - exceptions are caught only in main() (and converted at library boundaries that throw,
//    such as yaml-cpp).
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

namespace ghsift {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  //!< the caller's input is malformed (bad flag, bad rule, bad YAML)
  kIoError,          //!< the operating system refused a read or write
  kCorruptInput,     //!< a compressed or JSON input is damaged (truncated, bad CRC, ...)
  kStoreError,       //!< RocksDB reported a failure, or the path is not a ghsift store
  kAlreadyExists,    //!< the thing is there already (file ingested, lock held)
  kNotFound,         //!< a requested key, file or issue does not exist
  kCancelled,        //!< stopped on request (signal)
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return {}; }
  static Status InvalidArgument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
  static Status IoError(std::string m) { return {StatusCode::kIoError, std::move(m)}; }
  //! An I/O error with the system's reason, read from errno right after the failed call:
  //! "path: cannot read (No such file or directory)".
  static Status IoErrorFromErrno(const std::string& m) {
    return {StatusCode::kIoError, m + " (" + std::strerror(errno) + ")"};
  }
  static Status Corrupt(std::string m) { return {StatusCode::kCorruptInput, std::move(m)}; }
  static Status StoreError(std::string m) { return {StatusCode::kStoreError, std::move(m)}; }
  static Status AlreadyExists(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }
  static Status NotFound(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
  static Status Cancelled(std::string m) { return {StatusCode::kCancelled, std::move(m)}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  //! Prefixes the message with where it happened ("file.json.gz: " + message).
  Status WithContext(const std::string& where) const {
    if (ok()) return *this;
    return {code_, where + ": " + message_};
  }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

}  // namespace ghsift

#define GHSIFT_TRY(expr)                         \
  do {                                           \
    ::ghsift::Status ghsift_status_ = (expr);    \
    if (!ghsift_status_.ok()) return ghsift_status_; \
  } while (0)
