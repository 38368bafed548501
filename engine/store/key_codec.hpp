#pragma once
// Key layout of the store (RocksDB bytewise order = the order range scans need).
//
//   counters CF  'R' repo_id:8 day:4 type  -> int64 (events of a type, per repo and day)
//                'T' day:4 type            -> int64 (events of a type per day, all repos)
//                'S' name                  -> int64 (store-wide statistics)
//                'X' month:4 measure       -> int64 (report events with and without text, per month)
//   repos CF     'I' repo_id:8             -> latest name (varint time, name)
//                'N' lower(name) 0x00 repo_id:8 -> "" (names ever seen, for --repo)
//   issues CF    repo_id:8 number:8        -> IssueRecord
//   files CF     file name                 -> FileEntry
//   meta CF      name                      -> text (rule model, repo scope, format)
// Integers are big-endian with the sign bit flipped, so they sort numerically.
#include <cstdint>
#include <string>
#include <string_view>

namespace ghsift::keys {

inline constexpr char kRepoCounter = 'R';
inline constexpr char kTypeCounter = 'T';
inline constexpr char kStat = 'S';
inline constexpr char kTextShare = 'X';
inline constexpr char kRepoLatestName = 'I';
inline constexpr char kRepoNameIndex = 'N';

std::string RepoCounter(int64_t repo_id, int32_t day, std::string_view type);
std::string RepoCounterPrefix(int64_t repo_id);
std::string TypeCounter(int32_t day, std::string_view type);
std::string Stat(std::string_view name);
std::string TextShare(int32_t month, std::string_view measure);
std::string RepoLatestName(int64_t repo_id);
std::string RepoNameIndex(std::string_view lower_name, int64_t repo_id);
std::string RepoNameIndexPrefix(std::string_view lower_name);
std::string Issue(int64_t repo_id, int64_t number);
std::string IssuePrefix(int64_t repo_id);

struct RepoCounterKey {
  int64_t repo_id;
  int32_t day;
  std::string_view type;
};
bool ParseRepoCounter(std::string_view key, RepoCounterKey* out);
struct TypeCounterKey {
  int32_t day;
  std::string_view type;
};
bool ParseTypeCounter(std::string_view key, TypeCounterKey* out);
struct TextShareKey {
  int32_t month;
  std::string_view measure;
};
bool ParseTextShare(std::string_view key, TextShareKey* out);
bool ParseIssue(std::string_view key, int64_t* repo_id, int64_t* number);
bool ParseRepoNameIndex(std::string_view key, int64_t* repo_id);

std::string EncodeInt64(int64_t v);
int64_t DecodeInt64(std::string_view bytes);

}  // namespace ghsift::keys
