#include "query/query.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "common/time_util.hpp"
#include "store/key_codec.hpp"

namespace ghsift {
namespace {

const std::set<std::string> kIssueDimensions = {"repo", "month",      "category", "subcategory", "label",
                                                 "state", "kind", "resolution", "verdict"};

//! The tags (category/subcategory) of the matched positive rules whose category is flagged (and is
//! `only`, when given): what a flagged report is about, one row each.
std::vector<std::string> SubcategoriesOf(const DecisionModel& model, const IssueRecord& r,
                                         const std::vector<std::string>& flagged,
                                         const std::optional<std::string>& only) {
  std::set<std::string> tags;
  for (const std::string& id : r.rules) {
    if (model.WeightOf(id) <= 0) continue;  // rules that speak against a category say nothing of its kind
    const std::string tag = model.TagOf(id);
    const std::string category = tag.substr(0, tag.find('/'));
    if (only && category != *only) continue;
    if (std::find(flagged.begin(), flagged.end(), category) == flagged.end()) continue;
    tags.insert(tag.find('/') == std::string::npos ? tag + "/(none)" : tag);
  }
  return {tags.begin(), tags.end()};
}

//! From this month on (October 2025) PullRequestEvent carries no title or body: a merged PR's
//! "fixes #12" cannot be read from the archive, so no closing can be told apart from the others.
constexpr int32_t kFirstMonthWithoutPullRequestText = 2025 * 12 + 9;

//! How a report ended: closed by a merged PR of its repo, closed otherwise, still open, or
//! unknown (closed when the archive no longer shows pull-request text).
std::string ResolutionOf(const IssueRecord& r) {
  if (r.state != "closed") return "open";
  if (!r.closing_prs.empty()) return "fixed_by_pr";
  const int64_t closed = r.closed_at != 0 ? r.closed_at : r.last_seen;
  if (MonthOfDay(DayOf(closed)) >= kFirstMonthWithoutPullRequestText) return "unknown";
  return "closed_without_pr";
}

//! Maintainers' verdict from the verdict rules (rules/verdict.yaml); not_a_bug wins.
std::string VerdictOf(const std::vector<std::string>& flagged) {
  auto has = [&](const char* c) { return std::find(flagged.begin(), flagged.end(), c) != flagged.end(); };
  if (has("verdict-not-a-bug")) return "not_a_bug";
  if (has("verdict-bug")) return "bug";
  return "unclassified";
}
const std::set<std::string> kEventDimensions = {"repo", "month", "type", "day"};

class RepoNames {
 public:
  explicit RepoNames(const Store& store) : store_(store) {}
  //! Looks up many repositories at once: one pass over all names beats a lookup each.
  void Prefetch(const std::unordered_set<int64_t>& ids) {
    if (ids.size() < kPrefetchAbove) return;
    (void)store_.ScanRepoNames([&](int64_t id, std::string_view name) {
      if (ids.count(id) && !name.empty()) names_.emplace(id, std::string(name));
    });
  }
  const std::string& Of(int64_t id) {
    auto it = names_.find(id);
    if (it == names_.end()) {
      std::string name = store_.RepoName(id);
      if (name.empty()) name = "#" + std::to_string(id);
      it = names_.emplace(id, std::move(name)).first;
    }
    return it->second;
  }

 private:
  static constexpr size_t kPrefetchAbove = 1000;
  const Store& store_;
  std::unordered_map<int64_t, std::string> names_;
};

bool KindMatches(const std::string& wanted, uint8_t kind) {
  if (wanted == "all") return true;
  return (wanted == "pr") == (kind == 1);
}

Result<std::optional<std::vector<int64_t>>> RepoIds(const Store& store, const std::optional<std::string>& repo) {
  if (!repo) return std::optional<std::vector<int64_t>>();
  std::vector<int64_t> ids = store.RepoIdsByName(*repo);
  return std::optional<std::vector<int64_t>>(std::move(ids));
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

const std::set<std::string> kRollupDimensions = {"repo", "month", "kind", "state", "category"};

bool RollupHolds(const QueryOptions& o) {
  if (!o.use_rollup || (o.metric != Metric::kIssues && o.metric != Metric::kClosed)) return false;
  return std::all_of(o.dimensions.begin(), o.dimensions.end(),
                     [](const std::string& d) { return kRollupDimensions.count(d) > 0; });
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
  explicit RollupRows(const QueryOptions& o) : o_(o) {
    for (const std::string& d : o.dimensions) {
      if (d == "repo") dims_.push_back(Dim::kRepo);
      else if (d == "month") dims_.push_back(Dim::kMonth);
      else if (d == "kind") dims_.push_back(Dim::kKind);
      else if (d == "state") dims_.push_back(Dim::kState);
      else if (d == "category") dims_.push_back(Dim::kCategory);
    }
    for (const Dim d : dims_) {
      by_repo_ |= d == Dim::kRepo;
      by_month_ |= d == Dim::kMonth;
      by_kind_ |= d == Dim::kKind;
      by_state_ |= d == Dim::kState;
      by_category_ |= d == Dim::kCategory;
    }
  }

  void Add(std::string_view key, int64_t count) {
    RollupCell cell;
    if (!DecodeRollupKey(key, &cell)) return;
    if (!KindMatches(o_.kind, cell.kind) || !MonthInRange(o_, cell.month)) return;
    if (o_.metric == Metric::kClosed && cell.state != "closed") return;
    // A report has its own cell and one per flagged category: count the ones the question needs.
    if (o_.category ? cell.category != *o_.category : by_category_ == cell.category.empty()) return;
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
          case Dim::kRepo: e.sort_key[i] = repo_rank.at(key.repo_id); break;
          case Dim::kMonth: e.sort_key[i] = static_cast<uint32_t>(key.month) ^ 0x80000000u; break;
          case Dim::kKind: e.sort_key[i] = key.kind; break;
          case Dim::kState: e.sort_key[i] = state_rank[key.state]; break;
          case Dim::kCategory: e.sort_key[i] = category_rank[key.category]; break;
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
      for (const Dim d : dims_) {
        switch (d) {
          case Dim::kRepo: row.push_back(names.Of(key.repo_id)); break;
          case Dim::kMonth: row.push_back(FormatMonth(key.month)); break;
          case Dim::kKind: row.push_back(key.kind == 1 ? "pr" : "issue"); break;
          case Dim::kState: row.push_back(states_[key.state]); break;
          case Dim::kCategory: row.push_back(categories_[key.category]); break;
        }
      }
      table.rows.push_back(std::move(row));
      table.counts.push_back(entries[i].count);
    }
  }

 private:
  enum class Dim { kRepo, kMonth, kKind, kState, kCategory };

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
  std::vector<Dim> dims_;
  bool by_repo_ = false, by_month_ = false, by_kind_ = false, by_state_ = false, by_category_ = false;
  std::vector<std::string> states_, categories_;
  std::unordered_map<RowKey, int64_t, RowKeyHash> counts_;
};

//! Answers from the rollup when it holds the question; false when the store has none yet.
Result<bool> QueryRollup(const Store& store, const QueryOptions& o, QueryTable& table) {
  GHSIFT_ASSIGN_OR_RETURN(const DecisionModel model, LoadStoreModel(store));
  GHSIFT_ASSIGN_OR_RETURN(auto ids, RepoIds(store, o.repo));
  RollupRows rows(o);
  GHSIFT_ASSIGN_OR_RETURN(const bool answered, ReadRollup(store, model, rows.part(), ids,
                                                          [&](std::string_view key, int64_t n) { rows.Add(key, n); }));
  if (!answered) return false;
  RepoNames names(store);
  rows.Emit(names, table);
  return true;
}

Status QueryIssues(const Store& store, const QueryOptions& o, std::map<std::vector<std::string>, Cell>& out) {
  auto model = LoadStoreModel(store);
  if (!model.ok()) return model.status();
  GHSIFT_ASSIGN_OR_RETURN(auto ids, RepoIds(store, o.repo));
  RepoNames names(store);
  auto visit = [&](int64_t repo_id, int64_t, const IssueRecord& r) -> Status {
    if (r.reference_only() || !KindMatches(o.kind, r.kind)) return Status::Ok();
    const bool closed = r.state == "closed";
    if (o.metric != Metric::kIssues && o.metric != Metric::kComments && !closed) return Status::Ok();
    const int32_t month = MonthOfDay(DayOf(r.created_at != 0 ? r.created_at : r.first_seen));
    if (!MonthInRange(o, month)) return Status::Ok();
    const std::vector<std::string> flagged = CategoriesOf(*model, r);
    if (o.category && std::find(flagged.begin(), flagged.end(), *o.category) == flagged.end()) return Status::Ok();
    std::vector<std::vector<std::string>> values;
    for (const std::string& d : o.dimensions) {
      if (d == "repo") values.push_back({names.Of(repo_id)});
      else if (d == "month") values.push_back({FormatMonth(month)});
      else if (d == "category") values.push_back(o.category ? std::vector<std::string>{*o.category} : flagged);
      else if (d == "subcategory") values.push_back(SubcategoriesOf(*model, r, flagged, o.category));
      else if (d == "label") values.push_back(r.labels.empty() ? std::vector<std::string>{"(none)"} : r.labels);
      else if (d == "state") values.push_back({r.state.empty() ? "(unknown)" : r.state});
      else if (d == "kind") values.push_back({r.kind == 1 ? "pr" : "issue"});
      else if (d == "resolution") values.push_back({ResolutionOf(r)});
      else if (d == "verdict") values.push_back({VerdictOf(flagged)});
    }
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

Status QueryEvents(const Store& store, const QueryOptions& o, std::map<std::vector<std::string>, Cell>& out) {
  GHSIFT_ASSIGN_OR_RETURN(auto ids, RepoIds(store, o.repo));
  const bool by_repo = ids.has_value() ||
                       std::find(o.dimensions.begin(), o.dimensions.end(), "repo") != o.dimensions.end();
  RepoNames names(store);
  auto add = [&](int64_t repo_id, int32_t day, std::string_view type, int64_t count) {
    const int32_t month = MonthOfDay(day);
    if (!MonthInRange(o, month)) return;
    std::vector<std::string> row;
    for (const std::string& d : o.dimensions) {
      if (d == "repo") row.push_back(names.Of(repo_id));
      else if (d == "month") row.push_back(FormatMonth(month));
      else if (d == "day") row.push_back(FormatDay(day));
      else if (d == "type") row.emplace_back(type);
    }
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

std::optional<Metric> MetricFromName(const std::string& name) {
  for (Metric m : {Metric::kIssues, Metric::kEvents, Metric::kClosed, Metric::kComments, Metric::kMedianDaysToClose}) {
    if (MetricName(m) == name) return m;
  }
  return std::nullopt;
}

std::string MetricName(Metric metric) {
  switch (metric) {
    case Metric::kIssues: return "issues";
    case Metric::kEvents: return "events";
    case Metric::kClosed: return "closed";
    case Metric::kComments: return "comments";
    case Metric::kMedianDaysToClose: return "median_days_to_close";
  }
  return "?";
}

Result<QueryTable> RunQuery(const Store& store, const QueryOptions& options) {
  const auto& allowed = options.metric == Metric::kEvents ? kEventDimensions : kIssueDimensions;
  for (const std::string& d : options.dimensions) {
    if (!allowed.count(d)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      return Status::InvalidArgument("dimension '" + d + "' does not apply to metric " + MetricName(options.metric) +
                                     " (use " + list + ")");
    }
  }
  if (options.kind != "issue" && options.kind != "pr" && options.kind != "all") {
    return Status::InvalidArgument("--kind must be issue, pr or all");
  }
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
  std::map<std::vector<std::string>, Cell> cells;
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

Result<std::vector<ListedIssue>> ListIssues(const Store& store, const IssueListOptions& options) {
  auto model = LoadStoreModel(store);
  if (!model.ok()) return model.status();
  GHSIFT_ASSIGN_OR_RETURN(auto ids, RepoIds(store, options.repo));
  RepoNames names(store);
  std::vector<ListedIssue> out;
  auto visit = [&](int64_t repo_id, int64_t number, const IssueRecord& r) -> Status {
    if (options.limit != 0 && out.size() >= options.limit) return Status::Ok();
    if (r.reference_only() || !KindMatches(options.kind, r.kind)) return Status::Ok();
    std::vector<std::string> flagged = model->Flagged(r.rules);
    if (options.category ? std::find(flagged.begin(), flagged.end(), *options.category) == flagged.end()
                         : flagged.empty()) {
      return Status::Ok();
    }
    ListedIssue item;
    item.repo = names.Of(repo_id);
    item.number = number;
    item.kind = r.kind == 1 ? "pr" : "issue";
    item.url = "https://github.com/" + item.repo + (r.kind == 1 ? "/pull/" : "/issues/") + std::to_string(number);
    item.title = r.title;
    item.state = r.state;
    item.created = r.created_at != 0 ? FormatDay(DayOf(r.created_at)) : "";
    item.categories = std::move(flagged);
    item.rules = r.rules;
    out.push_back(std::move(item));
    return Status::Ok();
  };
  if (ids) {
    for (int64_t id : *ids) GHSIFT_TRY(store.ScanIssues(id, visit));
  } else {
    GHSIFT_TRY(store.ScanIssues(std::nullopt, visit));
  }
  return out;
}

}  // namespace ghsift
