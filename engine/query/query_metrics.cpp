#include "query/query_metrics.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "aggregate/repo_filter.hpp"
#include "common/ascii_case.hpp"
#include "query/repo_lookup.hpp"
#include "query/repo_names.hpp"

namespace ghsift {
namespace {

//! Above this many rows --fill-zeros is refused: a product of dimensions (repo by day) that no one
//! means to read.
constexpr size_t kMaxFilledRows = 1'000'000;

//! Every repository a store of every repository (--all-repos) holds events of, by its latest name:
//! there the store's names are the list of repositories.
Result<std::vector<std::string>> EveryRepoOfTheStore(const Store& store) {
  std::set<std::string> names;
  GHSIFT_TRY(store.ScanRepoNames([&](int64_t, std::string_view name) {
    if (!name.empty()) names.emplace(name);
  }));
  return std::vector<std::string>(names.begin(), names.end());
}

//! The repositories --fill-zeros writes a row for: those --repo asks for, else the store's tracked
//! list (every repository it holds when it tracks all); each by the name rows give it (its latest
//! in the store, else as the list spells it).
Result<std::vector<std::string>> FillRepos(const Store& store, const QueryOptions& o) {
  std::vector<std::string> asked = o.repo.values;
  if (asked.empty()) {
    GHSIFT_ASSIGN_OR_RETURN(const std::optional<std::string> scope, store.GetMeta("scope"));
    if (!scope) return std::vector<std::string>();
    const std::optional<RepoFilter> tracked = RepoFilter::FromDescription(*scope);
    if (!tracked) return std::vector<std::string>();
    if (tracked->all()) return EveryRepoOfTheStore(store);
    for (const std::string& name : tracked->Names()) {
      const std::vector<std::string> names = tracked->NamesOf(name);
      if (!names.empty() && names.front() == name) asked.push_back(name);  // its current name, once
    }
  }
  // A repository the store has no event of is shown as the list spells it (kept at ingest),
  // else as asked.
  GHSIFT_ASSIGN_OR_RETURN(const std::optional<std::string> listed, store.GetMeta(kTrackedNamesMeta));
  const auto spelled = RepoFilter::SpellingsOf(listed.value_or(""));
  RepoNames names(store);
  std::vector<std::string> out;
  for (const std::string& name : asked) {
    GHSIFT_ASSIGN_OR_RETURN(const std::vector<int64_t> ids, RepoIdsByAnyName(store, name));
    const auto spelling = spelled.find(AsciiLower(name));
    out.push_back(!ids.empty() ? names.Of(ids.front()) : spelling != spelled.end() ? spelling->second : name);
  }
  return out;
}

//! Whether a filter of the question (--state closed, ...) lets a group with `value` through.
bool PassesFilter(const QueryOptions& o, const Dimension& d, const std::string& value) {
  const auto it = o.where.find(std::string(d.name));
  if (it == o.where.end()) return true;
  return std::any_of(it->second.begin(), it->second.end(), [&](const std::string& w) { return d.Selects(w, value); });
}

bool StrictlyAscending(const std::vector<std::vector<std::string>>& rows, const RowOrder& order) {
  return std::adjacent_find(rows.begin(), rows.end(), [&](const auto& a, const auto& b) { return !order(a, b); }) ==
         rows.end();
}

}  // namespace

Result<MetricsTable> RunQueryMetrics(const Store& store, const QueryOptions& options, const std::vector<Metric>& metrics,
                                     bool fill_zeros) {
  MetricsTable table;
  table.columns = options.dimensions;
  // Groups in the order of their dimensions' values (a numeric dimension by number).
  const RowOrder order(options.dimensions);
  std::map<std::vector<std::string>, std::vector<std::optional<double>>, RowOrder> cells(order);
  const auto empty_cells = [&] {
    std::vector<std::optional<double>> v;
    for (const Metric m : metrics) v.push_back(m == Metric::kMedianDaysToClose ? std::nullopt : std::optional(0.0));
    return v;
  };
  for (size_t i = 0; i < metrics.size(); ++i) {
    QueryOptions one = options;
    one.metric = metrics[i];
    GHSIFT_ASSIGN_OR_RETURN(QueryTable answer, RunQuery(store, one));
    table.columns.push_back(answer.columns.back());
    table.matched = table.matched || !answer.rows.empty();
    // One metric and its rows in order already (as RunQuery gives them): the table is the answer.
    // Joining through the map cost a fifth of a ten-million store's `--by repo,month,category`.
    if (metrics.size() == 1 && !fill_zeros && !answer.rows.empty() && StrictlyAscending(answer.rows, order)) {
      table.rows = std::move(answer.rows);
      table.values.reserve(table.rows.size());
      for (size_t r = 0; r < table.rows.size(); ++r) {
        table.values.push_back({metrics[i] == Metric::kMedianDaysToClose ? answer.values[r]
                                                                           : static_cast<double>(answer.counts[r])});
      }
      return table;
    }
    for (size_t r = 0; r < answer.rows.size(); ++r) {
      auto [it, added] = cells.try_emplace(std::move(answer.rows[r]));
      if (added) it->second = empty_cells();
      it->second[i] = metrics[i] == Metric::kMedianDaysToClose ? answer.values[r] : static_cast<double>(answer.counts[r]);
    }
  }
  const bool only_medians = std::all_of(metrics.begin(), metrics.end(), [](Metric m) { return m == Metric::kMedianDaysToClose; });
  if (options.dimensions.empty() && cells.empty() && !only_medians) cells[{}] = empty_cells();
  if (fill_zeros && !options.dimensions.empty()) {
    GHSIFT_ASSIGN_OR_RETURN(const DecisionModel model, LoadStoreModel(store));
    std::vector<std::string> repos;
    std::vector<std::vector<std::string>> every;
    size_t product = 1;
    for (size_t d = 0; d < options.dimensions.size(); ++d) {
      const Dimension& row = *FindDimension(options.dimensions[d]);
      std::set<std::string> seen_set;
      for (const auto& [key, values] : cells) seen_set.insert(key[d]);
      const std::vector<std::string> seen(seen_set.begin(), seen_set.end());
      if (row.name == dimension::kRepo && repos.empty()) {
        GHSIFT_ASSIGN_OR_RETURN(repos, FillRepos(store, options));
      }
      const FillContext context{model, seen, options.from_month, options.to_month, repos, options.category, options.kind};
      std::vector<std::string> values = row.every_value ? row.every_value(context) : seen;
      std::erase_if(values, [&](const std::string& v) { return !seen_set.count(v) && !PassesFilter(options, row, v); });
      product *= std::max<size_t>(values.size(), 1);
      if (values.empty() || product > kMaxFilledRows) {
        if (values.empty()) return table;  // nothing to fill: no row at all
        return Status::InvalidArgument("--fill-zeros would write more than " + std::to_string(kMaxFilledRows) +
                                       " rows; group by fewer dimensions or a shorter range");
      }
      every.push_back(std::move(values));
    }
    std::vector<size_t> at(every.size(), 0);
    for (bool more = true; more;) {
      std::vector<std::string> key;
      for (size_t d = 0; d < every.size(); ++d) key.push_back(every[d][at[d]]);
      if (!cells.count(key)) cells.emplace(std::move(key), empty_cells());
      more = false;
      for (size_t d = every.size(); d-- > 0;) {
        if (++at[d] < every[d].size()) {
          more = true;
          break;
        }
        at[d] = 0;
      }
    }
  }
  for (auto& [key, values] : cells) {
    table.rows.push_back(key);
    table.values.push_back(std::move(values));
  }
  return table;
}

}  // namespace ghsift
