#pragma once
// RocksDB's failures in ghsift's words: what ghsift was doing and what went wrong first, then
// RocksDB's own text in parentheses for whoever needs the detail. No RocksDB text reaches the
// user alone.
#include <rocksdb/status.h>

#include <string>

#include "common/status.hpp"

namespace ghsift {

//! Ok for an ok `s`; else a kStoreError "<what>: <why, in ghsift's words> (RocksDB: <its text>)".
//! The reasons told apart: permission denied, a read-only file system, no space left, a damaged
//! store, another I/O failure.
Status FromRocks(const rocksdb::Status& s, const std::string& what);

//! Whether RocksDB's failure was the operating system refusing access (EACCES, EPERM, EROFS).
bool IsPermissionDenied(const rocksdb::Status& s);

}  // namespace ghsift
