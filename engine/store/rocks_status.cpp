#include "store/rocks_status.hpp"

#include <cerrno>
#include <cstring>

namespace ghsift {
namespace {

//! RocksDB passes errno only as strerror's text inside its message.
bool Mentions(const rocksdb::Status& s, int error) {
  return s.ToString().find(std::strerror(error)) != std::string::npos;
}

}  // namespace

bool IsPermissionDenied(const rocksdb::Status& s) {
  return s.IsIOError() && (Mentions(s, EACCES) || Mentions(s, EPERM) || Mentions(s, EROFS));
}

Status FromRocks(const rocksdb::Status& s, const std::string& what) {
  if (s.ok()) return Status::Ok();
  std::string why;
  if (IsPermissionDenied(s)) why = Mentions(s, EROFS) ? "read-only file system" : "permission denied";
  else if (s.IsNoSpace() || Mentions(s, ENOSPC)) why = "no space left on the device";
  else if (s.IsCorruption()) why = "the store is damaged";
  else if (s.IsIOError()) why = "the operating system refused a read or write";
  else if (s.IsBusy() || s.IsTimedOut()) why = "the store is busy";
  else why = "the store's database failed";
  return Status::StoreError(what + ": " + why + " (RocksDB: " + s.ToString() + ")");
}

}  // namespace ghsift
