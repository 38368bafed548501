#include "report/report_builder.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <numeric>
#include <set>

#include "common/ascii_case.hpp"
#include "common/number_text.hpp"
#include "common/short_digest.hpp"
#include "common/time_util.hpp"
#include "common/unknown_value.hpp"
#include "query/coverage.hpp"

namespace ghsift {
namespace {

//! Quotes a shell word when it holds anything but safe characters.
std::string ShellWord(const std::string& word) {
  const bool safe = !word.empty() && std::all_of(word.begin(), word.end(), [](unsigned char c) {
    return std::isalnum(c) || std::string_view("/._-,:+=@%").find(static_cast<char>(c)) != std::string_view::npos;
  });
  if (safe) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string Join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : separator) + s;
  return out;
}

//! Bars drawn in the overview: a store of every repository has thousands of rows.
constexpr size_t kOverviewBars = 40;

std::string Capitalized(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

//! Builds tables that share the report's filters.
class Builder {
 public:
  Builder(const Store& store, const ReportOptions& options, const std::set<std::string>& repos,
          const DecisionModel& model)
      : store_(store), options_(options), repos_(repos), model_(model) {}

  QueryOptions Query(std::initializer_list<std::string_view> by, std::optional<std::string> category,
                     Metric metric = Metric::kIssues) const {
    QueryOptions q;
    q.metric = metric;
    q.dimensions.assign(by.begin(), by.end());
    q.category = std::move(category);
    q.from_month = options_.from_month;
    q.to_month = options_.to_month;
    q.kind = options_.kind;
    // Every table keeps to the chosen frameworks, also those without a repo column (a label
    // count, the silent effects): their reports are selected, not their rows.
    if (!options_.repos.empty()) q.repo = AnyOf(options_.repos);
    return q;
  }

  //! Runs `q` and keeps the rows of the chosen repos.
  Result<QueryTable> Run(const QueryOptions& q) const {
    // A category the store's rules lack (a store built with other rules) gives an empty table.
    const std::vector<std::string>& known = model_.categories();
    if (q.category && !std::binary_search(known.begin(), known.end(), *q.category)) {
      QueryTable none;
      none.columns = q.dimensions;
      none.columns.push_back(MetricName(q.metric));
      return none;
    }
    GHSIFT_ASSIGN_OR_RETURN(QueryTable table, RunQuery(store_, q));
    const auto repo_at = std::find(q.dimensions.begin(), q.dimensions.end(), dimension::kRepo);
    if (repos_.empty() || repo_at == q.dimensions.end()) return table;
    const size_t col = static_cast<size_t>(repo_at - q.dimensions.begin());
    QueryTable kept;
    kept.columns = table.columns;
    for (size_t i = 0; i < table.rows.size(); ++i) {
      if (!repos_.count(AsciiLower(table.rows[i][col]))) continue;
      kept.rows.push_back(table.rows[i]);
      kept.counts.push_back(table.counts[i]);
      if (i < table.values.size()) kept.values.push_back(table.values[i]);
    }
    return kept;
  }

  Result<ReportTable> Table(std::string id, std::string title, std::string caption, QueryOptions q,
                            ChartKind chart = ChartKind::kBars) const {
    ReportTable t;
    t.id = std::move(id);
    t.title = std::move(title);
    t.caption = std::move(caption);
    t.command = QueryCommandLine(options_.store_path, q);
    GHSIFT_ASSIGN_OR_RETURN(t.table, Run(q));
    t.query = std::move(q);
    t.chart = chart;
    t.drawn.resize(t.table.rows.size());
    std::iota(t.drawn.begin(), t.drawn.end(), size_t{0});
    return t;
  }

  //! A --by repo,X --category C table with each row's share of the repo's C reports.
  Result<ReportTable> SharedTable(std::string id, std::string title, std::string caption, QueryOptions q) const {
    GHSIFT_ASSIGN_OR_RETURN(ReportTable t, Table(std::move(id), std::move(title), std::move(caption), q));
    QueryOptions totals = Query({dimension::kRepo}, q.category);
    t.totals_command = QueryCommandLine(options_.store_path, totals);
    GHSIFT_ASSIGN_OR_RETURN(QueryTable per_repo, Run(totals));
    for (size_t i = 0; i < per_repo.rows.size(); ++i) t.totals[per_repo.rows[i][0]] = per_repo.counts[i];
    return t;
  }

  //! The rows with the highest counts (ties by row order), at most `top` (default
  //! options_.top_labels) drawn; the table keeps every row.
  Result<ReportTable> TopTable(std::string id, std::string title, std::string caption, QueryOptions q,
                               size_t top = 0) const {
    GHSIFT_ASSIGN_OR_RETURN(ReportTable t, Table(std::move(id), std::move(title), std::move(caption), q));
    if (top == 0) top = options_.top_labels;
    std::stable_sort(t.drawn.begin(), t.drawn.end(),
                     [&](size_t a, size_t b) { return t.table.counts[a] > t.table.counts[b]; });
    if (t.drawn.size() > top) t.drawn.resize(top);
    return t;
  }

 private:
  const Store& store_;
  const ReportOptions& options_;
  const std::set<std::string>& repos_;
  const DecisionModel& model_;
};

//! The first UTC hour of a month index.
int64_t FirstHourOfMonth(int32_t month) { return DaysFromCivil(month / 12, static_cast<unsigned>(month % 12) + 1, 1) * 24; }

//! An hour as the command line's time options take it: "2013-01-05T07".
std::string HourArgument(int64_t hour) {
  char hh[8];
  std::snprintf(hh, sizeof hh, "T%02d", static_cast<int>(hour % 24));
  return FormatDay(static_cast<int32_t>(hour / 24)) + hh;
}

//! "--from 2013-01 --to 2013-12" as the report was asked ("" for neither).
std::string MonthRangeText(const ReportOptions& o) {
  std::string out;
  if (o.from_month) out += "--from " + FormatMonth(*o.from_month);
  if (o.to_month) out += (out.empty() ? "" : " ") + std::string("--to ") + FormatMonth(*o.to_month);
  return out;
}

//! The first hour of --from's month and the last of --to's (either open when not given).
std::pair<std::optional<int64_t>, std::optional<int64_t>> HoursOfMonths(const ReportOptions& o) {
  std::pair<std::optional<int64_t>, std::optional<int64_t>> hours;
  if (o.from_month) hours.first = FirstHourOfMonth(*o.from_month);
  if (o.to_month) hours.second = FirstHourOfMonth(*o.to_month + 1) - 1;
  return hours;
}

//! The coverage of the report's months: the hours from the first of --from to the last of --to,
//! kept within the store's first and last ingested hours (the range of a report without them), so
//! that the months before the store's first hour or after its last are not counted as missing.
//! Nullopt when the store holds no ingested hour or the months lie outside its hours.
Result<std::optional<Coverage>> CoverageOfMonths(const Store& store, const ReportOptions& o) {
  GHSIFT_ASSIGN_OR_RETURN(Coverage whole, ComputeCoverage(store, std::nullopt, std::nullopt));
  if (whole.hours_ingested == 0) return std::optional<Coverage>();
  if (!o.from_month && !o.to_month) return std::optional<Coverage>(std::move(whole));
  const auto [first, last] = HoursOfMonths(o);
  const int64_t from = std::max(whole.from_hour, first.value_or(whole.from_hour));
  const int64_t to = std::min(whole.to_hour, last.value_or(whole.to_hour));
  if (to < from) return std::optional<Coverage>();
  GHSIFT_ASSIGN_OR_RETURN(Coverage part, ComputeCoverage(store, from, to));
  return std::optional<Coverage>(std::move(part));
}

//! "Covers N hours from X to Y (UTC), M missing; rule set D" for the report's head, within the
//! report's --from/--to.
Result<std::string> CoverageText(const Store& store, const ReportOptions& options) {
  GHSIFT_ASSIGN_OR_RETURN(const std::optional<Coverage> covered, CoverageOfMonths(store, options));
  GHSIFT_ASSIGN_OR_RETURN(const std::optional<std::string> model, store.GetMeta("rules"));
  const std::string range = MonthRangeText(options);
  std::string out;
  if (!covered || covered->hours_ingested == 0) {
    out = range.empty() ? "No hourly dump ingested yet" : "No hourly dump ingested within " + range;
  } else {
    const Coverage& c = *covered;
    // With hours missing, "of the N": the bounds are the range looked at, not ingested hours.
    const std::string of_all = c.missing_hours.empty()
                                   ? ""
                                   : " of the " + WithCommas(static_cast<uint64_t>(c.to_hour - c.from_hour + 1));
    out = "Covers " + WithCommas(c.hours_ingested) + (c.hours_ingested == 1 ? " ingested hour" : " ingested hours") +
          of_all + " from " + FormatHour(c.from_hour) +
          " to " + FormatHour(c.to_hour) + " (UTC" + (range.empty() ? "" : ", within " + range) + ")";
    if (c.missing_hours.empty()) {
      out += ", none missing in between";
    } else {
      // The same hours as the line counts: the range (clipped to the store's hours) when given.
      const std::string stats_range =
          range.empty() ? "" : " --from " + HourArgument(c.from_hour) + " --to " + HourArgument(c.to_hour);
      out += "; " + WithCommas(c.missing_hours.size()) + (c.missing_hours.size() == 1 ? " hour" : " hours") +
             " missing in between (first " +
             FormatHour(c.missing_hours.front()) + "; `ghsift stats --coverage" + stats_range + "` lists them)";
    }
  }
  // Files that failed are said on the page, not only on stderr: within the report's months (all
  // of them without --from/--to, also after the last ingested hour), as `stats --coverage` lists.
  const auto [from, to] = HoursOfMonths(options);
  std::vector<std::pair<std::string, std::string>> failed;
  FailuresWithin(store, from, to, &failed, nullptr);
  if (!failed.empty()) {
    out += "; " + (failed.size() == 1 ? std::string("1 file") : WithCommas(failed.size()) + " files") +
           " failed when ingested and " + (failed.size() == 1 ? "is" : "are") + " not counted (" +
           (failed.size() == 1 ? "" : "the first ") + failed.front().first + "; `ghsift stats --coverage` lists " +
           (failed.size() == 1 ? "it" : "them") + ")";
  }
  return out + "; rule set " + (model ? ShortDigest(*model) : std::string("(none)")) + " (`ghsift stats` shows it)";
}

}  // namespace

std::string QueryCommandLine(const std::string& store_path, const QueryOptions& q) {
  std::string line = "ghsift query --store " + ShellWord(store_path.empty() ? "DIR" : store_path);
  if (!q.dimensions.empty()) line += " --by " + Join(q.dimensions, ",");
  if (q.metric != Metric::kIssues) line += " --metric " + MetricName(q.metric);
  if (q.repo) line += " --repo " + ShellWord(Join(q.repo.values, ","));
  if (q.category) line += " --category " + ShellWord(*q.category);
  if (q.kind != "issue") line += " --kind " + q.kind;
  for (const auto& [name, values] : q.where) line += " " + FilterOption(name) + " " + ShellWord(Join(values, ","));
  if (q.from_month) line += " --from " + FormatMonth(*q.from_month);
  if (q.to_month) line += " --to " + FormatMonth(*q.to_month);
  return line + " --format csv";
}

std::string ValueText(const ReportTable& t, size_t row) {
  if (t.query.metric == Metric::kMedianDaysToClose) {
    return MetricValueText(t.query.metric, row < t.table.values.size() ? t.table.values[row] : 0.0);
  }
  return std::to_string(t.table.counts[row]);
}

std::string ShareText(const ReportTable& t, size_t row) {
  if (t.totals.empty() || t.query.dimensions.empty() || t.query.dimensions[0] != "repo") return "";
  auto it = t.totals.find(t.table.rows[row][0]);
  if (it == t.totals.end() || it->second == 0) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * static_cast<double>(t.table.counts[row]) / it->second);
  return buf;
}

std::string KindSentence(const ReportOptions& options) {
  if (options.kind == "pr") return "Pull requests only (not issues)";
  if (options.kind == "all") return "Issues and pull requests";
  return "Issues only (not pull requests)";
}

Result<Report> BuildReport(const Store& store, const ReportOptions& options) {
  Report report;
  report.options = options;
  if (options.from_month && options.to_month && *options.to_month < *options.from_month) {
    return Status::InvalidArgument("empty range: --from " + FormatMonth(*options.from_month) + " is after --to " +
                                   FormatMonth(*options.to_month));
  }
  std::set<std::string> repos;  // lower-case latest names
  for (const std::string& name : options.repos) {
    // As query finds a repository: by any name it had, or an error naming the closest.
    auto resolved = ResolveRepo(store, name);
    if (!resolved.ok()) return Status::NotFound("--repo: " + resolved.status().message());
    const std::vector<int64_t> ids = std::move(resolved).value();
    for (int64_t id : ids) {
      std::string latest = store.RepoName(id);
      if (latest.empty()) latest = name;
      if (repos.insert(AsciiLower(latest)).second) report.repos.push_back(latest);
    }
  }
  std::sort(report.repos.begin(), report.repos.end());
  GHSIFT_ASSIGN_OR_RETURN(const DecisionModel model, LoadStoreModel(store));
  GHSIFT_ASSIGN_OR_RETURN(report.coverage_text, CoverageText(store, options));
  GHSIFT_ASSIGN_OR_RETURN(const BlindMonths blind, BlindMonths::Load(store));
  report.blind = blind.Within(options.from_month, options.to_month);
  Builder b(store, report.options, repos, model);
  auto add = [](ReportSection& section, Result<ReportTable> table) -> Status {
    if (!table.ok()) return table.status();
    section.tables.push_back(std::move(table).value());
    return Status::Ok();
  };
  const char* share_note = " The share is of the framework's reports of the category; a report can have several "
                           "subcategories, so shares may add up to more than 100%.";

  // The problem categories and facets come from the store's rule set: a category a rule layer
  // adds gets every section the built-in ones get, with no code naming it.
  std::vector<std::string> problems, facet_names;
  for (const std::string& c : model.categories()) {
    if (c == model.verdict_category()) continue;
    (model.IsFacet(c) ? facet_names : problems).push_back(c);
  }

  ReportSection overview{"Overview", "Flagged reports per framework and category.", {}};
  GHSIFT_TRY(add(overview, b.TopTable("overview", "Flagged reports per framework and category",
                                      "Reports flagged with each category (a report counts once under each category); "
                                      "the " + std::to_string(kOverviewBars) +
                                          " largest rows drawn, every row in the table.",
                                      b.Query({dimension::kRepo, dimension::kCategory}, std::nullopt), kOverviewBars)));
  report.sections.push_back(std::move(overview));

  for (const std::string& cat : problems) {
    ReportSection section{Capitalized(cat) + " reports",
                          "What the " + cat + " reports are about, whether they are bugs, how they ended and when they "
                          "were filed, per framework.",
                          {}};
    GHSIFT_TRY(add(section, b.SharedTable(cat + "_subcategories", Capitalized(cat) + " reports by subcategory",
                                          Capitalized(cat) + " reports per framework and subcategory." + share_note,
                                          b.Query({dimension::kRepo, dimension::kSubcategory}, cat))));
    GHSIFT_TRY(add(section, b.SharedTable("verdict_" + cat, "Verdicts of " + cat + " reports",
                                          "Whether the " + cat + " reports are bugs (the verdict rules): bug, or the "
                                          "kind of not-a-bug (question, feature, docs, install, crash, ...).",
                                          b.Query({dimension::kRepo, dimension::kVerdict}, cat))));
    GHSIFT_TRY(add(section, b.SharedTable("resolution_" + cat, "Resolution of " + cat + " reports",
                                          "How " + cat +
                                              " reports ended: fixed_by_pr (closed by a merged PR of the repo), "
                                              "closed_without_pr, open, or " + kUnknownValue +
                                              " (no event gave its state: issue events that carry ids only, as most "
                                              "of 2011-2014 do; or it closed in a month whose pull requests carry no "
                                              "text, so a closing pull request cannot be seen).",
                                          b.Query({dimension::kRepo, dimension::kResolution}, cat))));
    GHSIFT_TRY(add(section, b.SharedTable("time_to_close_" + cat, "Time to close, " + cat,
                                          "How long the " + cat +
                                              " reports took to close (closed_at - created_at), in buckets; open "
                                              "ones apart.",
                                          b.Query({dimension::kRepo, dimension::kTimeToClose}, cat))));
    GHSIFT_TRY(add(section, b.Table("days_to_close_" + cat, "Median days to close, " + cat,
                                    "Median of closed_at - created_at over the closed " + cat +
                                        " reports, in days (bar label: median; table: closed reports).",
                                    b.Query({dimension::kRepo}, cat, Metric::kMedianDaysToClose))));
    GHSIFT_TRY(add(section, b.Table("monthly_" + cat, "Monthly " + cat + " reports",
                                    "New " + cat + " reports per framework and month (one point per row).",
                                    b.Query({dimension::kRepo, dimension::kMonth}, cat), ChartKind::kLines)));
    GHSIFT_TRY(add(section, b.TopTable("labels_" + cat, "Top labels of " + cat + " reports",
                                       "Labels of " + cat + " reports, the " + std::to_string(options.top_labels) +
                                           " most frequent drawn; (none) = no label.",
                                       b.Query({dimension::kLabel}, cat))));
    report.sections.push_back(std::move(section));
  }

  ReportSection facets{"Facets",
                       "Where in the workflow the flagged reports arise, and what they give to reproduce them.", {}};
  for (const std::string& facet : facet_names) {
    GHSIFT_TRY(add(facets, b.SharedTable(facet + "_subcategories", "Facet " + facet,
                                         "Reports per framework and " + facet + " facet." + share_note,
                                         b.Query({dimension::kRepo, dimension::kSubcategory}, facet))));
  }
  if (!facets.tables.empty()) report.sections.push_back(std::move(facets));

  ReportSection time{"Over time", "Flagged reports per framework, month of creation and category.", {}};
  GHSIFT_TRY(add(time, b.Table("monthly", "Monthly flagged reports, all categories",
                               "New flagged reports per framework, month and category.",
                               b.Query({dimension::kRepo, dimension::kMonth, dimension::kCategory}, std::nullopt),
                               ChartKind::kNone)));
  report.sections.push_back(std::move(time));
  return report;
}

}  // namespace ghsift
