#include "store/store_log.hpp"

#include <sys/stat.h>

#include <cstdarg>
#include <ctime>

namespace ghsift {

StoreLog::StoreLog(const std::string& path) : rocksdb::Logger(rocksdb::InfoLogLevel::WARN_LEVEL) {
  constexpr off_t kRotateAbove = 1 << 20;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && st.st_size > kRotateAbove) std::rename(path.c_str(), (path + ".old").c_str());
  file_ = std::fopen(path.c_str(), "ae");
}

StoreLog::~StoreLog() {
  if (file_ != nullptr) std::fclose(file_);
}

void StoreLog::Logv(const char* format, va_list ap) {
  if (file_ == nullptr) return;
  char when[32];
  const std::time_t now = std::time(nullptr);
  std::tm utc {};
  gmtime_r(&now, &utc);
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ ", &utc);
  std::lock_guard<std::mutex> lock(mutex_);
  // Each write may fail (a full disk): the message is lost, nothing else happens.
  std::fputs(when, file_);
  std::vfprintf(file_, format, ap);
  std::fputc('\n', file_);
  std::fflush(file_);
  std::clearerr(file_);
}

}  // namespace ghsift
