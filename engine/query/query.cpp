#include "query/query.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "aggregate/repo_filter.hpp"
#include "common/closest_name.hpp"
#include "common/number_text.hpp"
#include "common/terminal_safe.hpp"
#include "common/time_util.hpp"
#include "query/blind_months.hpp"
#include "query/repo_lookup.hpp"
#include "rollup/listing_index.hpp"
#include "store/key_codec.hpp"

namespace ghsift {

const std::vector<std::string>& ReportKindChoices() {
  // The stored kinds in their stored order (ReportKindName indexes it), then "all".
  static const std::vector<std::string> kinds = {"issue", "pr", "all"};
  return kinds;
}

const std::string& ReportKindName(uint8_t kind) { return ReportKindChoices()[kind == 1 ? 1 : 0]; }

std::string ReportKindChoicesText() {
  return JoinChoices(ReportKindChoices());
}

namespace {

Status CheckKind(const std::string& kind) {
  const auto& kinds = ReportKindChoices();
  if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) return Status::Ok();
  return Status::InvalidArgument("--kind must be " + ReportKindChoicesText() + ", not '" + TerminalSafe(kind) + "'");
}

bool KindMatches(const std::string& wanted, uint8_t kind) {
  return wanted == "all" || wanted == ReportKindName(kind);
}

Result<std::optional<std::vector<int64_t>>> RepoIds(const Store& store, const AnyOf& repo) {
  if (!repo) return std::optional<std::vector<int64_t>>();
  std::set<int64_t> ids;
  for (const std::string& name : repo.values) {
    GHSIFT_ASSIGN_OR_RETURN(std::vector<int64_t> of_name, ResolveRepo(store, name));
    ids.insert(of_name.begin(), of_name.end());
  }
  return std::optional<std::vector<int64_t>>(std::vector<int64_t>(ids.begin(), ids.end()));
}

bool HasTag(const DecisionModel& model, const IssueRecord& r, const std::vector<std::string>& flagged,
            const std::string& tag) {
  const std::vector<std::string> tags = SubcategoriesOf(model, r, flagged, std::nullopt);
  return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

bool MonthInRange(const QueryOptions& o, int32_t month) {
  return (!o.from_month || month >= *o.from_month) && (!o.to_month || month <= *o.to_month);
}

//! Adds `count` to every combination of the per-dimension value lists.
void AddCombinations(const std::vector<std::vector<std::string>>& values, int64_t count,
                     std::map<std::vector<std::string>, int64_t>& out) {
  for (const auto& v : values) {
    if (v.empty()) return;
  }
  std::vector<size_t> at(values.size(), 0);
  while (true) {
    std::vector<std::string> row;
    row.reserve(values.size());
    for (size_t d = 0; d < values.size(); ++d) row.push_back(values[d][at[d]]);
    out[row] += count;
    size_t d = values.size();
    while (d > 0) {
      --d;
      if (++at[d] < values[d].size()) break;
      at[d] = 0;
      if (d == 0) return;
    }
    if (values.empty()) return;
  }
}

//! Per cell: the count, and for the median metric the durations to take the median of.
struct Cell {
  int64_t count = 0;
  std::vector<double> days;
};
//! The cells of a question by group, in the order its answer lists them (RowOrder: a numeric
//! dimension by number).
using Cells = std::map<std::vector<std::string>, Cell, RowOrder>;

bool RollupHolds(const QueryOptions& o) {
  if (!o.use_rollup || o.subcategory || !o.where.empty()) return false;
  if (o.metric != Metric::kIssues && o.metric != Metric::kClosed) return false;
  return std::all_of(o.dimensions.begin(), o.dimensions.end(), [](const std::string& d) {
    const Dimension* row = FindDimension(d);
    return row != nullptr && row->rollup != RollupColumn::kNone;
  });
}

//! The part of a rollup cell a question groups by (fields it does not group by stay 0). State
//! and category are indexes into RollupRows' few distinct texts, so a key hashes and compares as
//! plain integers.
struct RowKey {
  int64_t repo_id = 0;
  int32_t month = 0;
  uint32_t kind = 0;
  uint32_t state = 0;
  uint32_t category = 0;
  bool operator==(const RowKey&) const = default;
};

struct RowKeyHash {
  size_t operator()(const RowKey& k) const {
    uint64_t h = static_cast<uint64_t>(k.repo_id) * 0x9E3779B97F4A7C15ull;
    for (const uint64_t part : {static_cast<uint64_t>(static_cast<uint32_t>(k.month)) << 32 | k.kind,
                                static_cast<uint64_t>(k.state) << 32 | k.category}) {
      h = (h ^ part) * 0xC2B2AE3D27D4EB4Full;
      h ^= h >> 29;
    }
    return static_cast<size_t>(h);
  }
};

//! Adds rollup cells to the rows of the question: the same rows and counts the report scan gives.
class RollupRows {
 public:
  RollupRows(const QueryOptions& o, const DecisionModel& model) : o_(o), model_(model) {
    for (const std::string& d : o.dimensions) dims_.push_back(FindDimension(d)->rollup);
    for (const Col d : dims_) {
      by_repo_ |= d == Col::kRepo;
      by_month_ |= d == Col::kMonth;
      by_kind_ |= d == Col::kKind;
      by_state_ |= d == Col::kState;
      by_category_ |= d == Col::kCategory;
    }
  }

  void Add(std::string_view key, int64_t count) {
    RollupCell cell;
    if (!DecodeRollupKey(key, &cell)) return;
    if (!KindMatches(o_.kind, cell.kind) || !MonthInRange(o_, cell.month)) return;
    if (o_.metric == Metric::kClosed && cell.state != "closed") return;
    // A report has its own cell and one per flagged category: count the ones the question needs.
    if (o_.category ? cell.category != *o_.category : by_category_ == cell.category.empty()) return;
    // Facets have cells of their own (to answer --category stage) but are no row of --by category.
    if (!o_.category && by_category_ && model_.IsFacet(std::string(cell.category))) return;
    RowKey row;
    if (by_repo_) row.repo_id = cell.repo_id;
    if (by_month_) row.month = cell.month;
    if (by_kind_) row.kind = cell.kind;
    if (by_state_) row.state = Intern(states_, cell.state);
    if (by_category_) row.category = Intern(categories_, cell.category);
    counts_[row] += count;
  }

  //! The cells the question counts: one per report, or one per report and flagged category.
  RollupPart part() const {
    return o_.category || by_category_ ? RollupPart::kCategories : RollupPart::kReports;
  }

  //! Fills the rows and counts of `table`, sorted as the report scan sorts them.
  void Emit(RepoNames& names, QueryTable& table) const {
    // Each field is ranked once (repository names, states and categories sorted as text; a
    // month and a kind order as their text does), rows are sorted on the ranks and formatted
    // afterwards: the order of the formatted rows, without comparing strings per comparison.
    std::unordered_map<int64_t, uint32_t> repo_rank;
    if (by_repo_) {
      std::unordered_set<int64_t> repos;
      for (const auto& [key, count] : counts_) repos.insert(key.repo_id);
      names.Prefetch(repos);
      std::vector<std::pair<const std::string*, int64_t>> by_name;
      by_name.reserve(repos.size());
      for (const int64_t id : repos) by_name.emplace_back(&names.Of(id), id);
      std::sort(by_name.begin(), by_name.end(), [](const auto& a, const auto& b) { return *a.first < *b.first; });
      uint32_t rank = 0;
      for (size_t i = 0; i < by_name.size(); ++i) {
        // Two ids can share a name (a repo deleted and re-created): one rank, so their rows add up.
        if (i > 0 && *by_name[i].first != *by_name[i - 1].first) ++rank;
        repo_rank[by_name[i].second] = rank;
      }
    }
    const std::vector<uint32_t> state_rank = TextRanks(states_), category_rank = TextRanks(categories_);
    using SortKey = std::array<uint32_t, 5>;  // one rank per dimension, in the question's order
    struct Entry {
      SortKey sort_key;
      const RowKey* key;
      int64_t count;
    };
    std::vector<Entry> entries;
    entries.reserve(counts_.size());
    for (const auto& [key, count] : counts_) {
      if (count == 0) continue;  // every report of the row moved elsewhere
      Entry e{{}, &key, count};
      for (size_t i = 0; i < dims_.size(); ++i) {
        switch (dims_[i]) {
          case Col::kRepo: e.sort_key[i] = repo_rank.at(key.repo_id); break;
          case Col::kMonth: e.sort_key[i] = static_cast<uint32_t>(key.month) ^ 0x80000000u; break;
          case Col::kKind: e.sort_key[i] = key.kind; break;
          case Col::kState: e.sort_key[i] = state_rank[key.state]; break;
          case Col::kCategory: e.sort_key[i] = category_rank[key.category]; break;
          case Col::kNone: break;
        }
      }
      entries.push_back(e);
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.sort_key < b.sort_key; });
    table.rows.reserve(entries.size());
    table.counts.reserve(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
      if (i > 0 && entries[i - 1].sort_key == entries[i].sort_key) {
        table.counts.back() += entries[i].count;
        continue;
      }
      const RowKey& key = *entries[i].key;
      std::vector<std::string> row;
      row.reserve(dims_.size());
      for (const Col d : dims_) {
        switch (d) {
          case Col::kRepo: row.push_back(names.Of(key.repo_id)); break;
          case Col::kMonth: row.push_back(FormatMonth(key.month)); break;
          case Col::kKind: row.push_back(ReportKindName(key.kind)); break;
          case Col::kState: row.push_back(states_[key.state]); break;
          case Col::kCategory: row.push_back(categories_[key.category]); break;
          case Col::kNone: break;
        }
      }
      table.rows.push_back(std::move(row));
      table.counts.push_back(entries[i].count);
    }
  }

 private:
  using Col = RollupColumn;

  //! The rank of each text in sorted order (equal texts, equal ranks).
  static std::vector<uint32_t> TextRanks(const std::vector<std::string>& texts) {
    std::vector<uint32_t> order(texts.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return texts[a] < texts[b]; });
    std::vector<uint32_t> rank(texts.size());
    for (size_t i = 0; i < order.size(); ++i) rank[order[i]] = static_cast<uint32_t>(i);
    return rank;
  }

  //! The index of `text` in `texts` (added if new). A store has a handful of states and
  //! categories; a new text is looked up from the most recent, since cells come in key order.
  static uint32_t Intern(std::vector<std::string>& texts, std::string_view text) {
    for (size_t i = texts.size(); i-- > 0;) {
      if (texts[i] == text) return static_cast<uint32_t>(i);
    }
    texts.emplace_back(text);
    return static_cast<uint32_t>(texts.size() - 1);
  }

  const QueryOptions& o_;
  const DecisionModel& model_;
  std::vector<Col> dims_;
  bool by_repo_ = false, by_month_ = false, by_kind_ = false, by_state_ = false, by_category_ = false;
  std::vector<std::string> states_, categories_;
  std::unordered_map<RowKey, int64_t, RowKeyHash> counts_;
};

//! Answers from the rollup when it holds the question; false when the store has none yet.
Result<bool> QueryRollup(const Store& store, const QueryOptions& o, QueryTable& table) {
  GHSIFT_ASSIGN_OR_RETURN(const DecisionModel model, LoadStoreModel(store));
  GHSIFT_ASSIGN_OR_RETURN(auto ids, RepoIds(store, o.repo));
  RollupRows rows(o, model);
  GHSIFT_ASSIGN_OR_RETURN(const bool answered, ReadRollup(store, model, rows.part(), ids,
                                                          [&](std::string_view key, int64_t n) { rows.Add(key, n); }));
  if (!answered) return false;
  RepoNames names(store);
  rows.Emit(names, table);
  return true;
}

//! Whether a question needs the blind months: it groups by or filters on a dimension that reads
//! pull requests' text.
bool NeedsBlindMonths(const std::vector<std::string>& dimensions, const ValueFilters& where) {
  std::vector<std::string> filtered;
  for (const auto& [name, values] : where) filtered.push_back(name);
  return ReadsPullRequestText(dimensions) || ReadsPullRequestText(filtered);
}

Status QueryIssues(const Store& store, const QueryOptions& o, Cells& out) {
  auto model = LoadStoreModel(store);
  if (!model.ok()) return model.status();
  GHSIFT_TRY(CheckVerdictFilter(*model, o.where));
  GHSIFT_ASSIGN_OR_RETURN(auto ids, RepoIds(store, o.repo));
  RepoNames names(store);
  BlindMonths blind;
  if (NeedsBlindMonths(o.dimensions, o.where)) {
    GHSIFT_ASSIGN_OR_RETURN(blind, BlindMonths::Load(store));
  }
  std::vector<const Dimension*> rows_of;
  for (const std::string& d : o.dimensions) rows_of.push_back(FindDimension(d));
  auto visit = [&](int64_t repo_id, int64_t, const IssueRecord& r) -> Status {
    if (r.reference_only() || !KindMatches(o.kind, r.kind)) return Status::Ok();
    const bool closed = r.state == "closed";
    if (o.metric != Metric::kIssues && o.metric != Metric::kComments && !closed) return Status::Ok();
    if (!MonthInRange(o, ReportMonth(r))) return Status::Ok();
    const std::vector<std::string> flagged = CategoriesOf(*model, r);
    if (o.category && std::find(flagged.begin(), flagged.end(), *o.category) == flagged.end()) return Status::Ok();
    if (o.subcategory && !HasTag(*model, r, flagged, *o.subcategory)) return Status::Ok();
    // Unless a category is asked for, categories and subcategories are those of problems.
    const std::vector<std::string> shown = o.category ? flagged : model->Problems(flagged);
    const ReportView view{*model, r, repo_id, flagged, shown, o.category, blind, names};
    if (!PassesValueFilters(o.where, view)) return Status::Ok();
    std::vector<std::vector<std::string>> values;
    for (const Dimension* d : rows_of) values.push_back(d->of_report(view));
    std::map<std::vector<std::string>, int64_t> rows;
    AddCombinations(values, 1, rows);
    for (const auto& [row, n] : rows) {
      Cell& cell = out[row];
      cell.count += o.metric == Metric::kComments ? r.comments : 1;
      if (o.metric == Metric::kMedianDaysToClose && r.closed_at != 0 && r.created_at != 0) {
        cell.days.push_back(static_cast<double>(r.closed_at - r.created_at) / 86400.0);
      }
    }
    return Status::Ok();
  };
  if (ids) {
    for (int64_t id : *ids) GHSIFT_TRY(store.ScanIssues(id, visit));
    return Status::Ok();
  }
  return store.ScanIssues(std::nullopt, visit);
}

Status QueryEvents(const Store& store, const QueryOptions& o, Cells& out) {
  GHSIFT_ASSIGN_OR_RETURN(auto ids, RepoIds(store, o.repo));
  const bool by_repo = ids.has_value() || std::find(o.dimensions.begin(), o.dimensions.end(),
                                                    std::string(dimension::kRepo)) != o.dimensions.end();
  RepoNames names(store);
  std::vector<const Dimension*> rows_of;
  for (const std::string& d : o.dimensions) rows_of.push_back(FindDimension(d));
  auto add = [&](int64_t repo_id, int32_t day, std::string_view type, int64_t count) {
    if (!MonthInRange(o, MonthOfDay(day))) return;
    const EventView view{repo_id, day, type, names};
    std::vector<std::string> row;
    row.reserve(rows_of.size());
    for (const Dimension* d : rows_of) row.push_back(d->of_event(view));
    out[row].count += count;
  };
  if (!by_repo) {
    return store.ScanCounters(std::string(1, keys::kTypeCounter), [&](std::string_view key, int64_t count) {
      keys::TypeCounterKey k;
      if (keys::ParseTypeCounter(key, &k)) add(0, k.day, k.type, count);
    });
  }
  auto visit = [&](std::string_view key, int64_t count) {
    keys::RepoCounterKey k;
    if (keys::ParseRepoCounter(key, &k)) add(k.repo_id, k.day, k.type, count);
  };
  if (ids) {
    for (int64_t id : *ids) GHSIFT_TRY(store.ScanCounters(keys::RepoCounterPrefix(id), visit));
    return Status::Ok();
  }
  return store.ScanCounters(std::string(1, keys::kRepoCounter), visit);
}

}  // namespace

Result<QueryTable> RunQuery(const Store& store, const QueryOptions& options) {
  const bool events = options.metric == Metric::kEvents;
  std::vector<std::string> allowed = DimensionNames(events), other = DimensionNames(!events);
  std::sort(allowed.begin(), allowed.end());
  std::set<std::string> seen;
  for (const std::string& d : options.dimensions) {
    if (!seen.insert(d).second) return Status::InvalidArgument("dimension '" + d + "' is given twice in --by");
    if (std::binary_search(allowed.begin(), allowed.end(), d)) continue;
    if (std::find(other.begin(), other.end(), d) != other.end()) {
      return Status::InvalidArgument("dimension '" + d + "' does not apply to metric " + MetricName(options.metric) +
                                     (events ? " (it is a report dimension)" : " (it is an event dimension: --metric events)") +
                                     "; use one of " + JoinNames(allowed));
    }
    return Status::InvalidArgument("unknown dimension '" + d + "'" +
                                   DidYouMean(d, allowed) + "; " +
                                   MetricName(options.metric) + " dimensions are " + JoinNames(allowed));
  }
  if (events && !options.where.empty()) {
    return Status::InvalidArgument(FilterOption(options.where.begin()->first) + " applies to report metrics only");
  }
  GHSIFT_TRY(CheckValueFilters(options.where));
  if (options.subcategory && events) return Status::InvalidArgument("--subcategory applies to report metrics only");
  // The reports whose text the archive does not hold count under kNoTextCategory (`--by
  // category` shows the row): asked for as shown, they are counted as under any category.
  const bool no_text = options.category == kNoTextCategory && !options.subcategory;
  if (!events && !no_text && (options.category || options.subcategory)) {
    GHSIFT_ASSIGN_OR_RETURN(const DecisionModel model, LoadStoreModel(store));
    std::optional<std::string> subcategory = options.subcategory;
    GHSIFT_TRY(CheckCategoryFilter(model, options.category, &subcategory));
    if (subcategory != options.subcategory) {
      QueryOptions resolved = options;
      resolved.subcategory = subcategory;
      return RunQuery(store, resolved);
    }
  }
  GHSIFT_TRY(CheckKind(options.kind));
  if (options.metric == Metric::kEvents && options.category) {
    return Status::InvalidArgument("--category applies to metric issues only");
  }

  QueryTable table;
  table.columns = options.dimensions;
  table.columns.push_back(MetricName(options.metric));
  if (RollupHolds(options)) {
    GHSIFT_ASSIGN_OR_RETURN(const bool answered, QueryRollup(store, options, table));
    if (answered) return table;
  }
  Cells cells(RowOrder(options.dimensions));
  if (options.metric == Metric::kEvents) {
    GHSIFT_TRY(QueryEvents(store, options, cells));
  } else {
    GHSIFT_TRY(QueryIssues(store, options, cells));
  }
  table.rows.reserve(cells.size());
  table.counts.reserve(cells.size());
  while (!cells.empty()) {
    // Moved out node by node, in order: answers can have tens of thousands of rows.
    auto node = cells.extract(cells.begin());
    Cell& cell = node.mapped();
    table.rows.push_back(std::move(node.key()));
    table.counts.push_back(cell.count);
    if (options.metric == Metric::kMedianDaysToClose) {
      std::vector<double>& d = cell.days;
      std::sort(d.begin(), d.end());
      const size_t n = d.size();
      table.values.push_back(n == 0 ? 0.0 : n % 2 == 1 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2);
    }
  }
  return table;
}

Result<IssueList> ListIssues(const Store& store, const IssueListOptions& options) {
  GHSIFT_ASSIGN_OR_RETURN(const DecisionModel model, LoadStoreModel(store));
  std::optional<std::string> subcategory = options.subcategory;
  if (options.category || subcategory) GHSIFT_TRY(CheckCategoryFilter(model, options.category, &subcategory));
  GHSIFT_TRY(CheckKind(options.kind));
  ValueFilters where = options.where;
  for (const std::string& s : options.state.values) where[std::string(dimension::kState)].push_back(s);
  GHSIFT_TRY(CheckValueFilters(where));
  GHSIFT_TRY(CheckVerdictFilter(model, where));
  std::vector<const Dimension*> with_values;
  for (const std::string& name : options.with_values) {
    const Dimension* d = FindDimension(name);
    if (d == nullptr || !d->of_reports()) return Status::InvalidArgument("'" + name + "' is no report dimension");
    with_values.push_back(d);
  }
  GHSIFT_ASSIGN_OR_RETURN(auto ids, RepoIds(store, options.repo));
  RepoNames names(store);
  BlindMonths blind;
  if (NeedsBlindMonths(options.with_values, where)) {
    GHSIFT_ASSIGN_OR_RETURN(blind, BlindMonths::Load(store));
  }
  IssueList list;
  // Newest (or highest scored) first; ties in repository and number order, so the list is stable.
  auto better = [](const ListedIssue& a, const ListedIssue& b) {
    if (a.sort_key != b.sort_key) return a.sort_key > b.sort_key;
    return std::tie(a.repo, a.number) < std::tie(b.repo, b.number);
  };
  // With a limit, only the best `limit` reports are kept (a heap whose front is the worst kept):
  // memory stays that of the page asked for, and a report that cannot make the page is counted
  // without being built.
  const bool bounded = options.limit != 0;
  // A keys_only report: to the caller's sink, or into the list.
  auto keep_key = [&](int64_t repo_id, const std::string& repo, int64_t number,
                      std::vector<std::vector<std::string>>&& values) {
    if (options.each) {
      options.each(ListedKey{repo_id, repo, number, &values});
      return;
    }
    ListedIssue item;
    item.repo_id = repo_id;
    item.repo = repo;
    item.number = number;
    item.values = std::move(values);
    list.issues.push_back(std::move(item));
  };
  auto visit = [&](int64_t repo_id, int64_t number, const IssueRecord& r) -> Status {
    if (r.reference_only() || !KindMatches(options.kind, r.kind)) return Status::Ok();
    ++list.reports_in_store;
    const std::vector<std::string> flagged = model.Flagged(r.rules);
    std::vector<std::string> problems = model.Problems(flagged);
    // A listed report is flagged: it has a problem category. Facets only narrow the list.
    if (problems.empty()) return Status::Ok();
    ++list.flagged_in_store;
    const int64_t created_at = r.created_at != 0 ? r.created_at : r.first_seen;
    if (options.created_from && r.created_at < *options.created_from) return Status::Ok();
    if (options.created_to && r.created_at >= *options.created_to) return Status::Ok();
    if (options.category && std::find(flagged.begin(), flagged.end(), *options.category) == flagged.end()) {
      return Status::Ok();
    }
    if (subcategory && !HasTag(model, r, flagged, *subcategory)) return Status::Ok();
    const std::optional<std::string> no_category;
    std::vector<std::string> shown = problems;
    if (options.show_categories) {
      std::erase_if(shown, [&](const std::string& c) {
        return std::find(options.show_categories->begin(), options.show_categories->end(), c) ==
               options.show_categories->end();
      });
    }
    const ReportView view{model, r, repo_id, flagged, shown, no_category, blind, names};
    if (!PassesValueFilters(where, view)) return Status::Ok();
    const std::string& repo = names.Of(repo_id);
    ++list.matched;
    if (options.keys_only) {
      std::vector<std::vector<std::string>> values;
      for (const Dimension* d : with_values) values.push_back(d->of_report(view));
      keep_key(repo_id, repo, number, std::move(values));
      return Status::Ok();
    }
    ListedIssue item;
    item.repo = repo;
    item.number = number;
    for (const CategoryScore& score : model.Score(r.rules)) {
      if (std::find(problems.begin(), problems.end(), score.category) != problems.end()) item.score += score.score;
    }
    item.created_at = created_at;
    item.updated_at = r.last_seen;
    item.sort_key = options.sort == IssueSort::kCreated   ? static_cast<double>(item.created_at)
                    : options.sort == IssueSort::kUpdated ? static_cast<double>(item.updated_at)
                                                          : item.score;
    if (bounded && list.issues.size() == options.limit && !better(item, list.issues.front())) return Status::Ok();
    item.kind = ReportKindName(r.kind);
    item.url = "https://github.com/" + item.repo + (r.kind == 1 ? "/pull/" : "/issues/") + std::to_string(number);
    item.title = r.title;
    item.state = r.state.empty() ? kUnknownValue : r.state;
    item.created = FormatDay(DayOf(item.created_at));
    item.updated = FormatDay(DayOf(item.updated_at));
    item.subcategories = SubcategoriesOf(model, r, problems, std::nullopt);
    item.facets = SubcategoriesOf(model, r, model.FacetsAmong(flagged), std::nullopt);
    item.verdict = VerdictOf(model, r);
    item.labels = r.labels;
    item.labels_ever = r.labels_ever;
    item.repo_id = repo_id;
    item.categories = std::move(problems);
    item.rules = r.rules;
    for (const Dimension* d : with_values) item.values.push_back(d->of_report(view));
    list.issues.push_back(std::move(item));
    if (bounded) {
      std::push_heap(list.issues.begin(), list.issues.end(), better);
      if (list.issues.size() > options.limit) {
        std::pop_heap(list.issues.begin(), list.issues.end(), better);
        list.issues.pop_back();
      }
    }
    return Status::Ok();
  };
  // From the listing index: only the reports it lists under the category are read, and of those
  // only what an entry cannot decide (a subcategory, value filters, a report that may make the page).
  auto from_listing = [&]() -> Result<bool> {
    ListingRange range;
    range.category = options.category.value_or("");
    // With a lower bound, every report listed has a known creation time: its listed time.
    if (options.created_from && *options.created_from > 0) {
      range.from = options.created_from;
      range.to = options.created_to;
    }
    const bool by_entry = !subcategory && where.empty() && (!options.keys_only || with_values.empty());
    // Reports to read are read at the end, in key order (visit keeps the best page in any order).
    std::vector<std::pair<int64_t, int64_t>> to_read;
    auto entry = [&](const ListingEntry& e) -> Status {
      if (!KindMatches(options.kind, e.kind)) return Status::Ok();
      // (The time filters read IssueRecord::created_at: an entry decides them when it is known.)
      if (by_entry && (e.created_known || (!options.created_from && !options.created_to))) {
        if (options.created_from && e.time < *options.created_from) return Status::Ok();
        if (options.created_to && e.time >= *options.created_to) return Status::Ok();
        if (options.keys_only) {
          ++list.matched;
          keep_key(e.repo_id, names.Of(e.repo_id), e.number, {});
          return Status::Ok();
        }
        // Newest first: once the page is full, an older report cannot make it and is only
        // counted (one of the same second is read: ties go by repository name).
        if (bounded && options.sort == IssueSort::kCreated) {
          if (list.issues.size() == options.limit && static_cast<double>(e.time) < list.issues.front().sort_key) {
            ++list.matched;
            return Status::Ok();
          }
          // (read now: the page it may join decides what the next entries need)
          GHSIFT_ASSIGN_OR_RETURN(const std::optional<IssueRecord> record, store.GetIssue(e.repo_id, e.number));
          if (!record) return Status::StoreError("the listing index names a report the store does not hold");
          return visit(e.repo_id, e.number, *record);
        }
      }
      to_read.emplace_back(e.repo_id, e.number);
      return Status::Ok();
    };
    GHSIFT_ASSIGN_OR_RETURN(const bool complete, ReadListing(store, range, visit, entry));
    if (!complete) return false;
    std::sort(to_read.begin(), to_read.end());
    size_t read = 0;
    GHSIFT_TRY(store.ScanIssuesOf(to_read, [&](int64_t repo_id, int64_t number, const IssueRecord& r) {
      ++read;
      return visit(repo_id, number, r);
    }));
    if (read != to_read.size()) return Status::StoreError("the listing index names reports the store does not hold");
    return true;
  };
  bool listed = false;  // answered without reading every report
  if (options.only != nullptr) {
    GHSIFT_TRY(store.ScanIssuesOf(*options.only, [&](int64_t repo_id, int64_t number, const IssueRecord& r) {
      if (ids && std::find(ids->begin(), ids->end(), repo_id) == ids->end()) return Status::Ok();
      return visit(repo_id, number, r);
    }));
    listed = true;
  } else if (options.use_listing && !ids) {
    GHSIFT_ASSIGN_OR_RETURN(listed, from_listing());
    if (listed) {
      // What the store holds, to explain an empty answer, from the rollup's totals.
      GHSIFT_ASSIGN_OR_RETURN(const std::optional<ReportTotals> totals, ReadReportTotals(store, model));
      if (!totals) return Status::StoreError("the store has a listing index but no report totals");
      list.reports_in_store = list.flagged_in_store = 0;
      for (uint8_t kind : {0, 1}) {
        if (!KindMatches(options.kind, kind)) continue;
        list.reports_in_store += totals->reports[kind];
        list.flagged_in_store += totals->flagged[kind];
      }
    }
  }
  if (!listed && ids) {
    for (int64_t id : *ids) GHSIFT_TRY(store.ScanIssues(id, visit));
  } else if (!listed) {
    GHSIFT_TRY(store.ScanIssues(std::nullopt, visit));
  }
  std::sort(list.issues.begin(), list.issues.end(), better);
  return list;
}

Status CheckCategoryFilter(const DecisionModel& model, const std::optional<std::string>& category,
                           std::optional<std::string>* subcategory) {
  if (model.empty()) return Status::InvalidArgument("category filter: the store's rule model has no categories (nothing ingested yet?)");
  const std::vector<std::string>& categories = model.categories();
  std::vector<std::string> described;
  for (const std::string& c : categories) described.push_back(model.IsFacet(c) ? c + " (facet)" : c);
  const std::vector<std::string> tags = model.Subcategories();
  if (category && !std::binary_search(categories.begin(), categories.end(), *category)) {
    if (*category == kNoTextCategory) {
      return Status::InvalidArgument(std::string("'") + kNoTextCategory + "' counts the reports whose text the archive "
                                     "does not hold, which no rule can flag: `ghsift query --category '" +
                                     kNoTextCategory + "' --by repo,month` counts them; they are not listed or drawn");
    }
    if (std::binary_search(tags.begin(), tags.end(), *category)) {
      return Status::InvalidArgument("'" + *category + "' is a subcategory: use --subcategory " + *category);
    }
    return Status::InvalidArgument("unknown category '" + *category + "'" +
                                   DidYouMean(*category, categories) +
                                   "; the store's rule set has " + JoinNames(described));
  }
  if (!subcategory || !*subcategory) return Status::Ok();
  std::string& tag = **subcategory;
  if (tag.find('/') == std::string::npos) {
    // A bare subcategory names the tag when exactly one category has it (or the one asked for).
    std::vector<std::string> matches;
    for (const std::string& t : tags) {
      if (t.substr(t.find('/') + 1) == tag && (!category || t.starts_with(*category + "/"))) matches.push_back(t);
    }
    if (matches.size() > 1) {
      return Status::InvalidArgument("subcategory '" + tag + "' is in several categories: use one of " +
                                     JoinNames(matches));
    }
    if (matches.size() == 1) tag = matches.front();
  }
  if (!std::binary_search(tags.begin(), tags.end(), tag)) {
    std::vector<std::string> valid;
    for (const std::string& t : tags) {
      if (!category || t.starts_with(*category + "/")) valid.push_back(t);
    }
    return Status::InvalidArgument("unknown subcategory '" + tag + "'" +
                                   DidYouMean(tag, valid) + "; valid: " +
                                   JoinNames(valid, 60));
  }
  if (category && !tag.starts_with(*category + "/")) {
    return Status::InvalidArgument("--subcategory " + tag + " is not in --category " + *category);
  }
  return Status::Ok();
}

Result<std::vector<int64_t>> ResolveRepo(const Store& store, const std::string& name) {
  GHSIFT_ASSIGN_OR_RETURN(std::vector<int64_t> ids, RepoIdsByAnyName(store, name));
  if (!ids.empty()) return ids;
  // The rows query prints for repositories without a name are asked for as printed.
  if (name == kUntrackedRepositoriesName) return std::vector<int64_t>{kUntrackedRepositories};
  if (name == kNoRepositoryName) return std::vector<int64_t>{0};
  if (int64_t id = 0; name.size() > 1 && name[0] == '#' &&
                      std::from_chars(name.data() + 1, name.data() + name.size(), id).ptr == name.data() + name.size()) {
    return std::vector<int64_t>{id};
  }
  std::vector<std::string> known;
  GHSIFT_TRY(store.ScanRepoNames([&](int64_t, std::string_view n) {
    if (!n.empty()) known.emplace_back(n);
  }));
  // A store of tracked repositories counts the others' events only together.
  GHSIFT_ASSIGN_OR_RETURN(const std::optional<std::string> scope, store.GetMeta("scope"));
  const std::optional<RepoFilter> filter = scope ? RepoFilter::FromDescription(*scope) : std::nullopt;
  const bool tracked_list = filter && !filter->all();
  // A tracked repository of which no event was ingested yet: an answer of nothing, not an error.
  if (tracked_list && filter->Tracks(name)) return std::vector<int64_t>{};
  const std::string untracked_note =
      tracked_list
          ? "; this store tracks a list of repositories and counts the events of all others together, as " +
                std::string(kUntrackedRepositoriesName) + " (ingest with --all-repos to count each)"
          : "";
  if (known.empty()) {
    return Status::InvalidArgument("repository '" + name + "': the store holds no repository yet" + untracked_note);
  }
  std::sort(known.begin(), known.end());
  known.erase(std::unique(known.begin(), known.end()), known.end());
  return Status::InvalidArgument("repository '" + name + "' is not in the store under this or any former name" +
                                 DidYouMean(name, known) + "; it holds " +
                                 std::to_string(known.size()) + " repositories" +
                                 (known.size() <= 40 ? ": " + JoinNames(known, 40) : "") + untracked_note);
}

}  // namespace ghsift
