#include "rollup/listing_index.hpp"

#include <set>
#include <thread>

#include "common/byte_codec.hpp"
#include "rollup/rollup.hpp"

namespace ghsift {
namespace {

// The value of an entry, and the first byte of ListedAs: the kind, and whether the creation time is known.
constexpr uint8_t kPullRequestBit = 1, kCreatedKnownBit = 2;
// ListedAs: that byte, the time (8 bytes), then each flagged category followed by NUL.
constexpr size_t kListedFixed = 1 + 8;
// An entry's key ends with the time (descending), repository id and number, 8 bytes each.
constexpr size_t kKeyTail = 24;

//! The time as it sorts in keys: newest first (~t is decreasing in t, and never overflows).
void PutDescendingTime(std::string& out, int64_t time) { PutOrderedInt64(out, ~time); }

std::string CategoryPrefix(std::string_view category) {
  std::string out(category);
  out.push_back('\0');
  return out;
}

}  // namespace

std::string ListedAs(const DecisionModel& model, const IssueRecord& record) {
  if (record.reference_only()) return {};
  const std::vector<std::string> flagged = model.Flagged(record.rules);
  // Listings show reports with a problem category only; a facet alone never lists one.
  if (model.Problems(flagged).empty()) return {};
  std::string out;
  const uint8_t bits = (record.kind == 1 ? kPullRequestBit : 0) | (record.created_at != 0 ? kCreatedKnownBit : 0);
  out.push_back(static_cast<char>(bits));
  PutOrderedInt64(out, record.created_at != 0 ? record.created_at : record.first_seen);
  for (const std::string& category : flagged) {
    out += category;
    out.push_back('\0');
  }
  return out;
}

Status AddListingEntries(std::string_view listed_as, int64_t repo_id, int64_t number,
                         std::vector<std::pair<std::string, std::string>>& out) {
  if (listed_as.empty()) return Status::Ok();
  if (listed_as.size() < kListedFixed || listed_as.back() != '\0') {
    return Status::StoreError("damaged listing entry of a report");
  }
  std::string tail;
  PutDescendingTime(tail, GetOrderedInt64(listed_as, 1));
  PutOrderedInt64(tail, repo_id);
  PutOrderedInt64(tail, number);
  const std::string value(1, listed_as[0]);
  // "" (any problem) first, then each category.
  out.emplace_back(CategoryPrefix("") + tail, value);
  for (size_t at = kListedFixed; at < listed_as.size();) {
    const size_t nul = listed_as.find('\0', at);
    out.emplace_back(CategoryPrefix(listed_as.substr(at, nul - at)) + tail, value);
    at = nul + 1;
  }
  return Status::Ok();
}

namespace {

// Reads the entries of [begin, end) of one category, decoded, skipping the stale reports'.
Status ScanEntries(const Store& store, const std::string& prefix, const std::string& begin, const std::string& end,
                   const std::set<std::pair<int64_t, int64_t>>& stale_keys,
                   const std::function<Status(const ListingEntry&)>& entry) {
  return store.ScanListing(begin, end, [&](std::string_view key, std::string_view value) -> Status {
    if (key.size() != prefix.size() + kKeyTail || value.size() != 1) return Status::StoreError("damaged listing index entry");
    ListingEntry e;
    e.time = ~GetOrderedInt64(key, prefix.size());
    e.repo_id = GetOrderedInt64(key, prefix.size() + 8);
    e.number = GetOrderedInt64(key, prefix.size() + 16);
    if (!stale_keys.empty() && stale_keys.count({e.repo_id, e.number})) return Status::Ok();
    const auto bits = static_cast<uint8_t>(value[0]);
    e.kind = (bits & kPullRequestBit) != 0 ? 1 : 0;
    e.created_known = (bits & kCreatedKnownBit) != 0;
    return entry(e);
  });
}

struct KeyRange {
  std::string prefix, begin, end;
};

// Newest first: the range begins at its last second and ends before its first.
KeyRange KeysOf(const ListingRange& range) {
  KeyRange keys;
  keys.prefix = CategoryPrefix(range.category);
  keys.begin = keys.end = keys.prefix;
  if (range.to) PutDescendingTime(keys.begin, *range.to - 1);
  if (range.from) {
    PutDescendingTime(keys.end, *range.from - 1);
  } else {
    keys.end.back() = '\1';  // past every key of the category
  }
  return keys;
}

}  // namespace

std::optional<std::string> ListingSplit(const Store& store, const ListingRange& range) {
  const KeyRange keys = KeysOf(range);
  const uint64_t total = store.ApproximateListingBytes(keys.begin, keys.end);
  if (total == 0 || total < range.split_above_bytes) return std::nullopt;
  auto key_at = [&](int64_t time) {  // where entries of `time` and older begin
    std::string key = keys.prefix;
    PutDescendingTime(key, time);
    return key;
  };
  // Bisects the time: the newer half [begin, key_at(t)) grows as t falls. Times are Unix
  // seconds, never below 0 (an unknown creation time is a sighting's).
  int64_t older = range.from.value_or(0) - 1;  // the newer half is big enough at `older`,
  int64_t newer = range.to.value_or(int64_t{1} << 34) - 1;  // too small at `newer`
  while (newer - older > 1) {
    const int64_t mid = older + (newer - older) / 2;
    if (store.ApproximateListingBytes(keys.begin, key_at(mid)) * 2 < total) {
      newer = mid;
    } else {
      older = mid;
    }
  }
  std::string split = key_at(newer);
  if (split <= keys.begin || split >= keys.end) return std::nullopt;
  return split;
}

Result<bool> ReadListing(const Store& store, const ListingRange& range,
                         const std::function<Status(int64_t, int64_t, const IssueRecord&)>& stale,
                         const std::function<Status(const ListingEntry&)>& entry) {
  GHSIFT_ASSIGN_OR_RETURN(const bool complete, HasCompleteRollup(store));
  if (!complete || !store.HasListing()) return false;
  // The stale reports' entries may be those of an older record: their records stand instead.
  std::set<std::pair<int64_t, int64_t>> stale_keys;
  GHSIFT_TRY(store.ScanStaleIssues([&](int64_t repo_id, int64_t number, const std::optional<IssueRecord>& record,
                                       std::string_view) -> Status {
    stale_keys.emplace(repo_id, number);
    return record ? stale(repo_id, number, *record) : Status::Ok();
  }));
  const KeyRange keys = KeysOf(range);
  const std::string context = "listing " + (range.category.empty() ? std::string("flagged reports") : range.category);
  const std::optional<std::string> halfway = ListingSplit(store, range);
  if (!halfway) {
    GHSIFT_TRY(ScanEntries(store, keys.prefix, keys.begin, keys.end, stale_keys, entry).WithContext(context));
    return true;
  }
  // The older half is read (and decoded) by a second thread into memory while the newer half goes
  // to the caller; then the older half follows, so the order is the one a single pass gives.
  std::vector<ListingEntry> older_entries;
  Status older_read;
  std::jthread older_reader([&] {  // (joined on every way out)
    older_read = ScanEntries(store, keys.prefix, *halfway, keys.end, stale_keys, [&](const ListingEntry& e) {
      older_entries.push_back(e);
      return Status::Ok();
    });
  });
  const Status newer_read = ScanEntries(store, keys.prefix, keys.begin, *halfway, stale_keys, entry);
  older_reader.join();
  GHSIFT_TRY(newer_read.WithContext(context));
  GHSIFT_TRY(older_read.WithContext(context));
  for (const ListingEntry& e : older_entries) GHSIFT_TRY(entry(e));
  return true;
}

}  // namespace ghsift
