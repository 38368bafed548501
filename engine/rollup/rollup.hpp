#pragma once
// The rollup: how many reports fall in each cell (repo, month, kind, state, category), kept in
// the store so that `query` answers from a few thousand cells instead of millions of reports.
//
// Writers never read to maintain it: a commit marks the reports it touches stale, and
// RefreshRollup (run after an ingest, a merge or a rescan) moves each stale report from the
// cells it was counted under to the cells its record gives now. Readers add the stale
// reports' moves on the fly, so an answer is exact even before a refresh (or while an
// ingest runs).
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "aggregate/issue_record.hpp"
#include "common/result.hpp"
#include "rules/decision.hpp"
#include "store/store.hpp"

namespace ghsift {

//! One rollup cell, decoded from its key (the views point into the key).
struct RollupCell {
  int64_t repo_id = 0;
  int32_t month = 0;           //!< month index of the report's creation (first sighting if unknown)
  uint8_t kind = 0;            //!< 0 issue, 1 pull request
  std::string_view state;      //!< "open", "closed" or kUnknownValue
  std::string_view category;   //!< "" = the report itself (counted once); else one flagged category
};

//! The category-like marker of a report whose text the archive does not hold
//! (IssueRecord::no_text): counted under it, so that a blind spot is never read as "unflagged".
inline constexpr const char* kNoTextCategory = "(no text)";

//! The categories a report counts under: the flagged ones, or kNoTextCategory.
std::vector<std::string> CategoriesOf(const DecisionModel& model, const IssueRecord& record);

//! The keys of the cells `record` counts under: its own cell, then one per flagged category.
//! A report seen only through a closing reference counts nowhere.
std::vector<std::string> RollupKeysOf(const DecisionModel& model, int64_t repo_id, const IssueRecord& record);
bool DecodeRollupKey(std::string_view key, RollupCell* out);

//! Brings the rollup up to date (builds it whole when the store has none, or one of another
//! layout), in atomic steps. Returns how many reports it recounted (0: it was up to date).
//! The reports are cut into ranges of repository ids, recounted by `threads` threads at once
//! (0: one per core, at most 4).
Result<size_t> RefreshRollup(Store& store, size_t threads = 0);

//! Where SettleStore's time went (ingest --timings).
struct SettleTimes {
  size_t recounted = 0;        //!< reports the refresh recounted
  double refresh_seconds = 0;  //!< the refresh (the flush of what was written runs beside it)
  Store::FinishTimes finish;   //!< what was left of the flush, and the compactions after it
};
//! What every writing command does last: RefreshRollup, then, when anything was written
//! (`wrote`) or recounted, Store::Finish so the store is quick to open. The flush of what was
//! written starts first, so that it overlaps the refresh.
Status SettleStore(Store& store, bool wrote, SettleTimes* times = nullptr);

//! The parts of the rollup: each report's own cell (to count reports), its cells per flagged
//! category (to count by category), and the store's totals (ReadReportTotals).
enum class RollupPart { kReports, kCategories, kTotals };

//! Where the cells of `part` fall in two halves of about equal bytes, cut between repositories;
//! none below `split_above_bytes` on disk or where RocksDB's estimates cannot tell.
std::optional<std::string> RollupSplit(const Store& store, RollupPart part, uint64_t split_above_bytes);

//! Calls `fn(cell key, count)` for every stored cell of `part` (of `repo_ids` only, when given), then
//! once per move of a stale report (-1 for a cell it leaves, +1 for one it joins): the sum per
//! cell is the exact count. Returns false (and calls nothing) when the store has no complete
//! rollup. The cells of a part of more than `split_above_bytes` on disk are read in two halves
//! at once (RollupSplit), in the order of one pass.
Result<bool> ReadRollup(const Store& store, const DecisionModel& model, RollupPart part,
                        const std::optional<std::vector<int64_t>>& repo_ids,
                        const std::function<void(std::string_view, int64_t)>& fn,
                        uint64_t split_above_bytes = uint64_t{256} << 10);

//! Per kind (0 issue, 1 pull request): the reports of the store (but those seen only through a
//! closing reference), and those of them with a problem category. What an empty listing says of
//! the store, read from a few cells instead of every report.
struct ReportTotals {
  uint64_t reports[2] = {0, 0};
  uint64_t flagged[2] = {0, 0};
};
//! The totals, exact before a refresh too; none when the store has no complete rollup.
Result<std::optional<ReportTotals>> ReadReportTotals(const Store& store, const DecisionModel& model);

//! Whether the store holds a complete rollup (and listing index) of this ghsift's layout.
Result<bool> HasCompleteRollup(const Store& store);

//! The rule model the store was built with (meta "rules").
Result<DecisionModel> LoadStoreModel(const Store& store);

}  // namespace ghsift
