// The dimension table is the one list of dimensions: the README, `--by` help, `--stratify` and the
// filter options of issues, sample and query all follow it; filters made from it select reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/time_util.hpp"
#include "json/event_extractor.hpp"
#include "query/dimensions.hpp"
#include "query/query.hpp"
#include "query/query_metrics.hpp"
#include "query/query_test_support.hpp"
#include "rules/rule_set.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::ReadText;

namespace fs = std::filesystem;
using Row = std::vector<std::string>;
using CellList = std::vector<std::pair<Row, int64_t>>;

TEST(DimensionTableTest, TheReadmeListsEveryDimension) {
  const std::string readme = ReadText(std::string(GHSIFT_SOURCE_DIR) + "/README.md");
  ASSERT_FALSE(readme.empty());
  for (const Dimension& d : Dimensions()) {
    EXPECT_NE(readme.find("| `" + std::string(d.name) + "` |"), std::string::npos)
        << "README.md's table of dimensions has no row for " << d.name;
  }
}

//! The README's row of the verdict dimension names every verdict of the bundled rule set.
TEST(DimensionTableTest, TheReadmeListsEveryVerdictOfTheBundledRules) {
  const std::string readme = ReadText(std::string(GHSIFT_SOURCE_DIR) + "/README.md");
  const size_t row = readme.find("| `verdict` | reports |");
  ASSERT_NE(row, std::string::npos) << "README.md's table of dimensions has no verdict row";
  const std::string line = readme.substr(row, readme.find('\n', row) - row);
  auto rules = LoadRuleSet(std::string(GHSIFT_SOURCE_DIR) + "/rules");
  ASSERT_TRUE(rules.ok()) << rules.status().message();
  const std::vector<std::string> verdicts = DecisionModel::FromRuleSet(*rules).VerdictValues();
  ASSERT_GT(verdicts.size(), 2u);
  for (const std::string& verdict : verdicts) {
    EXPECT_NE(line.find("`" + verdict + "`"), std::string::npos) << "README.md's verdict row misses " << verdict;
  }
}

//! The README's list of the exports' numeric columns is the numeric exported dimensions.
TEST(DimensionTableTest, TheReadmeListsEveryNumericExportColumn) {
  const std::string readme = ReadText(std::string(GHSIFT_SOURCE_DIR) + "/README.md");
  const size_t list = readme.find("jsonl`: `reopened`");
  ASSERT_NE(list, std::string::npos) << "README.md's list of numeric export columns moved";
  const std::string sentence = readme.substr(list, readme.find(';', list) - list);
  size_t listed = 0;  // backticks: the one closing "jsonl`", then two a column
  for (size_t at = sentence.find('`'); at != std::string::npos; at = sentence.find('`', at + 1)) ++listed;
  size_t numeric = 0;
  for (const Dimension& d : Dimensions()) {
    if (!d.exported || !d.numeric) continue;
    ++numeric;
    EXPECT_NE(sentence.find("`" + std::string(d.name) + "`"), std::string::npos)
        << "README.md's numeric export columns miss " << d.name;
  }
  EXPECT_EQ((listed - 1) / 2, numeric) << "README.md lists a numeric column the table does not have: " << sentence;
}

TEST(DimensionTableTest, RowsAreWhole) {
  for (const Dimension& d : Dimensions()) {
    EXPECT_FALSE(d.help.empty()) << d.name;
    EXPECT_TRUE(d.of_reports() || d.of_events()) << d.name;
    EXPECT_EQ(FindDimension(d.name), &d);
    if (d.filter == FilterKind::kValue) {
      EXPECT_TRUE(d.of_reports()) << d.name << ": a filter selects reports";
      EXPECT_FALSE(d.filter_help.empty()) << d.name;
    }
    // A rollup column counts reports: the rollup holds no per-report values of other kinds.
    if (d.rollup != RollupColumn::kNone) {
      EXPECT_TRUE(d.of_reports()) << d.name;
    }
  }
  for (std::string_view name : {dimension::kRepo, dimension::kMonth, dimension::kCategory, dimension::kSubcategory,
                                dimension::kVerdict, dimension::kResolution, dimension::kState, dimension::kKind,
                                dimension::kLabel}) {
    EXPECT_NE(FindDimension(name), nullptr) << name;
  }
  EXPECT_EQ(FindDimension("colour"), nullptr);
}

//! Help of every listing command names each dimension and each filter of the table.
//! A report attribute is its row of json/report_attribute.hpp and nothing else: that row alone
//! makes it a dimension to group by, a `--NAME` filter and an export column.
TEST(DimensionTableTest, EachReportAttributeIsAGroupableFilterAndExportColumn) {
  for (const AttributeSpec& spec : kReportAttributes) {
    const Dimension* d = FindDimension(spec.name);
    ASSERT_NE(d, nullptr) << spec.name;
    EXPECT_TRUE(d->of_reports() && d->groupable && d->exported) << spec.name;
    EXPECT_EQ(d->filter, FilterKind::kValue) << spec.name;
    EXPECT_EQ(d->help, spec.help);
    EXPECT_EQ(d->Selects("Owner", "OWNER"), spec.any_case) << spec.name;
  }
}

TEST(DimensionTableTest, HelpFollowsTheTable) {
  const auto query = testing::RunCommand(testing::Ghsift() + " query --help");
  const auto sample = testing::RunCommand(testing::Ghsift() + " sample --help");
  const auto issues = testing::RunCommand(testing::Ghsift() + " issues --help");
  ASSERT_EQ(query.exit_code, 0) << query.output;
  for (const Dimension& d : Dimensions()) {
    if (!d.groupable) {
      // An export column only: issues names it among its columns, query --by does not offer it.
      EXPECT_NE(issues.output.find(std::string(d.name)), std::string::npos) << "issues help misses " << d.name;
      continue;
    }
    EXPECT_NE(query.output.find(std::string(d.name)), std::string::npos) << "query --by help misses " << d.name;
    if (d.of_reports()) {
      EXPECT_NE(sample.output.find(std::string(d.name)), std::string::npos) << "--stratify help misses " << d.name;
    }
    if (d.filter != FilterKind::kValue) continue;
    const std::string option = FilterOption(d.name);
    for (const auto* help : {&query, &sample, &issues}) {
      EXPECT_NE(help->output.find(option), std::string::npos) << option << " missing in " << help->output;
    }
  }
  for (const auto* help : {&query, &sample, &issues}) EXPECT_NE(help->output.find("--repo"), std::string::npos);
  const auto report = testing::RunCommand(testing::Ghsift() + " report --help");
  EXPECT_NE(report.output.find("--repo,--repos"), std::string::npos) << report.output;
}

// `query --fill-zeros` help names the dimensions that know every value they can have, and only
// those: the rows that set every_value.
TEST(DimensionTableTest, FillZerosHelpNamesTheDimensionsThatFill) {
  const auto query = testing::RunCommand(testing::Ghsift() + " query --help");
  ASSERT_EQ(query.exit_code, 0) << query.output;
  const size_t from = query.output.find("--fill-zeros");
  ASSERT_NE(from, std::string::npos) << query.output;
  const std::string help = query.output.substr(from, query.output.find("\n  -", from) - from);
  // The list between "can have: " and "; other dimensions", "a (what), b, c or d": its names.
  const size_t list_from = help.find("can have: ");
  ASSERT_NE(list_from, std::string::npos) << help;
  std::string list = help.substr(list_from + 10, help.find("; other dimensions") - list_from - 10);
  for (size_t at = list.find(" ("); at != std::string::npos; at = list.find(" (")) list.erase(at, list.find(')', at) + 1 - at);
  for (size_t at = list.find(" or "); at != std::string::npos; at = list.find(" or ")) list.replace(at, 4, ", ");
  std::vector<std::string> named, filling;
  std::stringstream items(list);
  for (std::string item; std::getline(items, item, ',');) {
    item.erase(0, item.find_first_not_of(' '));
    named.push_back(item);
  }
  for (const Dimension& d : Dimensions()) {
    if (d.every_value == nullptr) {
      EXPECT_TRUE(d.every_value_help.empty()) << d.name;
      continue;
    }
    filling.emplace_back(d.name);
    if (!d.every_value_help.empty()) {
      EXPECT_NE(help.find(std::string(d.name) + " (" + std::string(d.every_value_help) + ")"), std::string::npos)
          << d.name << " in " << help;
    }
  }
  EXPECT_EQ(named, filling) << help;
}

// A closed set of values is one list: each value --fill-zeros fills is in the dimension's help as
// printed, its filter takes each of them (by the option's word, `unknown` for "(unknown)"), and
// the filter's help and error name each word.
TEST(DimensionTableTest, ClosedSetsAgreeAcrossHelpFilterAndFill) {
  const DecisionModel model = DecisionModel::FromRuleSet(RuleSet{});
  const std::vector<std::string> none;
  const std::optional<std::string> no_category;
  for (std::string_view name : {dimension::kState, dimension::kResolution, dimension::kTimeToClose}) {
    const Dimension& d = *FindDimension(name);
    ASSERT_NE(d.every_value, nullptr) << name;
    const std::vector<std::string> every = d.every_value(FillContext{model, none, {}, {}, none, no_category, "issue"});
    ASSERT_GE(every.size(), 3u) << name;
    for (const std::string& value : every) {
      EXPECT_NE(d.help.find(value), std::string::npos) << name << ": help misses " << value << ": " << d.help;
      if (d.filter != FilterKind::kValue) continue;
      EXPECT_TRUE(CheckValueFilters({{std::string(name), {value}}}).ok()) << name << " " << value;
      EXPECT_TRUE(std::any_of(d.values.begin(), d.values.end(), [&](std::string_view w) { return d.Selects(w, value); }))
          << name << ": no filter word selects " << value;
    }
    for (std::string_view word : d.values) {
      EXPECT_NE(d.filter_help.find(word), std::string::npos) << name << ": filter help misses " << word;
      EXPECT_TRUE(std::any_of(every.begin(), every.end(), [&](const std::string& v) { return d.Selects(word, v); }))
          << name << ": " << word << " selects no value --fill-zeros fills";
      EXPECT_NE(CheckValueFilters({{std::string(name), {"no-such"}}}).message().find(word), std::string::npos);
    }
  }
  EXPECT_EQ(FindDimension(dimension::kTimeToClose)->help,
            "closed within: a: < 1 day, b: 1-7 days, c: 7-30 days, d: 30-90 days, e: 90-365 days, f: > 1 year; open; "
            "(unknown)");
}

TEST(DimensionTableTest, VerdictValuesComeFromTheRuleSet) {
  RuleSet set;
  ASSERT_TRUE(ParseRuleYaml("categories:\n  verdict: {threshold: 1, verdict: true}\n"
                            "rules:\n  - {id: v.q, tag: verdict/question, pattern: how}\n",
                            "v.yaml", set)
                  .ok());
  const DecisionModel model = DecisionModel::FromRuleSet(set);
  EXPECT_TRUE(CheckVerdictFilter(model, {{"verdict", {"bug", "question", "not-a-bug", "unknown"}}}).ok());
  EXPECT_EQ(CheckVerdictFilter(model, {{"verdict", {"questoin"}}}).message(),
            "--verdict must be bug, question, not-a-bug or unknown (the verdicts of the store's rule set), not "
            "'questoin' (did you mean question?)");
}

TEST(DimensionTableTest, BadFilterValuesNameTheOption) {
  EXPECT_EQ(CheckValueFilters({{"state", {"opened"}}}).message(),
            "--state must be open, closed or unknown, not 'opened' (did you mean open?)");
  EXPECT_EQ(CheckValueFilters({{"resolution", {"fixed"}}}).message(),
            "--resolution must be fixed_by_pr, closed_without_pr, open or unknown, not 'fixed' (did you mean "
            "fixed_by_pr?)");
  EXPECT_TRUE(CheckValueFilters({{"state", {"(unknown)", "open"}}, {"label", {"anything"}}}).ok());
  EXPECT_EQ(CheckValueFilters({{"month", {"2024-01"}}}).message(), "no value filter on 'month'");
}

//! testing::IssueReportEvent with labels and an author.
Event LabeledReport(int64_t repo_id, std::string_view repo_name, const char* time, int64_t number,
                    std::string_view state, std::vector<std::string_view> labels, std::string_view author = "") {
  Event e = testing::IssueReportEvent(repo_id, repo_name, time, number, state);
  e.report.labels = std::move(labels);
  e.report.attributes[Attribute::kAuthor] = author;
  return e;
}

//!   a/one#1 2024-01-10 open   perf, verdict-bug         labels: bug                author Ann
//!   a/one#2 2024-01-20 closed perf, verdict-not-a-bug   labels: question, wontfix  author bo
//!   b/two#3 2024-02-05 open   perf                      labels: (none)             author Ann
//!   c/three#4 2024-02-06 closed perf, verdict-bug        labels: bug               no author seen
class DimensionFiltersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open((fs::path(dir_.path()) / "store").string(), StoreMode::kReadWrite);
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(store).value();
    RuleSet rules;
    rules.rules = {testing::TaggedRule("perf.slow", "performance/low-speed"), testing::TaggedRule("v.bug", "verdict-bug"),
                   testing::TaggedRule("v.not", "verdict-not-a-bug")};
    rules.facets = {"verdict-bug", "verdict-not-a-bug"};
    ASSERT_TRUE(store_->PutMeta("rules", DecisionModel::FromRuleSet(rules).Serialize()).ok());
    FileAggregate a;
    auto report = [&](const Event& e, std::vector<std::string> ids) {
      a.CountEvent(e);
      a.AddReport(e, std::move(ids));
    };
    report(LabeledReport(7, "a/one", "2024-01-10T08:00:00Z", 1, "open", {"bug"}, "Ann"), {"perf.slow", "v.bug"});
    report(LabeledReport(7, "a/one", "2024-01-20T08:00:00Z", 2, "closed", {"question", "wontfix"}, "bo"),
           {"perf.slow", "v.not"});
    report(LabeledReport(8, "b/two", "2024-02-05T08:00:00Z", 3, "open", {}, "Ann"), {"perf.slow"});
    report(LabeledReport(9, "c/three", "2024-02-06T08:00:00Z", 4, "closed", {"bug"}), {"perf.slow", "v.bug"});
    ASSERT_TRUE(store_->CommitFile("a.json.gz", FileEntry{}, a).ok());
  }
  void TearDown() override { store_.reset(); }

  std::vector<int64_t> Numbers(const IssueListOptions& o) {
    auto list = ListIssues(*store_, o);
    EXPECT_TRUE(list.ok()) << list.status().message();
    std::vector<int64_t> out;
    if (list.ok()) {
      for (const ListedIssue& i : list->issues) out.push_back(i.number);
    }
    return out;
  }
  CellList Query(const QueryOptions& o) {
    auto table = RunQuery(*store_, o);
    EXPECT_TRUE(table.ok()) << table.status().message();
    CellList out;
    if (table.ok()) {
      for (size_t i = 0; i < table->rows.size(); ++i) out.emplace_back(table->rows[i], table->counts[i]);
    }
    return out;
  }

  testing::TempDir dir_;
  std::unique_ptr<Store> store_;
};

TEST_F(DimensionFiltersTest, ValueFiltersSelectAnyOfTheirValues) {
  IssueListOptions o;
  o.where = {{"label", {"bug", "wontfix"}}};
  EXPECT_EQ(Numbers(o), (std::vector<int64_t>{4, 2, 1}));
  o.where = {{"label", {"(none)"}}};
  EXPECT_EQ(Numbers(o), (std::vector<int64_t>{3}));
  o.where = {{"verdict", {"not-a-bug"}}};
  EXPECT_EQ(Numbers(o), (std::vector<int64_t>{2}));
  o.where = {{"verdict", {"bug"}}, {"state", {"closed"}}};
  EXPECT_EQ(Numbers(o), (std::vector<int64_t>{4}));
  o.where = {{"resolution", {"open"}}};
  EXPECT_EQ(Numbers(o), (std::vector<int64_t>{3, 1}));
}

TEST_F(DimensionFiltersTest, RepoTakesSeveralNames) {
  IssueListOptions o;
  o.repo = std::vector<std::string>{"a/one", "c/three"};
  EXPECT_EQ(Numbers(o), (std::vector<int64_t>{4, 2, 1}));
  QueryOptions q;
  q.dimensions = {"repo"};
  q.repo = std::vector<std::string>{"c/three", "b/two"};
  EXPECT_EQ(Query(q), (CellList{{{"b/two"}, 1}, {{"c/three"}, 1}}));
}

TEST_F(DimensionFiltersTest, QueryFiltersReportsByTheTable) {
  QueryOptions q;
  q.dimensions = {"verdict"};
  q.where = {{"label", {"bug", "question"}}};
  EXPECT_EQ(Query(q), (CellList{{{"bug"}, 2}, {{"not_a_bug"}, 1}}));
  q.metric = Metric::kEvents;
  q.dimensions = {};
  auto events = RunQuery(*store_, q);
  ASSERT_FALSE(events.ok());
  EXPECT_EQ(events.status().message(), "--label applies to report metrics only");
}

TEST_F(DimensionFiltersTest, ListedReportsCarryTheValuesAskedFor) {
  IssueListOptions o;
  o.with_values = {"label", "month"};
  auto list = ListIssues(*store_, o);
  ASSERT_TRUE(list.ok()) << list.status().message();
  ASSERT_EQ(list->issues.size(), 4u);
  EXPECT_EQ(list->issues[2].number, 2);
  EXPECT_EQ(list->issues[2].values, (std::vector<Row>{{"question", "wontfix"}, {"2024-01"}}));
  o.with_values = {"type"};
  EXPECT_EQ(ListIssues(*store_, o).status().message(), "'type' is no report dimension");
}

TEST_F(DimensionFiltersTest, Author) {
  QueryOptions q;
  q.dimensions = {"author"};
  EXPECT_EQ(Query(q), (CellList{{{"(unknown)"}, 1}, {{"Ann"}, 2}, {{"bo"}, 1}}));
  IssueListOptions o;
  o.where = {{"author", {"ann", "nobody"}}};  // a login in any case
  EXPECT_EQ(Numbers(o), (std::vector<int64_t>{3, 1}));
  o.where.clear();
  o.with_values = ExportedDimensionNames();
  auto list = ListIssues(*store_, o);
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(o.with_values,
            (std::vector<std::string>{"resolution", "author", "association", "author_type", "reopened", "created_at",
                                      "closed_at", "days_to_close", "closing_pr", "comment_count",
                                      "first_response_hours"}));
  // The lifecycle columns: a closed report without a closing pull request, an open one.
  EXPECT_EQ(list->issues[0].values, (std::vector<Row>{{"closed_without_pr"}, {"(unknown)"}, {"(unknown)"}, {"(unknown)"},
                                                      {"0"}, {"2024-02-06T08:00:00Z"}, {""}, {""}, {""}, {"0"}, {""}}));
  EXPECT_EQ(list->issues[1].values, (std::vector<Row>{{"open"}, {"Ann"}, {"(unknown)"}, {"(unknown)"}, {"0"},
                                                      {"2024-02-05T08:00:00Z"}, {""}, {""}, {""}, {"0"}, {""}}));
}

// A numeric dimension's values sort as numbers (the audit found `query --by reopened` listing 10
// before 9); text dimensions sort as text; values without a number come first.
// GitHub compares label names without case ("Bug" and "bug" cannot both be a repository's), so
// `--label Type:Bug` selects the reports labeled type:bug.
TEST(DimensionTableTest, LabelFilterIgnoresCase) {
  const Dimension& label = *FindDimension("label");
  EXPECT_TRUE(label.Selects("Type:Bug", "type:bug"));
  EXPECT_TRUE(label.Selects("type:bug", "TYPE:BUG"));
  EXPECT_FALSE(label.Selects("type:bu", "type:bug"));
}

TEST(DimensionOrderTest, NumericDimensionsSortByNumber) {
  EXPECT_TRUE(ValueLess(true, "9", "10"));
  EXPECT_FALSE(ValueLess(true, "10", "9"));
  EXPECT_TRUE(ValueLess(false, "10", "9"));
  EXPECT_TRUE(ValueLess(true, "", "0"));
  EXPECT_TRUE(ValueLess(true, "2.5", "10.25"));
  EXPECT_FALSE(ValueLess(true, "7", "7"));
  std::vector<Row> rows = {{"10", "open"}, {"9", "closed"}, {"2", "open"}, {"9", "(unknown)"}};
  std::sort(rows.begin(), rows.end(), RowOrder({"reopened", "state"}));
  EXPECT_EQ(rows, (std::vector<Row>{{"2", "open"}, {"9", "(unknown)"}, {"9", "closed"}, {"10", "open"}}));
  std::sort(rows.begin(), rows.end(), RowOrder({"label", "state"}));  // both text
  EXPECT_EQ(rows, (std::vector<Row>{{"10", "open"}, {"2", "open"}, {"9", "(unknown)"}, {"9", "closed"}}));
}

// The `--by` help (and the README's list, written from it) names a missing value as the outputs
// print it: each dimension that can lack a value says kUnknownValue, and no help says a bare
// "unknown" (the filters' word, which the filter help keeps).
TEST(UnknownValueTest, DimensionHelpSpellsTheValueAsPrinted) {
  std::vector<std::string> naming;
  for (const Dimension& d : Dimensions()) {
    std::string help(d.help);
    if (help.find(kUnknownValue) != std::string::npos) naming.emplace_back(d.name);
    for (size_t at = help.find(kUnknownValue); at != std::string::npos; at = help.find(kUnknownValue, at)) {
      help.erase(at, std::string_view(kUnknownValue).size());
    }
    EXPECT_EQ(help.find("unknown"), std::string::npos) << d.name << ": " << d.help;
  }
  EXPECT_EQ(naming, (std::vector<std::string>{"state", "resolution", "verdict", "author", "association",
                                              "author_type", "time_to_close"}));
}

// A value that is not known reads kUnknownValue, "(unknown)", in every dimension it can be missing
// from (the audit found "(unknown)" for the state and the author, "unknown" for the resolution and
// the verdict of the same report, and "state unknown" in `rules explain`); each filter takes the
// option's word `unknown` and the printed value alike.
TEST(UnknownValueTest, OneSpellingInEveryDimensionAndFilter) {
  testing::TempDir dir;
  auto store = Store::Open(dir / "store", StoreMode::kReadWrite);
  ASSERT_TRUE(store.ok()) << store.status().message();
  RuleSet rules;
  ASSERT_TRUE(ParseRuleYaml("categories:\n  verdict: {threshold: 1, verdict: true}\n"
                            "rules:\n  - {id: v.q, tag: verdict/question, pattern: how}\n"
                            "  - {id: p.slow, tag: performance/low-speed, pattern: slow}\n",
                            "v.yaml", rules)
                  .ok());
  ASSERT_TRUE((*store)->PutMeta("rules", DecisionModel::FromRuleSet(rules).Serialize()).ok());
  // 2012-2014 issue events give ids only: no state, no author; #3 no text either (no verdict),
  // #4 a text that matched p.slow (flagged, verdict bug).
  FileAggregate a;
  for (const auto& [number, matched] : {std::pair{3, std::vector<std::string>{}}, std::pair{4, std::vector<std::string>{"p.slow"}}}) {
    Event e = testing::IssueReportEvent(7, "a/one", "2013-02-15T08:00:00Z", number, "", "");
    a.CountEvent(e);
    a.AddReport(e, matched);
  }
  ASSERT_TRUE((*store)->CommitFile("a.json.gz", FileEntry{}, a).ok());
  QueryOptions q;
  q.dimensions = {"state", "resolution", "verdict", "time_to_close", "author", "association"};
  auto table = RunQuery(**store, q);
  ASSERT_TRUE(table.ok()) << table.status().message();
  EXPECT_EQ(table->rows, (std::vector<Row>{{"(unknown)", "(unknown)", "(unknown)", "(unknown)", "(unknown)", "(unknown)"},
                                           {"(unknown)", "(unknown)", "bug", "(unknown)", "(unknown)", "(unknown)"}}));
  EXPECT_EQ(std::string(kUnknownValue), "(unknown)");
  for (const auto& [dimension, n] : {std::pair{"state", 2}, std::pair{"resolution", 2}, std::pair{"verdict", 1}}) {
    for (const std::string wanted : {"unknown", "(unknown)"}) {
      q.dimensions = {};
      q.where = {{dimension, {wanted}}};
      table = RunQuery(**store, q);
      ASSERT_TRUE(table.ok()) << dimension << " " << wanted << ": " << table.status().message();
      EXPECT_EQ(table->counts, (std::vector<int64_t>{n})) << dimension << " " << wanted;
    }
  }
  IssueListOptions o;
  o.with_values = {"resolution", "author"};
  auto list = ListIssues(**store, o);
  ASSERT_TRUE(list.ok()) << list.status().message();
  ASSERT_EQ(list->issues.size(), 1u);
  EXPECT_EQ(list->issues[0].number, 4);
  EXPECT_EQ(list->issues[0].state, "(unknown)");
  EXPECT_EQ(list->issues[0].values, (std::vector<Row>{{"(unknown)"}, {"(unknown)"}}));
}

class ReopenedOrderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open((fs::path(dir_.path()) / "store").string(), StoreMode::kReadWrite);
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(store).value();
    testing::CommitReopenedReports(*store_);
  }
  testing::TempDir dir_;
  std::unique_ptr<Store> store_;
};

TEST_F(ReopenedOrderTest, QueryListsReopenedByNumber) {
  QueryOptions q;
  q.dimensions = {"reopened"};
  const auto table = RunQuery(*store_, q);
  ASSERT_TRUE(table.ok()) << table.status().message();
  EXPECT_EQ(table->rows, (std::vector<Row>{{"0"}, {"2"}, {"9"}, {"10"}}));
  // Several metrics (a join of answers), grouped by a second dimension, and filled with zeros.
  q.dimensions = {"reopened", "state"};
  const auto joined = RunQueryMetrics(*store_, q, {Metric::kIssues, Metric::kClosed}, false);
  ASSERT_TRUE(joined.ok()) << joined.status().message();
  EXPECT_EQ(joined->rows, (std::vector<Row>{{"0", "open"}, {"2", "open"}, {"9", "open"}, {"10", "open"}}));
  const auto filled = RunQueryMetrics(*store_, q, {Metric::kIssues, Metric::kClosed}, true);
  ASSERT_TRUE(filled.ok()) << filled.status().message();
  std::vector<Row> want;
  for (const char* reopened : {"0", "2", "9", "10"}) {
    for (const char* state : {"(unknown)", "closed", "open"}) want.push_back({reopened, state});
  }
  EXPECT_EQ(filled->rows, want);
}

}  // namespace
}  // namespace ghsift
