#pragma once
// RocksDB's own messages for a store (its warnings and errors), in the store's LOG file.
// RocksDB's file logger appends through a WritableFileWriter which, in Debian's RocksDB 7.8 (built
// with assertions), aborts the process when it is asked to append again after an append failed:
// on a full disk, the first warning that could not be written ended ghsift at the next one (exit
// 134), from a background thread. StoreLog writes with stdio and drops what the disk refuses.
#include <rocksdb/env.h>

#include <cstdio>
#include <mutex>
#include <string>

namespace ghsift {

class StoreLog : public rocksdb::Logger {
 public:
  //! Appends to `path`; a LOG of more than 1 MiB is first moved to LOG.old. Without a file (the
  //! directory refuses it) every message is dropped.
  explicit StoreLog(const std::string& path);
  ~StoreLog() override;
  StoreLog(const StoreLog&) = delete;
  StoreLog& operator=(const StoreLog&) = delete;

  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override;

 private:
  std::mutex mutex_;
  std::FILE* file_ = nullptr;
};

}  // namespace ghsift
