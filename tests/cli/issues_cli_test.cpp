// `ghsift issues` as a weekly triage and the command line's answers to mistakes: exit codes,
// notices on stderr, and errors that name the valid values (issue 14).
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>

#include "eval/labeled_report.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::CsvHeaderLine;
using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;
using testing::WithExportedColumns;

class IssuesCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    const auto r = RunCommand(Ghsift() + " ingest -q --store " + Store() + " " + GHSIFT_SOURCE_DIR + "/tests/data/sample");
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string Store() { return *dir_ / "store"; }
  static testing::CommandResult Run(const std::string& arguments) {
    return RunCommand(Ghsift() + " " + arguments + " --store " + Store());
  }
  static TempDir* dir_;
};
TempDir* IssuesCliTest::dir_ = nullptr;

//! Occurrences of `what` in `text`.
size_t Count(std::string_view text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

//! Lines of a text.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = text.find('\n', at);
    out.push_back(text.substr(at, end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return out;
}

//! The author of each report: `--author` selects its reports in any case, and each export has it.
TEST_F(IssuesCliTest, AuthorIsAFilterAndAnExportColumn) {
  const auto all = Run("issues --limit 0 --kind all --format jsonl");
  ASSERT_EQ(all.exit_code, 0) << all.output;
  const std::vector<std::string> lines = Lines(all.output);
  ASSERT_GT(lines.size(), 3u);
  const std::string key = "\"author\": \"";
  const size_t at = lines[0].find(key);
  ASSERT_NE(at, std::string::npos) << lines[0];
  const std::string author = lines[0].substr(at + key.size(), lines[0].find('"', at + key.size()) - at - key.size());
  ASSERT_FALSE(author.empty());
  ASSERT_NE(author, "(unknown)") << "the sample's reports name their user";
  const size_t by_author = Count(all.output, key + author + "\"");
  std::string shouted = author;
  for (char& c : shouted) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const auto only = Run("issues --limit 0 --kind all --format jsonl --author " + shouted);
  ASSERT_EQ(only.exit_code, 0) << only.output;
  EXPECT_EQ(Count(only.output, "\"url\": "), by_author);
  EXPECT_EQ(Count(only.output, key + author + "\""), by_author);
  const auto csv = Run("issues --limit 1 --format csv");
  EXPECT_NE(csv.output.find(",score," + CsvHeaderLine(WithExportedColumns({"rules"}))), std::string::npos)
      << csv.output.substr(0, 300);
  const auto json = Run("issues --limit 1 --format json --author " + author);
  EXPECT_NE(json.output.find("\"author\": \"" + author + "\""), std::string::npos) << json.output;
  const auto by = Run("query --kind all --by author --format csv");
  EXPECT_NE(by.output.find("\n" + author + ","), std::string::npos) << by.output.substr(0, 300);
}

TEST_F(IssuesCliTest, TableHasTheTriageColumnsAndSaysWhenCut) {
  const auto all = Run("issues --limit 0 --format json");
  ASSERT_EQ(all.exit_code, 0) << all.output;
  const size_t flagged = Count(all.output, "\"url\": ");
  ASSERT_GT(flagged, 3u);
  const auto cut = Run("issues --limit 2");
  ASSERT_EQ(cut.exit_code, 0) << cut.output;
  const std::vector<std::string> table = Lines(cut.output);
  ASSERT_GE(table.size(), 5u) << cut.output;
  EXPECT_EQ(table[0].substr(0, 8), "report  ");
  EXPECT_NE(table[0].find("  title  "), std::string::npos) << table[0];
  // The topic and, beside it, the verdict (whether it is a bug), as the README says.
  const auto wide = RunCommand("COLUMNS=250 " + Ghsift() + " issues --limit 1 --sort score --store " + Store());
  ASSERT_EQ(wide.exit_code, 0) << wide.output;
  const std::string header = Lines(wide.output).at(0);
  EXPECT_LT(header.find("  flagged  "), header.find("  score  ")) << header;
  EXPECT_LT(header.find("  score  "), header.find("  verdict  ")) << header;
  EXPECT_NE(header.find("  verdict  "), std::string::npos) << header;
  EXPECT_EQ(table[4], "ghsift: showing 2 of " + std::to_string(flagged) + "; --limit 0 for all");
  // The CSV is the labeling export: MHNurf columns, then the listing's.
  const auto csv = Run("issues --limit 0 --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.output.substr(0, 400);
  const auto records = ParseCsv(csv.output);
  ASSERT_EQ(records[0], WithExportedColumns({"Repository", "Number", "State", "Title", "Body", "Labels", "Comments",
                                              "Codes", "Review", "class", "url", "kind", "created", "updated",
                                              "categories", "subcategories", "facets", "verdict", "score", "rules"}));
  size_t rows = 0;
  for (size_t i = 1; i < records.size(); ++i) {
    if (records[i].size() != records[0].size()) continue;  // the parser's empty record after the last newline
    ++rows;
    // No facet-only report is listed: every row has a problem category.
    const auto column = [&](const std::string& name) {
      return static_cast<size_t>(std::find(records[0].begin(), records[0].end(), name) - records[0].begin());
    };
    const std::string& categories = records[i][column("categories")];
    EXPECT_TRUE(categories.find("performance") != std::string::npos || categories.find("accuracy") != std::string::npos ||
                categories.find("silent") != std::string::npos)
        << categories;
    EXPECT_EQ(records[i][column("class")], "") << "class is left to the labeler";
  }
  EXPECT_EQ(rows, flagged);
}

//! Terminal columns of a UTF-8 line (the ellipsis and any other code point: one each).
size_t Columns(const std::string& line) {
  size_t n = 0;
  for (const unsigned char c : line) n += (c & 0xC0) != 0x80;
  return n;
}

// The table fits the terminal's width: the report and its title first, what it was flagged with
// (subcategories with their category), then facets and labels while there is room.
TEST_F(IssuesCliTest, TableFitsTheTerminal) {
  for (const size_t width : {80, 120, 1000}) {
    const auto r = RunCommand("COLUMNS=" + std::to_string(width) + " " + Ghsift() + " issues --limit 0 --store " +
                              Store() + " 2>/dev/null");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::vector<std::string> lines = Lines(r.output);
    ASSERT_GT(lines.size(), 3u) << r.output;
    for (const std::string& line : lines) EXPECT_LE(Columns(line), width) << line;
    EXPECT_EQ(lines[0].substr(0, 8), "report  ") << lines[0];
    const size_t title = lines[0].find("title");
    EXPECT_EQ(lines[2].substr(title - 2, 2), "  ") << lines[2];  // the title is the second column
    EXPECT_NE(lines[0].find("flagged"), std::string::npos) << lines[0];
    // Wide enough, nothing is cut and every column shows.
    if (width == 1000) {
      EXPECT_NE(lines[0].find("facets"), std::string::npos) << lines[0];
      EXPECT_NE(lines[0].find("labels"), std::string::npos) << lines[0];
      EXPECT_EQ(r.output.find("\u2026"), std::string::npos) << r.output;
      EXPECT_NE(r.output.find(" performance/"), std::string::npos) << r.output;  // subcategories keep their category
    }
  }
  // Not a terminal and no COLUMNS: 120 columns.
  const auto r = RunCommand("env -u COLUMNS " + Ghsift() + " issues --limit 0 --store " + Store() + " 2>/dev/null");
  for (const std::string& line : Lines(r.output)) EXPECT_LE(Columns(line), 120u) << line;
  // --title-width: titles cut there, whatever the width.
  const auto cut = RunCommand("COLUMNS=300 " + Ghsift() + " issues --limit 0 --title-width 12 --store " + Store() +
                              " 2>/dev/null");
  const std::vector<std::string> lines = Lines(cut.output);
  ASSERT_GT(lines.size(), 3u) << cut.output;
  const size_t title = lines[0].find("title"), after = lines[0].find("state");
  EXPECT_EQ(after - title, 14u) << lines[0];  // 12 columns and the gap
}

TEST_F(IssuesCliTest, JsonGivesListsAsArraysAndTheNumberAsAnInteger) {
  const auto json = Run("issues --limit 0 --format json");
  ASSERT_EQ(json.exit_code, 0) << json.output;
  const auto csv = Run("issues --limit 0 --format csv");
  ASSERT_EQ(csv.exit_code, 0);
  const auto records = ParseCsv(csv.output);  // the same reports, in the same order
  simdjson::dom::parser parser;
  simdjson::dom::array issues;
  ASSERT_EQ(parser.parse(json.output).get_array().get(issues), simdjson::SUCCESS) << json.output.substr(0, 300);
  ASSERT_GT(issues.size(), 3u);
  ASSERT_EQ(records.size() - 1, issues.size() + (records.back().size() == 1 ? 1 : 0));
  size_t row = 1;
  for (simdjson::dom::element issue : issues) {
    const std::vector<std::string>& r = records[row++];
    int64_t number = 0;
    ASSERT_EQ(issue["number"].get_int64().get(number), simdjson::SUCCESS);
    EXPECT_EQ(std::to_string(number), r[1]);
    // The csv joins a list with ';' (and labels one a line); json gives each item alone.
    auto joined = [&](const char* key, const std::string& separator) {
      std::string out;
      simdjson::dom::array items;
      EXPECT_EQ(issue[key].get_array().get(items), simdjson::SUCCESS) << key;
      for (simdjson::dom::element item : items) {
        std::string_view text;
        EXPECT_EQ(item.get_string().get(text), simdjson::SUCCESS) << key;
        out += (out.empty() ? "" : separator) + std::string(text);
      }
      return out;
    };
    const auto column = [&](const std::string& name) {
      return r[static_cast<size_t>(std::find(records[0].begin(), records[0].end(), name) - records[0].begin())];
    };
    EXPECT_EQ(joined("categories", ";"), column("categories"));
    EXPECT_EQ(joined("subcategories", ";"), column("subcategories"));
    EXPECT_EQ(joined("facets", ";"), column("facets"));
    EXPECT_EQ(joined("rules", ";"), column("rules"));
    EXPECT_FALSE(joined("categories", ";").empty());
  }
}

TEST_F(IssuesCliTest, ExitCodesForNoneFoundAndErrors) {
  const auto none = Run("issues --since 2030-01");
  EXPECT_EQ(none.exit_code, 1) << none.output;
  EXPECT_NE(none.output.find("ghsift: no flagged report matches --since 2030-01 --kind issue (the store holds "),
            std::string::npos)
      << none.output;
  EXPECT_EQ(Run("issues --since 2030-01 --exit-zero").exit_code, 0);
  // sample names the filter that emptied its population in the same words (it once said that no
  // report was flagged at all).
  const auto none_drawn = Run("sample --category performance --since 2030-01 --n 5 --seed 1");
  EXPECT_EQ(none_drawn.exit_code, 1) << none_drawn.output;
  EXPECT_NE(none_drawn.output.find("ghsift: no flagged report matches --since 2030-01 --category performance --kind "
                                   "issue (the store holds "),
            std::string::npos)
      << none_drawn.output;
  const auto reversed = Run("issues --since 2024-03 --until 2024-02");
  EXPECT_EQ(reversed.exit_code, 2);
  EXPECT_NE(reversed.output.find("empty range: --since 2024-03 is not before --until 2024-02"), std::string::npos)
      << reversed.output;
  const auto sort = Run("issues --sort newest");
  EXPECT_EQ(sort.exit_code, 2);
  EXPECT_NE(sort.output.find("--sort must be created, updated or score, not 'newest'"), std::string::npos);
  const auto category = Run("issues --category perf");
  EXPECT_EQ(category.exit_code, 2);
  EXPECT_NE(category.output.find("unknown category 'perf' (did you mean performance?); the store's rule set has "
                                 "accuracy, info (facet), performance, silent, stage (facet), verdict (facet)"),
            std::string::npos)
      << category.output;
  const auto repo = Run("issues --repo tensorflow");
  EXPECT_EQ(repo.exit_code, 2);
  EXPECT_NE(repo.output.find("repository 'tensorflow' is not in the store under this or any former name (did you "
                             "mean tensorflow/tensorflow?)"),
            std::string::npos)
      << repo.output;
}

TEST_F(IssuesCliTest, FormerRepositoryNameAnswersLikeTheLatest) {
  // The bundled sample renames apache/incubator-mxnet to apache/mxnet between two of its hours.
  const auto old_name = Run("query --by repo,kind,state --kind all --repo apache/incubator-mxnet --format csv");
  const auto new_name = Run("query --by repo,kind,state --kind all --repo apache/mxnet --format csv");
  ASSERT_EQ(new_name.exit_code, 0) << new_name.output;
  EXPECT_EQ(old_name.exit_code, 0) << old_name.output;
  EXPECT_EQ(old_name.output, new_name.output);
  EXPECT_EQ(Lines(old_name.output).at(1).substr(0, 13), "apache/mxnet,");
  const auto issues = Run("issues --repo apache/incubator-mxnet");
  EXPECT_NE(issues.output.find("(apache/incubator-mxnet has 4 reports of kind issue, 0 of them flagged)"), std::string::npos)
      << issues.output;
}

// rules explain --store on a report the store does not hold: the store's scope is the reason only
// for a repository it does not track.
TEST_F(IssuesCliTest, ExplainOfAReportNotHeldSaysWhy) {
  auto r = Run("rules explain --issue pytorch/pytorch#999999");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("ghsift: pytorch/pytorch#999999: not in the store (no event of it was ingested)"),
            std::string::npos)
      << r.output;
  r = Run("rules explain --issue nobody/none#1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("ghsift: nobody/none#1: not in the store (nobody/none is not one of the store's 24 tracked "
                          "repositories, whose reports it keeps; --all-repos stores keep every one)"),
            std::string::npos)
      << r.output;
}

TEST_F(IssuesCliTest, QueryFiltersNeverAnswerSilently) {
  const auto reversed = Run("query --by repo --from 2024-02 --to 2024-01");
  EXPECT_EQ(reversed.exit_code, 2);
  EXPECT_NE(reversed.output.find("empty range: --from 2024-02 is not before --to 2024-01"), std::string::npos);
  const auto day = Run("query --by repo --from 2024-03-05");
  EXPECT_EQ(day.exit_code, 2);
  EXPECT_NE(day.output.find("--from '2024-03-05': query counts by month; give YYYY-MM"), std::string::npos);
  const auto twice = Run("query --by 'repo, month ,repo'");
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.output.find("dimension 'repo' is given twice in --by"), std::string::npos) << twice.output;
  const auto spaced = Run("query --by 'repo, category' --format csv");
  ASSERT_EQ(spaced.exit_code, 0) << spaced.output;
  EXPECT_EQ(Lines(spaced.output).at(0), "repo,category,issues");
  const auto subcategory = Run("query --category performance/memory");
  EXPECT_EQ(subcategory.exit_code, 2);
  EXPECT_NE(subcategory.output.find("'performance/memory' is a subcategory: use --subcategory performance/memory"),
            std::string::npos)
      << subcategory.output;
  const auto empty = Run("query --by repo --from 2030-01");
  EXPECT_EQ(empty.exit_code, 0);
  EXPECT_NE(empty.output.find("ghsift: no reports in the store match these filters"), std::string::npos)
      << empty.output;
  // A total is a count: 0, not an empty table.
  const auto zero = Run("query --from 2030-01 --format csv");
  EXPECT_EQ(zero.exit_code, 0);
  EXPECT_EQ(zero.output.substr(0, zero.output.find("ghsift:")), "issues\n0\n");
}

// A filter given an empty value (`--repo "$REPO"` with REPO unset) is refused, on every command
// that lists or counts reports, instead of selecting every report.
TEST_F(IssuesCliTest, AnEmptyFilterValueIsRefusedNotIgnored) {
  for (const std::string command : {"issues", "query", "sample --n 5 --category performance"}) {
    for (const std::string option : {"--repo", "--label", "--state", "--author-type", "--subcategory"}) {
      const auto r = Run(command + " " + option + " ''");
      EXPECT_EQ(r.exit_code, 2) << command << " " << option << ": " << r.output;
      EXPECT_NE(r.output.find("ghsift: " + option + ": an empty value (leave the option out to select every report)"),
                std::string::npos)
          << command << " " << option << ": " << r.output;
    }
  }
  for (const std::string option : {"--since", "--until", "--category"}) {
    const auto r = Run("issues " + option + " ''");
    EXPECT_EQ(r.exit_code, 2) << option << ": " << r.output;
    EXPECT_NE(r.output.find("ghsift: " + option + ": an empty value"), std::string::npos) << option << ": " << r.output;
  }
}

// GitHub allows a comma in a label's name. In a filter's comma list it is written "\,", on every
// command that filters, and the echoed filter writes it so again.
TEST(LabelFilterCliTest, ALabelWithACommaIsSelectedWhole) {
  std::string second = testing::OpenedIssueRecord(R"("Training is 10x slower after upgrading")", R"("")",
                                                  R"("needs info")");
  for (const auto& [from, to] : {std::pair<std::string, std::string>{R"("id":"1")", R"("id":"2")"},
                                 {R"("number":7)", R"("number":8)"},
                                 {"tensorflow/issues/7", "tensorflow/issues/8"}}) {
    second.replace(second.find(from), from.size(), to);
  }
  const testing::OneHourStore hour(
      "2024-03-05-14.json",
      testing::OpenedIssueRecord(R"("Inference is 10x slower on GPU")", R"("")", R"("needs info, urgent")") + "\n" +
          second + "\n");
  const std::string issues = Ghsift() + " issues --store " + hour.Store() + " --format csv --label ";
  const auto numbers = [](const std::string& csv) {
    std::vector<std::string> out;
    for (const auto& record : ParseCsv(csv)) {
      if (record.size() > 1 && record[0] == "tensorflow/tensorflow") out.push_back(record[1]);
    }
    return out;
  };
  auto r = testing::RunCommandStdout(issues + "'needs info\\, urgent'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(numbers(r.output), std::vector<std::string>{"7"});
  r = testing::RunCommandStdout(issues + "'needs info'");
  EXPECT_EQ(numbers(r.output), std::vector<std::string>{"8"});
  r = testing::RunCommandStdout(issues + "'needs info\\, urgent,needs info'");
  EXPECT_EQ(numbers(r.output), (std::vector<std::string>{"7", "8"}));
  r = testing::RunCommandStdout(issues + "'needs info' --label 'needs info\\, urgent'");
  EXPECT_EQ(numbers(r.output), (std::vector<std::string>{"7", "8"}));

  r = RunCommand(Ghsift() + " query --store " + hour.Store() +
                 " --by label --format csv --label 'needs info\\, urgent'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "label,issues\n\"needs info, urgent\",1\n");
  r = RunCommand(issues + "'needs info\\, urgent' --state closed");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("no flagged report matches --label needs info\\, urgent --state closed"), std::string::npos)
      << r.output;
}

// Command-line errors CLI11 finds read like ghsift's own: prefixed, with what was given, the
// command's help named, and the commands listed when one is missing.
// sample takes the filters issues takes: --subcategory (with one category) and --kind all. A
// sample as large as the population holds exactly the reports issues lists.
TEST_F(IssuesCliTest, SampleNarrowsAsIssuesDoes) {
  // Report rows only (the command's notes come along in the output).
  const auto count_rows = [](const std::string& output) {
    size_t rows = 0;
    for (size_t at = 0; (at = output.find("{\"repo\": ", at)) != std::string::npos; ++at) ++rows;
    return rows;
  };
  for (const std::string filter : {"--category performance --subcategory memory", "--category performance --kind all",
                                   "--category silent --kind pr"}) {
    const auto listed = Run("issues --limit 0 --format jsonl " + filter);
    const auto drawn = Run("sample --n 100000 --seed 1 --format jsonl " + filter);
    ASSERT_EQ(drawn.exit_code, listed.exit_code) << filter << "\n" << drawn.output;
    if (listed.exit_code == 0) {
      EXPECT_GT(count_rows(listed.output), 0u) << filter;
      EXPECT_EQ(count_rows(drawn.output), count_rows(listed.output)) << filter;
    }
  }
  const auto two = Run("sample --category performance,silent --subcategory memory --n 3 --seed 1");
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_NE(two.output.find("--subcategory needs one --category"), std::string::npos) << two.output;
}

TEST_F(IssuesCliTest, ParseErrorsNameTheCommandAndItsHelp) {
  const auto negative = Run("issues --limit -5");
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_NE(negative.output.find("ghsift: --limit: must be a whole number of 0 or more, not '-5' (see `ghsift issues "
                                 "--help`)"),
            std::string::npos)
      << negative.output;
  const auto bare = RunCommand(Ghsift() + " rules");
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_NE(bare.output.find("ghsift: `ghsift rules` needs a command: check, eval, tune, explain, bench, suggest"),
            std::string::npos)
      << bare.output;
}

// Wrong values name what was given and what is valid; options that would be ignored are errors.
TEST_F(IssuesCliTest, WrongValuesAndIgnoredOptionsAreErrors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"query --metric closd",
       "--metric must be issues, events, closed, comments or median_days_to_close, not 'closd' (did you mean closed?)"},
      {"query --kind issues", "--kind: must be issue, pr or all, not 'issues'"},
      {"issues --kind prs", "--kind: must be issue, pr or all, not 'prs'"},
      {"sample --category performance --kind bug --n 3 --seed 1", "--kind: must be issue, pr or all, not 'bug'"},
      {"query --metric events --kind pr", "--kind applies to report metrics; events are counted by --by type"},
      {"stats --from 2024-01", "--from and --to go with --coverage"},
      {"sample --category perf --n 3 --seed 1",
       "--category: the store's rules have no category 'perf' (did you mean performance?); they have accuracy, "},
      {"issues --sort craeted", "--sort must be created, updated or score, not 'craeted' (did you mean created?)"},
      {"sample --category silent --n 3 --seed 1 --format xlsx", "--format must be csv or jsonl, not 'xlsx'"},
      {"query --by ''", "--by: an empty value (leave the option out for one total)"},
      // GitHub's closed sets: a typo is named, not answered with nothing.
      {"query --by author_type --author-type Usr",
       "--author-type must be Bot, Mannequin, Organization, User or unknown, not 'Usr' (did you mean User?)"},
      {"issues --association MEMBR",
       "--association must be COLLABORATOR, CONTRIBUTOR, FIRST_TIMER, FIRST_TIME_CONTRIBUTOR, MANNEQUIN, MEMBER, "
       "NONE, OWNER or unknown, not 'MEMBR' (did you mean MEMBER?)"}};
  for (const auto& [arguments, message] : cases) {
    const auto r = Run(arguments);
    EXPECT_EQ(r.exit_code, 2) << arguments << "\n" << r.output;
    EXPECT_NE(r.output.find("ghsift: " + message), std::string::npos) << arguments << "\n" << r.output;
  }
}

// A closed set's values select in any case, and `unknown` the reports no event gave one.
TEST_F(IssuesCliTest, ClosedSetsOfGitHubSelectInAnyCase) {
  const auto all = Run("query --by association --kind all --format csv");
  ASSERT_EQ(all.exit_code, 0) << all.output;
  const auto some = Run("query --by association --kind all --format csv --association member,None");
  ASSERT_EQ(some.exit_code, 0) << some.output;
  std::string expected = "association,issues\n";
  for (const std::string& line : Lines(all.output)) {
    if (line.starts_with("MEMBER,") || line.starts_with("NONE,")) expected += line + "\n";
  }
  EXPECT_GT(expected.size(), std::string("association,issues\n").size() + 10) << all.output;
  EXPECT_EQ(some.output, expected);
  const auto types = Run("query --by author_type --kind all --format csv --author-type USER,unknown");
  ASSERT_EQ(types.exit_code, 0) << types.output;
  EXPECT_EQ(Lines(types.output).at(0), "author_type,issues");
  EXPECT_EQ(Lines(types.output).at(1).rfind("User,", 0), 0u) << types.output;
}

TEST_F(IssuesCliTest, UnknownCommandsAndOptionsAreNamedWithTheClosest) {
  const auto command = RunCommand(Ghsift() + " ingset --store x");
  EXPECT_EQ(command.exit_code, 2);
  EXPECT_NE(command.output.find("ghsift: unknown command 'ingset' for `ghsift` (did you mean ingest?); commands: "),
            std::string::npos)
      << command.output;
  const auto option = Run("issues --sinse 7d");
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_NE(option.output.find("ghsift: unknown option --sinse for `ghsift issues` (did you mean --since?)"),
            std::string::npos)
      << option.output;
  const auto nested = RunCommand(Ghsift() + " rules evl");
  EXPECT_EQ(nested.exit_code, 2);
  EXPECT_NE(nested.output.find("unknown command 'evl' for `ghsift rules` (did you mean eval?)"), std::string::npos)
      << nested.output;
}

//! Sorted by score, the table shows each report's score, in the CSV's order and spelling; sorted
//! by date it has no score column.
TEST_F(IssuesCliTest, SortedByScoreTheTableShowsTheScore) {
  const auto csv = Run("issues --sort score --limit 0 --format csv --kind all");
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  const auto records = ParseCsv(csv.output);
  ASSERT_GT(records.size(), 3u);
  const size_t score = std::find(records[0].begin(), records[0].end(), "score") - records[0].begin();
  ASSERT_LT(score, records[0].size());
  const auto table = Run("issues --sort score --limit 0 --kind all");
  ASSERT_EQ(table.exit_code, 0) << table.output;
  const std::vector<std::string> lines = Lines(table.output);
  ASSERT_GE(lines.size(), records.size() + 1);
  EXPECT_NE(lines[0].find("  score"), std::string::npos) << lines[0];
  for (size_t i = 1; i < records.size(); ++i) {
    // The data rows follow the header and its rule line; the score is a cell of its own (the
    // last when the facets give way).
    const std::string& line = lines[i + 1];
    const std::string cell = "  " + records[i][score];
    const size_t at = line.find(cell + "  ");
    EXPECT_TRUE(at != std::string::npos || line.ends_with(cell)) << i << ": " << records[i][score] << "\n" << line;
  }
  const auto by_date = Run("issues --limit 0 --kind all");
  EXPECT_EQ(Lines(by_date.output)[0].find("score"), std::string::npos) << by_date.output;
}

//! The opener's account type (the archive's `user.type`): `--author-type Bot` lists the bots'
//! reports (dependency bumps, sync bots), `--author-type User` leaves them out, and every export
//! has the column.
TEST_F(IssuesCliTest, AuthorTypeSelectsBotsOrLeavesThemOut) {
  const auto all = Run("issues --limit 0 --kind all --format jsonl");
  const auto bots = Run("issues --limit 0 --kind all --format jsonl --author-type bot");
  const auto users = Run("issues --limit 0 --kind all --format jsonl --author-type User");
  ASSERT_EQ(bots.exit_code, 0) << bots.output;
  ASSERT_EQ(users.exit_code, 0) << users.output;
  EXPECT_EQ(Count(bots.output, "\"author_type\": \"Bot\""), 2u) << bots.output;
  EXPECT_EQ(Count(bots.output, "\n"), 2u);
  EXPECT_NE(bots.output.find("\"author\": \"dependabot[bot]\", \"association\": \"NONE\", \"author_type\": \"Bot\""),
            std::string::npos)
      << bots.output;
  EXPECT_EQ(Count(users.output, "[bot]\""), 0u);
  EXPECT_EQ(Count(users.output, "\"author_type\": \"User\""), Count(users.output, "\n"));
  EXPECT_EQ(Count(users.output, "\n") + 2, Count(all.output, "\n"));
  const auto wrong = Run("issues --author_type Bot");
  EXPECT_EQ(wrong.exit_code, 2) << wrong.output;
}

}  // namespace
}  // namespace ghsift
