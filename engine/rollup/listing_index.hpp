#pragma once
// The listing index: for each category, the flagged reports it lists, newest first, so that
// `issues --category C [--since T]` and `sample --category C` read the reports they list
// instead of every report of the store.
//
// A report with a problem category has one entry under each category it is flagged with
// (problems and facets), and one under "" (any problem, for `issues` without --category). The
// key is category, NUL, creation time (first sighting when unknown) descending, repository id,
// number; the value says the kind and whether the creation time is known. The index is kept
// with the rollup (RefreshRollup moves a stale report's entries in the same atomic step as its
// cells), so it is complete exactly when the rollup is; readers take a stale report's record
// instead of its entries, so a listing is exact before a refresh too.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "aggregate/issue_record.hpp"
#include "common/result.hpp"
#include "rules/decision.hpp"
#include "store/store.hpp"

namespace ghsift {

//! What a report is listed as, kept per report beside the cells it counts under (so that its
//! entries can be taken out when it changes): "" when it is not listed (no problem category,
//! or seen only through a closing reference).
std::string ListedAs(const DecisionModel& model, const IssueRecord& record);

//! Appends the index entries (key, value) of a report listed as `listed_as` to `out`.
Status AddListingEntries(std::string_view listed_as, int64_t repo_id, int64_t number,
                         std::vector<std::pair<std::string, std::string>>& out);

//! One entry of the index, decoded.
struct ListingEntry {
  int64_t repo_id = 0;
  int64_t number = 0;
  int64_t time = 0;            //!< creation time, or first sighting when !created_known
  uint8_t kind = 0;            //!< 0 issue, 1 pull request
  bool created_known = false;  //!< IssueRecord::created_at != 0 (then time == created_at)
};

//! Where a listing reads, in index order (newest first).
struct ListingRange {
  std::string category;       //!< "" = every report with a problem category
  //! Creation times [from, to): set only when the reports wanted all have a known creation time.
  std::optional<int64_t> from, to;
  //! A range RocksDB estimates at this many bytes or more is read in two halves at once (see
  //! ListingSplit); the caller sees the entries in the same order either way.
  uint64_t split_above_bytes = uint64_t{8} << 20;
};

//! Where ReadListing splits `range`: the key, at a second boundary (a report's entry is on one
//! side), that halves the range's bytes as RocksDB estimates them. The older half is read and
//! decoded by a second thread while the newer one goes to the caller. None: one pass (a range
//! below range.split_above_bytes, or one the estimates cannot split).
std::optional<std::string> ListingSplit(const Store& store, const ListingRange& range);

//! Reads a listing: first `stale(repo_id, number, record)` for each stale report that has a
//! record (its entries may be out of date: the caller filters its record itself), then
//! `entry(e)` for each entry of `range` of a report that is not stale, newest first. Returns
//! false (and calls nothing) when the store has no complete index. `entry` is called on the
//! caller's thread only.
Result<bool> ReadListing(const Store& store, const ListingRange& range,
                         const std::function<Status(int64_t, int64_t, const IssueRecord&)>& stale,
                         const std::function<Status(const ListingEntry&)>& entry);

}  // namespace ghsift
