#include "store/key_codec.hpp"

#include <cstring>

#include "common/byte_codec.hpp"

namespace ghsift::keys {

std::string RepoCounter(int64_t repo_id, int32_t day, std::string_view type) {
  std::string k(1, kRepoCounter);
  PutOrderedInt64(k, repo_id);
  PutOrderedInt32(k, day);
  k.append(type);
  return k;
}

std::string RepoCounterPrefix(int64_t repo_id) {
  std::string k(1, kRepoCounter);
  PutOrderedInt64(k, repo_id);
  return k;
}

std::string TypeCounter(int32_t day, std::string_view type) {
  std::string k(1, kTypeCounter);
  PutOrderedInt32(k, day);
  k.append(type);
  return k;
}

std::string TextShare(int32_t month, std::string_view measure) {
  std::string k(1, kTextShare);
  PutOrderedInt32(k, month);
  k.append(measure);
  return k;
}

bool ParseTextShare(std::string_view key, TextShareKey* out) {
  if (key.size() < 5 || key[0] != kTextShare) return false;
  out->month = GetOrderedInt32(key, 1);
  out->measure = key.substr(5);
  return true;
}

std::string Stat(std::string_view name) { return std::string(1, kStat) + std::string(name); }

std::string RepoLatestName(int64_t repo_id) {
  std::string k(1, kRepoLatestName);
  PutOrderedInt64(k, repo_id);
  return k;
}

std::string RepoNameIndexPrefix(std::string_view lower_name) {
  std::string k(1, kRepoNameIndex);
  k.append(lower_name);
  k.push_back('\0');
  return k;
}

std::string RepoNameIndex(std::string_view lower_name, int64_t repo_id) {
  std::string k = RepoNameIndexPrefix(lower_name);
  PutOrderedInt64(k, repo_id);
  return k;
}

std::string IssuePrefix(int64_t repo_id) {
  std::string k;
  PutOrderedInt64(k, repo_id);
  return k;
}

std::string Issue(int64_t repo_id, int64_t number) {
  std::string k = IssuePrefix(repo_id);
  PutOrderedInt64(k, number);
  return k;
}

bool ParseRepoCounter(std::string_view key, RepoCounterKey* out) {
  if (key.size() < 13 || key[0] != kRepoCounter) return false;
  out->repo_id = GetOrderedInt64(key, 1);
  out->day = GetOrderedInt32(key, 9);
  out->type = key.substr(13);
  return true;
}

bool ParseTypeCounter(std::string_view key, TypeCounterKey* out) {
  if (key.size() < 5 || key[0] != kTypeCounter) return false;
  out->day = GetOrderedInt32(key, 1);
  out->type = key.substr(5);
  return true;
}

bool ParseIssue(std::string_view key, int64_t* repo_id, int64_t* number) {
  if (key.size() != 16) return false;
  *repo_id = GetOrderedInt64(key, 0);
  *number = GetOrderedInt64(key, 8);
  return true;
}

bool ParseRepoNameIndex(std::string_view key, int64_t* repo_id) {
  if (key.size() < 10 || key[0] != kRepoNameIndex) return false;
  *repo_id = GetOrderedInt64(key, key.size() - 8);
  return true;
}

std::string EncodeInt64(int64_t v) {
  std::string out(8, '\0');
  std::memcpy(out.data(), &v, 8);
  return out;
}

int64_t DecodeInt64(std::string_view bytes) {
  int64_t v = 0;
  if (bytes.size() == 8) std::memcpy(&v, bytes.data(), 8);
  return v;
}

}  // namespace ghsift::keys
