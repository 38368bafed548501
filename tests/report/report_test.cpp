// The report from a generated corpus: one bar per query row in every chart, CSV tables equal to
// the output of the `ghsift query` commands shown next to them, and `ghsift sample` output that
// `ghsift rules eval` accepts.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/time_util.hpp"
#include "eval/evaluation.hpp"
#include "pipelines/input_files.hpp"
#include "report/html_report.hpp"
#include "report/report_builder.hpp"
#include "rules/rule_set.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::ReadText;

namespace fs = std::filesystem;

std::string DefaultRules() { return std::string(GHSIFT_SOURCE_DIR) + "/rules"; }

size_t Count(std::string_view text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

//! The <svg> of one chart ("" when absent).
std::string ChartOf(const std::string& html, const std::string& id) {
  const size_t at = html.find("<svg class=\"chart\" data-table=\"" + id + "\"");
  if (at == std::string::npos) return "";
  return html.substr(at, html.find("</svg>", at) - at);
}

class ReportTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    testing::Generate(*dir_ / "corpus", 4, 3000, 77, "gz");
    auto files = ResolveInputs({*dir_ / "corpus"});
    ASSERT_TRUE(files.ok());
    testing::IngestFiles(store(), *files, DefaultRules());
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string store() { return *dir_ / "store"; }

  static Report Build(ReportOptions options) {
    options.store_path = store();
    auto s = Store::Open(store(), StoreMode::kRead);
    EXPECT_TRUE(s.ok());
    auto report = BuildReport(**s, options);
    EXPECT_TRUE(report.ok()) << report.status().message();
    return std::move(report).value();
  }

  static testing::TempDir* dir_;
};

testing::TempDir* ReportTest::dir_ = nullptr;

TEST_F(ReportTest, OneBarPerQueryRow) {
  const Report report = Build({});
  const std::string html = RenderHtml(report);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://www.w3.org/2000/svg\"") != std::string::npos, true);
  EXPECT_EQ(Count(html, "https://"), 0u) << "nothing is loaded from the network";
  auto s = Store::Open(store(), StoreMode::kRead);
  ASSERT_TRUE(s.ok());
  size_t charts = 0, bars = 0;
  for (const ReportSection& section : report.sections) {
    for (const ReportTable& t : section.tables) {
      // An independent run of the same query.
      auto expected = RunQuery(**s, t.query);
      ASSERT_TRUE(expected.ok());
      EXPECT_EQ(t.table.rows, expected->rows) << t.id;
      EXPECT_EQ(html.find("<code>" + t.command.substr(0, 20)) != std::string::npos, true) << t.id;
      const std::string svg = ChartOf(html, t.id);
      if (t.chart == ChartKind::kNone) {
        EXPECT_EQ(svg, "") << t.id;
        continue;
      }
      ASSERT_NE(svg, "") << t.id;
      ++charts;
      const size_t rows = expected->rows.size();
      if (t.chart == ChartKind::kBars) {
        const size_t want = t.id.rfind("labels_", 0) == 0 ? std::min<size_t>(rows, 15)
                            : t.id == "overview"             ? std::min<size_t>(rows, 40)
                                                             : rows;
        EXPECT_EQ(Count(svg, "<rect"), want) << t.id;
        bars += want;
      } else {
        EXPECT_EQ(Count(svg, "<circle"), rows) << t.id;
        EXPECT_EQ(Count(svg, "<rect"), 0u) << t.id;
      }
    }
  }
  // Seven charts for each problem category (subcategories, verdicts, resolution, time to close,
  // median days to close, monthly, labels), the overview and the two facets.
  EXPECT_EQ(charts, 1u + 7u * 3u + 2u);
  EXPECT_GT(bars, 50u) << "the corpus should flag enough reports to draw";
  EXPECT_EQ(Count(html, "<rect"), bars);
}

TEST_F(ReportTest, TablesEqualTheShownQueryCommands) {
  ReportOptions options;
  options.from_month = 0;  // month index 0 (year 0): every report, and --from shows in the commands
  for (bool filtered : {false, true}) {
    if (filtered) options.repos = {"keras-team/keras", "pytorch/pytorch"};
    const Report report = Build(options);
    testing::TempDir out;
    ASSERT_TRUE(WriteReportFiles(report, out.path()).ok());
    ASSERT_TRUE(fs::exists(out / "index.html"));
    ASSERT_TRUE(fs::exists(out / "report.md"));
    size_t tables = 0;
    for (const ReportSection& section : report.sections) {
      for (const ReportTable& t : section.tables) {
        ++tables;
        ASSERT_EQ(t.command.rfind("ghsift query ", 0), 0u);
        EXPECT_NE(t.command.find("--from 0000-01"), std::string::npos);
        // Its standard output only: a note on stderr (no closed reports match) is no row.
        const auto r = testing::RunCommand("(" + testing::Ghsift() + t.command.substr(6) + " 2>/dev/null)");
        ASSERT_EQ(r.exit_code, 0) << t.command << "\n" << r.output;
        const std::string csv = ReadText(out / ("tables/" + t.id + ".csv"));
        // With --repos every table, with a repo column or not, selects those repos' reports: its
        // command says --repo, and the table is the command's output.
        EXPECT_EQ(t.command.find("--repo keras-team/keras,pytorch/pytorch") != std::string::npos, filtered)
            << t.command;
        EXPECT_EQ(csv, r.output) << t.command;
        if (filtered) {
          EXPECT_NE(ReadText(out / "report.md").find(t.command), std::string::npos);
        }
      }
    }
    // The overview, seven tables for each problem category, the two facets, and the months.
    EXPECT_EQ(tables, 1u + 7u * 3u + 2u + 1u);
  }
}

//! Fills `class` of a sampled CSV: row i gets i % 2 == 0 ? 1 : 0.
std::string Labeled(const std::string& csv, std::vector<int>* labels) {
  const auto records = ParseCsv(csv);
  std::string out;
  auto field = [](const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  const auto& header = records[0];
  const size_t cls = std::find(header.begin(), header.end(), "class") - header.begin();
  for (size_t r = 0; r < records.size(); ++r) {
    std::vector<std::string> rec = records[r];
    if (r > 0) {
      labels->push_back(r % 2);
      rec[cls] = std::to_string(r % 2);
    }
    for (size_t c = 0; c < rec.size(); ++c) {
      if (c > 0) out += ',';
      out += field(rec[c]);
    }
    out += "\n";
  }
  return out;
}

TEST_F(ReportTest, SampleIsAcceptedByRulesEval) {
  testing::TempDir work;
  const std::string base = testing::Ghsift() + " sample --store '" + store() + "' --category performance,accuracy";
  auto r = testing::RunCommand(base + " --stratify repo --n 40 --seed 5 --format csv --out " + (work / "a.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("sample 40 (fixed --n 40)"), std::string::npos) << r.output;
  r = testing::RunCommand(base + " --stratify repo --n 40 --seed 5 --format csv --out " + (work / "b.csv"));
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(ReadText(work / "a.csv"), ReadText(work / "b.csv")) << "same seed, same rows";
  r = testing::RunCommand(base + " --stratify repo --n 40 --seed 6 --format csv --out " + (work / "c.csv"));
  EXPECT_NE(ReadText(work / "a.csv"), ReadText(work / "c.csv"));

  const std::string csv = ReadText(work / "a.csv");
  ASSERT_EQ(csv.rfind(testing::CsvHeaderLine(testing::WithExportedColumns(
                          {"Repository", "Number", "State", "Title", "Body", "Labels", "Comments", "Codes", "Review",
                           "class", "url", "categories", "verdict", "stratum", "also_flagged", "notes"})),
                      0),
            0u);
  std::vector<int> labels;
  std::ofstream(work / "labeled.csv") << Labeled(csv, &labels);
  ASSERT_EQ(labels.size(), 40u);

  // `rules eval` judges the text the CSV holds: title, body, labels and comments, the latest
  // text the store keeps of each flagged report. The expected confusion is computed row by row
  // from the same rules on the same text.
  auto rules = LoadRuleSet(DefaultRules());
  ASSERT_TRUE(rules.ok());
  auto db = RuleDatabase::Compile(*rules);
  ASSERT_TRUE(db.ok());
  const auto records = ParseCsv(csv);
  const auto column = [&](const std::string& name) {
    return static_cast<size_t>(std::find(records[0].begin(), records[0].end(), name) - records[0].begin());
  };
  std::vector<LabeledReport> reports;
  size_t with_body = 0;
  for (size_t i = 1; i < records.size(); ++i) {
    if (records[i].size() != records[0].size()) continue;  // the parser's empty record after the last newline
    LabeledReport report;
    report.text.Add(Field::kTitle, records[i][column("Title")]);
    report.text.Add(Field::kBody, records[i][column("Body")]);
    with_body += !report.text[Field::kBody].empty();
    report.text[Field::kLabel] = ParsePythonStringList(records[i][column("Labels")]);  // a list: each label whole
    report.text[Field::kComment] = ParsePythonStringList(records[i][column("Comments")]);
    reports.push_back(report);
    EXPECT_TRUE(records[i][2] == "open" || records[i][2] == "closed") << records[i][2];
    const std::string& categories = records[i][column("categories")];
    EXPECT_TRUE(categories == "performance" || categories == "accuracy" || categories == "accuracy;performance")
        << categories;
    EXPECT_EQ(records[i][column("stratum")], records[i][0]) << "stratified by repo";
  }
  ASSERT_EQ(reports.size(), 40u);
  EXPECT_GT(with_body * 2, reports.size()) << "the store keeps the bodies of flagged reports";
  const auto verdicts = JudgeReports(*db, reports);
  int64_t tp = 0, fp = 0, fn = 0, tn = 0;
  for (size_t i = 0; i < labels.size(); ++i) {
    const auto& c = verdicts[i].categories;
    const bool predicted = std::count(c.begin(), c.end(), "performance") + std::count(c.begin(), c.end(), "accuracy");
    EXPECT_TRUE(predicted) << "row " << i + 1 << " was sampled as flagged: " << reports[i].text.First(Field::kTitle);
    (predicted ? (labels[i] ? tp : fp) : (labels[i] ? fn : tn)) += 1;
  }
  r = testing::RunCommand(testing::Ghsift() + " rules eval --labels " + (work / "labeled.csv") +
                          " --positive performance,accuracy --format json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const std::string& key : {"\"tp\": " + std::to_string(tp) + ",", "\"fp\": " + std::to_string(fp) + ",",
                                "\"fn\": " + std::to_string(fn) + ",", "\"tn\": " + std::to_string(tn) + ",",
                                std::string("\"reports\": 40,")}) {
    EXPECT_NE(r.output.find(key), std::string::npos) << key << "\n" << r.output;
  }

  // JSONL: `class` null means not labeled yet; a file with no label at all is refused.
  r = testing::RunCommand(base + " --seed 5 --format jsonl --out " + (work / "s.jsonl"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("(Cochran, 95% confidence, 5% margin"), std::string::npos) << r.output;
  std::string jsonl = ReadText(work / "s.jsonl");
  ASSERT_NE(jsonl.find("\", \"body\": \""), std::string::npos);
  ASSERT_NE(jsonl.find("], \"comments\": ["), std::string::npos);
  const size_t rows = Count(jsonl, "\n");
  ASSERT_EQ(Count(jsonl, "\"class\": null}"), rows);
  r = testing::RunCommand(testing::Ghsift() + " rules eval --labels " + (work / "s.jsonl") + " --format json");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no usable label: the key 'class' is null"), std::string::npos) << r.output;
  // One row labeled is enough to score that row; the others are left out of every figure, and
  // said so with their lines.
  jsonl.replace(jsonl.find("\"class\": null}"), 14, "\"class\": 1}");
  std::ofstream(work / "one.jsonl") << jsonl;
  r = testing::RunCommand(testing::Ghsift() + " rules eval --labels " + (work / "one.jsonl") + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\"reports\": 1,"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("one.jsonl: " + std::to_string(rows - 1) + " of " + std::to_string(rows) +
                          " records have no label (lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, ...): left out"),
            std::string::npos)
      << r.output;

  // --n excludes --confidence/--margin.
  r = testing::RunCommand(base + " --n 5 --confidence 0.9 --seed 1 --format csv");
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

}  // namespace
}  // namespace ghsift

namespace ghsift {
namespace {

// A reversed range and a mistyped repository are errors, as in query: a report of empty
// sections whose own query commands then fail helps no one.
TEST(ReportOptionsTest, ReversedRangeAndUnknownRepositoryAreErrors) {
  testing::TempDir dir;
  testing::Generate(dir / "corpus", 1, 500, 3, "gz");
  auto files = ResolveInputs({dir / "corpus"});
  ASSERT_TRUE(files.ok());
  testing::IngestFiles(dir / "store", *files, DefaultRules());
  auto store = Store::Open(dir / "store", StoreMode::kRead);
  ASSERT_TRUE(store.ok());
  ReportOptions reversed;
  reversed.from_month = ParseMonth("2024-02");
  reversed.to_month = ParseMonth("2024-01");
  auto r = BuildReport(**store, reversed);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "empty range: --from 2024-02 is after --to 2024-01");
  ReportOptions one_month;
  one_month.from_month = one_month.to_month = ParseMonth("2024-01");
  EXPECT_TRUE(BuildReport(**store, one_month).ok());
  ReportOptions typo;
  typo.repos = {"tensorflow/tensorflw"};
  r = BuildReport(**store, typo);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("--repo: repository 'tensorflow/tensorflw' is not in the store under this or "
                                       "any former name (did you mean tensorflow/tensorflow?)",
                                       0),
            0u)
      << r.status().message();
}

// `--out` naming a file: the message names the option and what is in the way, not the system's
// "Not a directory" alone.
TEST(ReportOptionsTest, AnOutPathThatIsAFileIsNamed) {
  testing::TempDir dir;
  std::ofstream(dir / "afile") << "x";
  const Report empty;
  const auto written = WriteReportFiles(empty, dir / "afile");
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.status().message(), "--out " + (dir / "afile") +
                                            ": a file of that name is in the way; the report is a directory "
                                            "(index.html, report.md, tables/)");
}

}  // namespace
}  // namespace ghsift
