#include "rollup/rollup.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <thread>
#include <unordered_map>

#include "common/byte_codec.hpp"
#include "common/time_util.hpp"
#include "common/unknown_value.hpp"
#include "rollup/listing_index.hpp"
#include "store/key_codec.hpp"

namespace ghsift {
namespace {

// Bump when the cell layout changes: a store with another version is rebuilt at the next refresh.
// 3: reports without text under kNoTextCategory; 4: the listing index (listing_index.hpp).
constexpr const char* kRollupLayout = "4";
// Reports per atomic step of a refresh: bounds the batch (a few MB) without many tiny writes.
constexpr size_t kReportsPerStep = 50000;
// Cell keys: part tag, repo id, month, kind, state, NUL, category. The tag comes first so that a
// question reads only the part it needs (report cells, or category cells).
constexpr char kReportTag = 'R';
constexpr char kCategoryTag = 'C';
constexpr size_t kRepoAt = 1, kRepoBytes = 8;
// Total cells (ReportTotals), of no repository: tag, kind, then kTotalReports or kTotalFlagged.
constexpr char kTotalTag = 'T';
constexpr char kTotalReports = 'r', kTotalFlagged = 'f';

char TagOf(RollupPart part) {
  switch (part) {
    case RollupPart::kReports: return kReportTag;
    case RollupPart::kCategories: return kCategoryTag;
    case RollupPart::kTotals: return kTotalTag;
  }
  return kReportTag;
}

//! The total cells a report counts in: none for one seen only through a closing reference, as
//! in RollupKeysOf.
void AddTotalKeys(const DecisionModel& model, const IssueRecord& record, std::vector<std::string>& out) {
  if (record.reference_only()) return;
  const std::string kind(1, static_cast<char>(record.kind == 1 ? 1 : 0));
  out.push_back(std::string(1, kTotalTag) + kind + kTotalReports);
  if (!model.Problems(model.Flagged(record.rules)).empty()) {
    out.push_back(std::string(1, kTotalTag) + kind + kTotalFlagged);
  }
}

//! Count changes per cell key (applied as merge operands, so their order does not matter).
using CellDeltas = std::unordered_map<std::string, int64_t>;

// counted_under value: the report's cell keys without their repo id, each as length:2 + bytes,
// then (when it is listed) kListedTag and what it is listed as (ListedAs), as length:2 + bytes.
constexpr char kListedTag = 'L';

std::string EncodeCounted(const std::vector<std::string>& cell_keys, std::string_view listed_as) {
  std::string out;
  if (!listed_as.empty()) {
    const size_t n = 1 + listed_as.size();
    out.push_back(static_cast<char>(n & 0xff));
    out.push_back(static_cast<char>(n >> 8));
    out.push_back(kListedTag);
    out.append(listed_as);
  }
  for (const std::string& key : cell_keys) {
    if (key[0] == kTotalTag) {  // of no repository: kept whole
      out.push_back(static_cast<char>(key.size()));
      out.push_back('\0');
      out.append(key);
      continue;
    }
    const size_t n = key.size() - kRepoBytes;
    out.push_back(static_cast<char>(n & 0xff));
    out.push_back(static_cast<char>(n >> 8));
    out.append(key, 0, kRepoAt);
    out.append(key, kRepoAt + kRepoBytes);
  }
  return out;
}

Status DecodeCounted(int64_t repo_id, std::string_view value, std::vector<std::string>& out,
                     std::string* listed_as) {
  out.clear();
  const std::string prefix = keys::IssuePrefix(repo_id);
  size_t at = 0;
  while (at < value.size()) {
    if (value.size() - at < 2) return Status::StoreError("damaged rollup entry of a report");
    const size_t n = static_cast<uint8_t>(value[at]) | (static_cast<size_t>(static_cast<uint8_t>(value[at + 1])) << 8);
    at += 2;
    if (n < kRepoAt || value.size() - at < n) return Status::StoreError("damaged rollup entry of a report");
    if (value[at] == kTotalTag) {
      out.emplace_back(value.substr(at, n));
      at += n;
      continue;
    }
    if (value[at] == kListedTag) {
      if (listed_as != nullptr) listed_as->assign(value.substr(at + 1, n - 1));
      at += n;
      continue;
    }
    std::string key(value.substr(at, kRepoAt));
    key += prefix;
    key += value.substr(at + kRepoAt, n - kRepoAt);
    out.push_back(std::move(key));
    at += n;
  }
  return Status::Ok();
}

// Moves a stale report from the cells it was counted under to the cells it counts under now.
Status MoveReport(const DecisionModel& model, int64_t repo_id, const std::optional<IssueRecord>& record,
                  std::string_view counted_under, CellDeltas& deltas,
                  std::vector<std::string>* now_out, std::string* listed_before = nullptr) {
  std::vector<std::string> before;
  GHSIFT_TRY(DecodeCounted(repo_id, counted_under, before, listed_before));
  for (const std::string& key : before) --deltas[key];
  std::vector<std::string> now = record ? RollupKeysOf(model, repo_id, *record) : std::vector<std::string>();
  if (record) AddTotalKeys(model, *record, now);
  for (const std::string& key : now) ++deltas[key];
  if (now_out != nullptr) *now_out = std::move(now);
  return Status::Ok();
}

}  // namespace

Result<bool> HasCompleteRollup(const Store& store) {
  auto version = store.GetMeta(Store::kRollupMetaKey);
  if (!version.ok()) return version.status();
  return version->value_or(std::string()) == kRollupLayout;
}

std::vector<std::string> CategoriesOf(const DecisionModel& model, const IssueRecord& record) {
  if (record.no_text()) return {kNoTextCategory};
  return model.Flagged(record.rules);
}

std::vector<std::string> RollupKeysOf(const DecisionModel& model, int64_t repo_id, const IssueRecord& record) {
  if (record.reference_only()) return {};
  std::string base(1, kReportTag);
  base += keys::IssuePrefix(repo_id);
  PutOrderedInt32(base, MonthOfDay(DayOf(record.created_at != 0 ? record.created_at : record.first_seen)));
  base.push_back(static_cast<char>(record.kind));
  // The stored cell keys hold the printed value: stores written before it was a constant agree.
  base += record.state.empty() ? kUnknownValue : record.state;
  base.push_back('\0');
  std::vector<std::string> out = {base};
  base[0] = kCategoryTag;
  for (const std::string& category : CategoriesOf(model, record)) out.push_back(base + category);
  return out;
}

bool DecodeRollupKey(std::string_view key, RollupCell* out) {
  constexpr size_t kFixed = kRepoAt + kRepoBytes + 4 + 1;
  if (key.size() < kFixed || (key[0] != kReportTag && key[0] != kCategoryTag)) return false;
  const size_t nul = key.find('\0', kFixed);
  if (nul == std::string_view::npos) return false;
  out->repo_id = GetOrderedInt64(key, kRepoAt);
  out->month = GetOrderedInt32(key, kRepoAt + kRepoBytes);
  out->kind = static_cast<uint8_t>(key[kRepoAt + kRepoBytes + 4]);
  out->state = key.substr(kFixed, nul - kFixed);
  out->category = key.substr(nul + 1);
  return (key[0] == kReportTag) == out->category.empty();
}

Result<DecisionModel> LoadStoreModel(const Store& store) {
  auto text = store.GetMeta("rules");
  if (!text.ok()) return text.status();
  if (!text->has_value()) return DecisionModel();
  return DecisionModel::Parse(**text);
}

namespace {

//! Recounts the reports of one key range, in atomic steps of kReportsPerStep. Ranges hold
//! disjoint reports, and cell counts are added by merge operands, so ranges run in parallel.
class RangeRefresh {
 public:
  RangeRefresh(Store& store, const DecisionModel& model, bool rebuild)
      : store_(store), model_(model), rebuild_(rebuild) {}

  Status Run(const Store::KeyRange& range) {
    if (rebuild_) {
      GHSIFT_TRY(store_.ScanIssuesIn(range, [&](int64_t repo_id, int64_t number, const IssueRecord& record) {
        return Take(repo_id, number, record, std::string_view());
      }));
    } else {
      GHSIFT_TRY(store_.ScanStaleIssues(
          [&](int64_t repo_id, int64_t number, const std::optional<IssueRecord>& record,
              std::string_view counted_under) { return Take(repo_id, number, record, counted_under); },
          range));
    }
    return Apply();
  }

  size_t recounted() const { return recounted_; }

 private:
  Status Take(int64_t repo_id, int64_t number, const std::optional<IssueRecord>& record,
              std::string_view counted_under) {
    std::vector<std::string> now;
    std::string listed_before;
    GHSIFT_TRY(MoveReport(model_, repo_id, record, counted_under, deltas_, &now, &listed_before));
    // Its listing entries move only when what it is listed as changed (most changes are comments).
    const std::string listed_now = record ? ListedAs(model_, *record) : std::string();
    if (listed_now != listed_before) {
      moved_.clear();
      GHSIFT_TRY(AddListingEntries(listed_before, repo_id, number, moved_));
      for (auto& [key, value] : moved_) update_.unlisted.push_back(std::move(key));
      GHSIFT_TRY(AddListingEntries(listed_now, repo_id, number, update_.listed));
    }
    update_.counted_under.push_back({{repo_id, number}, EncodeCounted(now, listed_now)});
    ++recounted_;
    return update_.counted_under.size() >= kReportsPerStep ? Apply() : Status::Ok();
  }

  Status Apply() {
    update_.deltas.assign(deltas_.begin(), deltas_.end());
    std::sort(update_.deltas.begin(), update_.deltas.end());  // key order inserts fastest
    update_.unmark_stale = !rebuild_;                          // ClearRollup took every mark
    GHSIFT_TRY(store_.ApplyRollup(update_));
    deltas_.clear();
    update_ = Store::RollupUpdate();
    return Status::Ok();
  }

  Store& store_;
  const DecisionModel& model_;
  const bool rebuild_;
  CellDeltas deltas_;
  Store::RollupUpdate update_;
  std::vector<std::pair<std::string, std::string>> moved_;  //!< a report's former listing entries
  size_t recounted_ = 0;
};

//! Threads a refresh uses by default. On 2 cores a second one gains little while the final
//! flush runs beside it; on a million reports it saved a quarter of the refresh.
size_t DefaultRefreshThreads() { return std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 4); }

}  // namespace

Result<size_t> RefreshRollup(Store& store, size_t threads) {
  GHSIFT_ASSIGN_OR_RETURN(const DecisionModel model, LoadStoreModel(store));
  GHSIFT_ASSIGN_OR_RETURN(const bool complete, HasCompleteRollup(store));
  const bool rebuild = !complete;
  // From nothing: a rebuild cut short leaves meta "rollup" unset, so readers scan reports and
  // the next refresh starts over.
  if (rebuild) GHSIFT_TRY(store.ClearRollup());

  const std::vector<Store::KeyRange> ranges =
      store.SplitReports(threads > 0 ? threads : DefaultRefreshThreads(), !rebuild);
  std::vector<RangeRefresh> parts(ranges.size(), RangeRefresh(store, model, rebuild));
  std::vector<Status> results(ranges.size());
  std::vector<std::thread> helpers;
  for (size_t i = 1; i < ranges.size(); ++i) {
    helpers.emplace_back([&, i] { results[i] = parts[i].Run(ranges[i]); });
  }
  results[0] = parts[0].Run(ranges[0]);
  for (std::thread& t : helpers) t.join();
  size_t recounted = 0;
  for (size_t i = 0; i < ranges.size(); ++i) {
    GHSIFT_TRY(results[i]);
    recounted += parts[i].recounted();
  }
  if (rebuild) {
    Store::RollupUpdate done;
    done.version = std::string(kRollupLayout);
    done.unmark_stale = false;
    GHSIFT_TRY(store.ApplyRollup(done));
  }
  return recounted;
}

Status SettleStore(Store& store, bool wrote, SettleTimes* times) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  if (wrote) GHSIFT_TRY(store.StartFlush());
  GHSIFT_ASSIGN_OR_RETURN(const size_t recounted, RefreshRollup(store));
  const auto refreshed = Clock::now();
  Store::FinishTimes* finish_times = times != nullptr ? &times->finish : nullptr;
  const Status finished = wrote || recounted > 0 ? store.Finish(finish_times) : Status::Ok();
  if (times != nullptr) {
    times->recounted = recounted;
    times->refresh_seconds = std::chrono::duration<double>(refreshed - start).count();
  }
  return finished;
}

namespace {

//! The keys of a part's cells: [its tag, the next tag).
std::pair<std::string, std::string> KeysOfPart(RollupPart part) {
  const char tag = TagOf(part);
  return {std::string(1, tag), std::string(1, static_cast<char>(tag + 1))};
}

}  // namespace

std::optional<std::string> RollupSplit(const Store& store, RollupPart part, uint64_t split_above_bytes) {
  const auto [tag, end] = KeysOfPart(part);
  const uint64_t total = store.ApproximateRollupBytes(tag, end);
  if (total == 0 || total < split_above_bytes) return std::nullopt;
  auto key_at = [&](int64_t repo_id) { return tag + keys::IssuePrefix(repo_id); };
  // Bisects the repository ids: the first half [tag, key_at(id)) grows with id.
  // (Ids are never negative: the first half is too small at 0, and the bisection cannot overflow.)
  int64_t small = 0, big = std::numeric_limits<int64_t>::max();  // too small at `small`, enough at `big`
  while (big - small > 1) {
    const int64_t mid = small + (big - small) / 2;
    if (store.ApproximateRollupBytes(tag, key_at(mid)) * 2 < total) {
      small = mid;
    } else {
      big = mid;
    }
  }
  std::string split = key_at(big);
  if (split <= tag || split >= end) return std::nullopt;
  return split;
}

namespace {

//! Calls `fn` for every cell of `tag`, in key order. A large part is read in two halves at once:
//! the later half by a second thread into memory, given to `fn` after the first. On ten million
//! reports, a query by category read 110,000 cells in 100 ms in one pass.
Status ScanPart(const Store& store, RollupPart part, uint64_t split_above_bytes,
                const std::function<void(std::string_view, int64_t)>& fn) {
  const auto [tag, end] = KeysOfPart(part);
  const std::optional<std::string> halfway = RollupSplit(store, part, split_above_bytes);
  if (!halfway) return store.ScanRollup(tag, fn);
  std::string later_keys;  // the later half's keys, end to end
  std::vector<std::pair<size_t, int64_t>> later;  // each key's length and count
  Status later_read;
  std::jthread later_reader([&] {  // (joined on every way out)
    later_read = store.ScanRollupIn(*halfway, end, [&](std::string_view key, int64_t n) {
      later_keys.append(key);
      later.emplace_back(key.size(), n);
    });
  });
  const Status first_read = store.ScanRollupIn(tag, *halfway, fn);
  later_reader.join();
  GHSIFT_TRY(first_read);
  GHSIFT_TRY(later_read);
  size_t at = 0;
  for (const auto& [length, n] : later) {
    fn(std::string_view(later_keys).substr(at, length), n);
    at += length;
  }
  return Status::Ok();
}

}  // namespace

Result<bool> ReadRollup(const Store& store, const DecisionModel& model, RollupPart part,
                        const std::optional<std::vector<int64_t>>& repo_ids,
                        const std::function<void(std::string_view, int64_t)>& fn, uint64_t split_above_bytes) {
  const std::string tag(1, TagOf(part));
  GHSIFT_ASSIGN_OR_RETURN(const bool complete, HasCompleteRollup(store));
  if (!complete) return false;
  if (repo_ids) {
    for (const int64_t id : *repo_ids) GHSIFT_TRY(store.ScanRollup(tag + keys::IssuePrefix(id), fn));
  } else {
    GHSIFT_TRY(ScanPart(store, part, split_above_bytes, fn));
  }
  CellDeltas moves;
  GHSIFT_TRY(store.ScanStaleIssues([&](int64_t repo_id, int64_t, const std::optional<IssueRecord>& record,
                                       std::string_view counted_under) -> Status {
    if (repo_ids && std::find(repo_ids->begin(), repo_ids->end(), repo_id) == repo_ids->end()) return Status::Ok();
    return MoveReport(model, repo_id, record, counted_under, moves, nullptr);
  }));
  for (const auto& [key, delta] : moves) {
    if (delta != 0 && key[0] == tag[0]) fn(key, delta);
  }
  return true;
}

Result<std::optional<ReportTotals>> ReadReportTotals(const Store& store, const DecisionModel& model) {
  ReportTotals totals;
  auto add = [&](std::string_view key, int64_t n) {
    if (key.size() != 3 || (key[1] != 0 && key[1] != 1)) return;
    uint64_t* of_kind = key[2] == kTotalFlagged ? totals.flagged : totals.reports;
    of_kind[static_cast<size_t>(key[1])] += static_cast<uint64_t>(n);
  };
  GHSIFT_ASSIGN_OR_RETURN(const bool complete, ReadRollup(store, model, RollupPart::kTotals, std::nullopt, add));
  if (!complete) return std::optional<ReportTotals>();
  return std::optional<ReportTotals>(totals);
}

}  // namespace ghsift
