#include "query/dimensions.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <span>
#include <utility>

#include "common/ascii_case.hpp"
#include "common/closest_name.hpp"
#include "common/number_text.hpp"
#include "common/time_util.hpp"
#include "query/query.hpp"

namespace ghsift {
namespace {

using Values = std::vector<std::string>;

// The closed sets of values, each listed once, in the order help lists them (kUnknownValue as
// printed): the dimension's help, its filter's words, its --fill-zeros values and the value of a
// report all read the list.

//! A report's latest state, as the archive gives it, or kUnknownValue when no event gave one.
constexpr std::string_view kOpen = "open", kClosed = "closed";
constexpr std::string_view kStates[] = {kOpen, kClosed, kUnknownValue};

//! How a report ended (ResolutionOf).
constexpr std::string_view kFixedByPr = "fixed_by_pr", kClosedWithoutPr = "closed_without_pr";
constexpr std::string_view kResolutions[] = {kFixedByPr, kClosedWithoutPr, kOpen, kUnknownValue};

//! The buckets a closed report's time to close falls in (those a distribution is drawn with):
//! the first whose bound it is below. Open reports are kOpen, those of no state kUnknownValue.
struct CloseBucket {
  double below_days;
  std::string_view name;
};
constexpr CloseBucket kCloseBuckets[] = {{1, "a: < 1 day"},    {7, "b: 1-7 days"},     {30, "c: 7-30 days"},
                                         {90, "d: 30-90 days"}, {365, "e: 90-365 days"},
                                         {std::numeric_limits<double>::infinity(), "f: > 1 year"}};

Values ValuesOf(std::span<const std::string_view> list) { return Values(list.begin(), list.end()); }
Values CloseBucketNames() {
  Values names;
  for (const CloseBucket& bucket : kCloseBuckets) names.emplace_back(bucket.name);
  return names;
}
Values TimesToClose() {
  Values values = CloseBucketNames();
  values.emplace_back(kOpen);
  values.emplace_back(kUnknownValue);
  return values;
}

//! "a, b, c": a closed set as help lists it.
template <typename Names>
std::string Listed(const Names& values) {
  std::string out;
  for (const auto& value : values) out += (out.empty() ? "" : ", ") + std::string(value);
  return out;
}
//! The words a filter of a closed set takes: its values, `unknown` for kUnknownValue (NamesUnknown).
std::vector<std::string_view> FilterWords(std::span<const std::string_view> list) {
  std::vector<std::string_view> words;
  for (std::string_view value : list) words.push_back(value == kUnknownValue ? "unknown" : value);
  return words;
}

//! How a report ended: closed by a merged PR of its repo, closed otherwise, still open, or
//! kUnknownValue: its state was never given, or it closed in a month whose pull-request events
//! carry no text (blind_months.hpp), when a merged PR's "fixes #12" cannot be read, so no closing
//! can be told apart from the others.
std::string ResolutionOf(const IssueRecord& r, const BlindMonths& blind) {
  if (r.state.empty()) return kUnknownValue;  // no event gave its state (2012-2014 issue events)
  if (r.state != kClosed) return std::string(kOpen);
  if (!r.closing_prs.empty()) return std::string(kFixedByPr);
  const int64_t closed = r.closed_at != 0 ? r.closed_at : r.last_seen;
  if (blind.PullRequestTextBlind(MonthOfDay(DayOf(closed)))) return kUnknownValue;
  return std::string(kClosedWithoutPr);
}

//! The facet tags of a report (stage/training, info/...), "(none)" without any: as a dimension,
//! every report counts once at least, so rows add up to the total.
Values FacetTagsOf(const ReportView& v) {
  Values tags = SubcategoriesOf(v.model, v.record, v.model.FacetsAmong(v.flagged), std::nullopt);
  if (tags.empty()) tags.push_back("(none)");
  return tags;
}

Values ReportRepo(const ReportView& v) { return {v.names.Of(v.repo_id)}; }
Values ReportMonthText(const ReportView& v) { return {FormatMonth(ReportMonth(v.record))}; }
Values ReportCategories(const ReportView& v) {
  return v.only_category ? Values{*v.only_category} : v.shown;
}
Values ReportSubcategories(const ReportView& v) {
  return SubcategoriesOf(v.model, v.record, v.shown, v.only_category);
}
Values ReportLabels(const ReportView& v) { return v.record.labels.empty() ? Values{"(none)"} : v.record.labels; }
Values ReportState(const ReportView& v) { return {v.record.state.empty() ? kUnknownValue : v.record.state}; }
Values ReportKind(const ReportView& v) { return {ReportKindName(v.record.kind)}; }
Values ReportResolution(const ReportView& v) { return {ResolutionOf(v.record, v.blind)}; }
Values ReportVerdict(const ReportView& v) { return {VerdictOf(v.model, v.record)}; }

// The lifecycle of a report, as the export columns give it (times in UTC, to the second).
int64_t CreatedAt(const IssueRecord& r) { return r.created_at != 0 ? r.created_at : r.first_seen; }
bool Closed(const IssueRecord& r) { return r.state == kClosed && r.closed_at != 0; }
Values ReportCreatedAt(const ReportView& v) { return {FormatIsoTime(CreatedAt(v.record))}; }
Values ReportClosedAt(const ReportView& v) { return {Closed(v.record) ? FormatIsoTime(v.record.closed_at) : ""}; }
Values ReportDaysToClose(const ReportView& v) {
  if (!Closed(v.record)) return {""};
  return {Fixed(static_cast<double>(v.record.closed_at - CreatedAt(v.record)) / 86400.0, 2)};
}
//! Time to close in the buckets a distribution is drawn with (kCloseBuckets).
Values ReportTimeToClose(const ReportView& v) {
  if (v.record.state.empty()) return {kUnknownValue};
  if (!Closed(v.record)) return {std::string(kOpen)};
  const double days = static_cast<double>(v.record.closed_at - CreatedAt(v.record)) / 86400.0;
  for (const CloseBucket& bucket : kCloseBuckets) {
    if (days < bucket.below_days) return {std::string(bucket.name)};
  }
  return {std::string(kCloseBuckets[std::size(kCloseBuckets) - 1].name)};  // the last is unbounded
}
Values ReportReopened(const ReportView& v) { return {std::to_string(v.record.reopened)}; }
Values ReportComments(const ReportView& v) { return {std::to_string(v.record.comments)}; }
//! The first merged pull request of the repository that closes the report, as a URL.
Values ReportClosingPr(const ReportView& v) {
  if (v.record.closing_prs.empty()) return {""};
  return {"https://github.com/" + v.names.Of(v.repo_id) + "/pull/" + std::to_string(v.record.closing_prs.front())};
}
//! Hours from the report's creation to its first comment event (any author), where one was seen.
Values ReportFirstResponseHours(const ReportView& v) {
  if (v.record.first_comment_at == 0) return {""};
  return {Fixed(static_cast<double>(v.record.first_comment_at - CreatedAt(v.record)) / 3600.0, 1)};
}

//! The value of a report attribute (json/report_attribute.hpp), kUnknownValue when no event gave one.
template <Attribute A>
Values ReportAttributeValue(const ReportView& v) {
  const std::string& value = v.record.attributes[A];
  return {value.empty() ? kUnknownValue : value};
}

//! A filter's value or a report's as compared: either spelling of "no value" (the option's word
//! `unknown`, or kUnknownValue as listed) is kUnknownValue.
std::string_view PlainUnknown(std::string_view s) { return NamesUnknown(s) ? std::string_view(kUnknownValue) : s; }

//! `--state unknown` (or as listed, `(unknown)`) selects the reports whose value is kUnknownValue;
//! so for `--resolution` and `--verdict`. Either side may be the option's word (validation matches
//! a wanted value against the words a filter lists).
bool UnknownAliasSelects(std::string_view wanted, std::string_view value) {
  return PlainUnknown(wanted) == PlainUnknown(value);
}

//! A closed set of any case (`--association owner`), and `unknown` as for --state.
bool AnyCaseOrUnknownSelects(std::string_view wanted, std::string_view value) {
  return EqualsAnyCase(PlainUnknown(wanted), PlainUnknown(value));
}

//! The rows of the report attributes: each groups, filters (`--NAME`) and is exported.
void AddAttributeRows(std::vector<Dimension>& d) {
  constexpr auto value_of = []<size_t... I>(std::index_sequence<I...>) {
    return std::array<Values (*)(const ReportView&), kAttributeCount>{
        &ReportAttributeValue<static_cast<Attribute>(I)>...};
  }(std::make_index_sequence<kAttributeCount>());
  for (const AttributeSpec& spec : kReportAttributes) {
    // A closed set also takes `unknown` for the reports no event gave a value, as --state does.
    std::vector<std::string_view> values;
    if (!spec.values.empty()) {
      values = FilterWords(spec.values);
      values.push_back("unknown");
    }
    d.push_back({.name = spec.name,
                 .help = std::string(spec.help),
                 .of_report = value_of[static_cast<size_t>(spec.attribute)],
                 .filter = FilterKind::kValue,
                 .filter_help = std::string(spec.filter_help),
                 .values = std::move(values),
                 .selects = !spec.any_case     ? nullptr
                            : spec.values.empty() ? EqualsAnyCase
                                                  : AnyCaseOrUnknownSelects,
                 .exported = true});
  }
}

std::string EventRepo(const EventView& e) { return e.names.Of(e.repo_id); }
std::string EventMonth(const EventView& e) { return FormatMonth(MonthOfDay(e.day)); }
std::string EventDay(const EventView& e) { return FormatDay(e.day); }
std::string EventType(const EventView& e) { return std::string(e.type); }

//! `--verdict not-a-bug` selects every kind of not-a-bug (a judged report that is no bug).
bool VerdictSelects(std::string_view wanted, std::string_view value) {
  if (wanted == "not-a-bug") return IsNotABugVerdict(value);
  return UnknownAliasSelects(wanted, value);
}

// Every value of a dimension, for --fill-zeros (FillContext). Each also keeps the values the
// answer holds, so that filling never drops a row.
Values WithSeen(Values values, const FillContext& c) {
  values.insert(values.end(), c.seen.begin(), c.seen.end());
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}
//! The question's range in months, its open ends taken from the answer's months.
std::optional<std::pair<int32_t, int32_t>> MonthRange(const FillContext& c) {
  std::optional<int32_t> first = c.from_month, last = c.to_month;
  for (const std::string& v : c.seen) {
    const std::optional<int32_t> m = ParseMonth(std::string_view(v).substr(0, 7));
    if (!m) continue;
    if (!c.from_month) first = first ? std::min(*first, *m) : *m;
    if (!c.to_month) last = last ? std::max(*last, *m) : *m;
  }
  if (!first || !last || *first > *last) return std::nullopt;
  return std::pair{*first, *last};
}
Values EveryMonth(const FillContext& c) {
  Values months;
  if (const auto range = MonthRange(c)) {
    for (int32_t m = range->first; m <= range->second; ++m) months.push_back(FormatMonth(m));
  }
  return WithSeen(std::move(months), c);
}
Values EveryDay(const FillContext& c) {
  Values days;
  if (const auto range = MonthRange(c)) {
    const int32_t first = static_cast<int32_t>(DaysFromCivil(range->first / 12, range->first % 12 + 1, 1));
    const int32_t end = static_cast<int32_t>(DaysFromCivil((range->second + 1) / 12, (range->second + 1) % 12 + 1, 1));
    for (int32_t d = first; d < end; ++d) days.push_back(FormatDay(d));
  }
  return WithSeen(std::move(days), c);
}
Values EveryRepo(const FillContext& c) { return WithSeen(c.repos, c); }
Values EveryCategory(const FillContext& c) {
  if (c.only_category) return WithSeen({*c.only_category}, c);
  Values problems = c.model.Problems(c.model.categories());
  std::erase(problems, c.model.verdict_category());
  return WithSeen(std::move(problems), c);
}
Values EveryState(const FillContext& c) { return WithSeen(ValuesOf(kStates), c); }
Values EveryKind(const FillContext& c) {
  return WithSeen(c.kind == "all" ? Values{ReportKindName(0), ReportKindName(1)} : Values{std::string(c.kind)}, c);
}
Values EveryResolution(const FillContext& c) { return WithSeen(ValuesOf(kResolutions), c); }
Values EveryVerdict(const FillContext& c) {
  Values verdicts = c.model.VerdictValues();
  if (!c.model.verdict_category().empty()) verdicts.push_back(kUnknownValue);
  return WithSeen(std::move(verdicts), c);
}
Values EveryTimeToClose(const FillContext& c) { return WithSeen(TimesToClose(), c); }

std::vector<Dimension> MakeDimensions() {
  std::vector<Dimension> d;
  // One row a dimension; the members a row leaves out keep Dimension's defaults.
  d.push_back({.name = dimension::kRepo,
               .help = "the repository (its latest name)",
               .of_report = ReportRepo,
               .of_event = EventRepo,
               .rollup = RollupColumn::kRepo,
               .filter = FilterKind::kOwnRule,
               .every_value = EveryRepo,
               .every_value_help = "every tracked repository or each --repo"});
  d.push_back({.name = dimension::kMonth,
               .help = "month the report was created (events: of the event)",
               .of_report = ReportMonthText,
               .of_event = EventMonth,
               .rollup = RollupColumn::kMonth,
               .filter = FilterKind::kOwnRule,
               .every_value = EveryMonth,
               .every_value_help = "every month of the range"});
  d.push_back({.name = "day",
               .help = "day of the event",
               .of_event = EventDay,
               .every_value = EveryDay,
               .every_value_help = "every day of the range"});
  d.push_back({.name = "type", .help = "event type", .of_event = EventType});
  d.push_back({.name = dimension::kCategory,
               .help = "problem category (once under each it is flagged with)",
               .of_report = ReportCategories,
               .rollup = RollupColumn::kCategory,
               .filter = FilterKind::kOwnRule,
               .every_value = EveryCategory,
               .every_value_help = "every problem category of the rule set"});
  d.push_back({.name = dimension::kSubcategory,
               .help = "tags of the positive rules that matched a flagged category",
               .of_report = ReportSubcategories,
               .filter = FilterKind::kOwnRule});
  d.push_back({.name = "facet", .help = "facet tags (stage/..., info/...; (none) without)", .of_report = FacetTagsOf});
  d.push_back({.name = dimension::kLabel,
               .help = "each label of the latest snapshot ((none) without)",
               .of_report = ReportLabels,
               .filter = FilterKind::kValue,
               .filter_help = "Only reports with any of these labels (latest snapshot; any case, as GitHub "
                              "compares label names)",
               .selects = EqualsAnyCase});
  d.push_back({.name = dimension::kState,
               .help = "latest state: " + Listed(kStates),
               .of_report = ReportState,
               .rollup = RollupColumn::kState,
               .filter = FilterKind::kValue,
               .filter_help = JoinChoices(FilterWords(kStates)) + " (the latest state; unknown: no event gave one)",
               .values = FilterWords(kStates),
               .selects = UnknownAliasSelects,
               .every_value = EveryState});
  d.push_back({.name = dimension::kKind,
               .help = "issue or pr",
               .of_report = ReportKind,
               .rollup = RollupColumn::kKind,
               .filter = FilterKind::kOwnRule,
               .every_value = EveryKind,
               .every_value_help = "the kinds --kind selects"});
  d.push_back({.name = dimension::kResolution,
               .help = Listed(kResolutions),
               .of_report = ReportResolution,
               .filter = FilterKind::kValue,
               .filter_help = "Only reports that ended so: " + JoinChoices(FilterWords(kResolutions)),
               .values = FilterWords(kResolutions),
               .selects = UnknownAliasSelects,
               .exported = true,
               .every_value = EveryResolution,
               .reads_pull_request_text = true});
  // The kinds of not-a-bug come from the rule set (DecisionModel::VerdictValues): an open set here.
  d.push_back({.name = dimension::kVerdict,
               .help = "bug, or the kind of not-a-bug (question, feature, ...); (unknown) without text",
               .of_report = ReportVerdict,
               .filter = FilterKind::kValue,
               .filter_help = "Only reports with this verdict: bug, a kind of not-a-bug (question, feature, docs, "
                              "...), unknown, or not-a-bug (every kind of not-a-bug)",
               .selects = VerdictSelects,
               .every_value = EveryVerdict,
               .every_value_help = "every verdict of the rule set"});
  AddAttributeRows(d);
  d.push_back({.name = dimension::kTimeToClose,
               .help = "closed within: " + Listed(CloseBucketNames()) + "; " + std::string(kOpen) + "; " + kUnknownValue,
               .of_report = ReportTimeToClose,
               .every_value = EveryTimeToClose});
  d.push_back({.name = "reopened",
               .help = "how many times the report was reopened",
               .of_report = ReportReopened,
               .exported = true,
               .numeric = true});
  // Export columns only (a value a report: nothing to group by).
  const auto column = [&](std::string_view name, std::string_view help, Values (*value)(const ReportView&),
                          bool numeric = false) {
    d.push_back({.name = name, .help = std::string(help), .of_report = value, .exported = true, .groupable = false,
                 .numeric = numeric});
  };
  column("created_at", "when the report was opened (UTC, to the second)", ReportCreatedAt);
  column("closed_at", "when it was closed, if it is closed (UTC)", ReportClosedAt);
  column("days_to_close", "closed_at - created_at in days, if closed", ReportDaysToClose, true);
  column("closing_pr", "the merged pull request of the repository that closes it, if seen", ReportClosingPr);
  column("comment_count", "its comment count (the highest seen)", ReportComments, true);
  column("first_response_hours", "hours from its creation to its first comment event, if one was seen",
         ReportFirstResponseHours, true);
  return d;
}

}  // namespace

const std::vector<Dimension>& Dimensions() {
  static const std::vector<Dimension> table = MakeDimensions();
  return table;
}

const Dimension* FindDimension(std::string_view name) {
  for (const Dimension& d : Dimensions()) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

bool ReadsPullRequestText(const std::vector<std::string>& names) {
  return std::any_of(names.begin(), names.end(), [](const std::string& name) {
    const Dimension* d = FindDimension(name);
    return d != nullptr && d->reads_pull_request_text;
  });
}

std::vector<std::string> DimensionNames(bool events) {
  std::vector<std::string> out;
  for (const Dimension& d : Dimensions()) {
    if ((events ? d.of_events() : d.of_reports()) && d.groupable) out.emplace_back(d.name);
  }
  return out;
}

std::vector<std::string> ExportedDimensionNames() {
  std::vector<std::string> out;
  for (const Dimension& d : Dimensions()) {
    if (d.exported) out.emplace_back(d.name);
  }
  return out;
}

namespace {

//! The number a value of a numeric dimension writes; none for any other text ("" where a report has
//! no value). Only finite numbers: "nan" and "inf" are text here.
std::optional<double> NumberOf(std::string_view value) {
  double number = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() || !std::isfinite(number)) {
    return std::nullopt;
  }
  return number;
}

}  // namespace

bool ValueLess(bool numeric, std::string_view a, std::string_view b) {
  if (numeric) {
    const std::optional<double> x = NumberOf(a), y = NumberOf(b);
    if (x.has_value() != y.has_value()) return !x.has_value();
    if (x && *x != *y) return *x < *y;
  }
  // Equal numbers written apart ("1" and "1.0") by their text, so that the order is total.
  return a < b;
}

RowOrder::RowOrder(const std::vector<std::string>& dimensions) {
  for (const std::string& name : dimensions) {
    const Dimension* d = FindDimension(name);
    numeric_.push_back(d != nullptr && d->numeric);
  }
}

bool RowOrder::operator()(const std::vector<std::string>& a, const std::vector<std::string>& b) const {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const bool numeric = i < numeric_.size() && numeric_[i];
    if (ValueLess(numeric, a[i], b[i])) return true;
    if (ValueLess(numeric, b[i], a[i])) return false;
  }
  return a.size() < b.size();
}

std::string FilterOption(std::string_view dimension_name) {
  std::string option = "--" + std::string(dimension_name);
  std::replace(option.begin(), option.end(), '_', '-');
  return option;
}

Status CheckValueFilters(const ValueFilters& where) {
  for (const auto& [name, wanted] : where) {
    const Dimension* row = FindDimension(name);
    if (row == nullptr || row->filter != FilterKind::kValue) {
      return Status::InvalidArgument("no value filter on '" + name + "'");
    }
    if (row->values.empty()) continue;
    for (const std::string& w : wanted) {
      const bool known = std::any_of(row->values.begin(), row->values.end(),
                                     [&](std::string_view v) { return row->Selects(w, v); });
      if (known) continue;
      return Status::InvalidArgument(FilterOption(name) + " must be " + JoinChoices(row->values) + ", not '" + w + "'" +
                                     DidYouMean(w, std::vector<std::string>(row->values.begin(), row->values.end())));
    }
  }
  return Status::Ok();
}

bool PassesValueFilters(const ValueFilters& where, const ReportView& view) {
  for (const auto& [name, wanted] : where) {
    const Dimension& row = *FindDimension(name);
    const std::vector<std::string> values = row.of_report(view);
    const bool any = std::any_of(values.begin(), values.end(), [&](const std::string& v) {
      return std::any_of(wanted.begin(), wanted.end(), [&](const std::string& w) { return row.Selects(w, v); });
    });
    if (!any) return false;
  }
  return true;
}

Status CheckVerdictFilter(const DecisionModel& model, const ValueFilters& where) {
  const auto it = where.find(std::string(dimension::kVerdict));
  if (it == where.end()) return Status::Ok();
  std::vector<std::string> known = model.VerdictValues();
  // Every kind at once, and the reports no text was seen of, by the option's word for them (a
  // store before the verdict rules has its own three values; not-a-bug selects its not_a_bug).
  known.insert(known.end(), {"not-a-bug", "unknown"});
  for (const std::string& w : it->second) {
    if (NamesUnknown(w) || std::find(known.begin(), known.end(), w) != known.end()) continue;
    return Status::InvalidArgument("--verdict must be " + JoinChoices(known) + " (the verdicts of the store's rule set), not '" +
                                   w + "'" + DidYouMean(w, known));
  }
  return Status::Ok();
}

std::string VerdictOf(const DecisionModel& model, const IssueRecord& r) {
  // Whether the report is a bug (rules/verdict.yaml: "bug" or the kind of not-a-bug); a report of
  // which no text was ever seen cannot be judged. A store built before verdict rules answers as
  // it did (from its label facets).
  const bool judged = !model.verdict_category().empty();
  return judged && r.no_text() ? kUnknownValue : model.Verdict(r.rules);
}

std::vector<std::string> SubcategoriesOf(const DecisionModel& model, const IssueRecord& r,
                                         const std::vector<std::string>& categories,
                                         const std::optional<std::string>& only) {
  std::set<std::string> tags;
  for (const std::string& id : r.rules) {
    if (model.WeightOf(id) <= 0) continue;  // rules that speak against a category say nothing of its kind
    const std::string tag = model.TagOf(id);
    const std::string category = tag.substr(0, tag.find('/'));
    if (only && category != *only) continue;
    if (std::find(categories.begin(), categories.end(), category) == categories.end()) continue;
    tags.insert(tag.find('/') == std::string::npos ? tag + "/(none)" : tag);
  }
  return {tags.begin(), tags.end()};
}

int32_t ReportMonth(const IssueRecord& r) { return MonthOfDay(DayOf(r.created_at != 0 ? r.created_at : r.first_seen)); }

}  // namespace ghsift
