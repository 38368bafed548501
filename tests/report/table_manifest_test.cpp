// A report re-run into the same --out leaves tables/ holding that run's tables only: the tables an
// earlier report wrote and this one does not (a category the store's rules no longer have) are
// removed, and every other file there (a person's notes, a directory) stays; a .csv there that is
// not this run's is named on stderr.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "report/html_report.hpp"
#include "report/report_builder.hpp"
#include "report/table_manifest.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;
using testing::ReadText;
using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;

//! Every file name under `dir` (not recursing).
std::set<std::string> Names(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename().string());
  return names;
}

class TableManifestTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    const std::string hour = *dir_ / "2016-05-01-0.json";
    std::ofstream(hour)
        << R"({"id":"1","type":"IssuesEvent","actor":{"id":1,"login":"u"},"repo":{"id":6,"name":"o/s"},)"
           R"("payload":{"action":"opened","issue":{"number":1,"title":"slow and wrong accuracy","body":"words",)"
           R"("state":"open","labels":[],"created_at":"2016-05-01T00:00:00Z","closed_at":null}},"public":true,)"
           R"("created_at":"2016-05-01T00:00:00Z"})"
        << "\n";
    // Two stores of the same hour: one ruled for performance and accuracy, one for performance alone.
    std::ofstream(*dir_ / "both.yaml") << "rules:\n  - {id: p.slow, tag: performance/speed, pattern: slow}\n"
                                          "  - {id: a.acc, tag: accuracy/low, pattern: accuracy}\n";
    std::ofstream(*dir_ / "perf.yaml") << "rules:\n  - {id: p.slow, tag: performance/speed, pattern: slow}\n";
    for (const char* name : {"both", "perf"}) {
      for (const auto& o : testing::IngestFiles(*dir_ / name, {hour}, *dir_ / (std::string(name) + ".yaml"))) {
        ASSERT_EQ(o.result, FileResult::kIngested) << o.message;
      }
    }
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static TempDir* dir_;
};

TempDir* TableManifestTest::dir_ = nullptr;

const std::set<std::string> kPerformanceTables = {
    "days_to_close_performance.csv", "labels_performance.csv",      "monthly.csv",
    "monthly_performance.csv",       "overview.csv",                "performance_subcategories.csv",
    "resolution_performance.csv",    "time_to_close_performance.csv", "verdict_performance.csv"};

TEST_F(TableManifestTest, ARerunLeavesOneRunsTablesAndNothingElseTouched) {
  const std::string out = *dir_ / "out";
  auto r = RunCommand(Ghsift() + " report --store " + (*dir_ / "both") + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "ghsift: wrote " + out + "/index.html, " + out + "/report.md and 16 tables in " + out +
                          "/tables\n");
  const std::string tables = out + "/tables";
  EXPECT_TRUE(fs::exists(tables + "/verdict_accuracy.csv"));
  // A person's files in tables/: kept whatever their names.
  std::ofstream(tables + "/notes.csv") << "mine\n";
  std::ofstream(tables + "/README") << "mine\n";
  fs::create_directory(tables + "/old.csv");

  r = RunCommand(Ghsift() + " report --store " + (*dir_ / "perf") + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // Before: the 7 accuracy tables of the first run stayed beside the 9 of this one, unsaid.
  EXPECT_EQ(r.output, "ghsift: wrote " + out + "/index.html, " + out + "/report.md and 9 tables in " + out +
                          "/tables; removed 7 tables an earlier report wrote there and this one does not\n"
                          "ghsift: note: 1 .csv file in " + out + "/tables is not this report's (no report "
                          "recorded writing it: left as it is): notes.csv\n");
  std::set<std::string> want = kPerformanceTables;
  want.insert({".ghsift-tables", "notes.csv", "README", "old.csv"});
  EXPECT_EQ(Names(tables), want);
  auto recorded = ReadTableManifest(tables);
  ASSERT_TRUE(recorded.ok());
  EXPECT_EQ(*recorded, kPerformanceTables);

  // The same report again removes nothing and says nothing of it; the person's table is named again.
  r = RunCommand(Ghsift() + " report --store " + (*dir_ / "perf") + " --out " + out);
  EXPECT_EQ(r.output, "ghsift: wrote " + out + "/index.html, " + out + "/report.md and 9 tables in " + out +
                          "/tables\nghsift: note: 1 .csv file in " + out + "/tables is not this report's (no "
                          "report recorded writing it: left as it is): notes.csv\n");
  EXPECT_EQ(Names(tables), want);
}

// A tables/ with no record (written before reports kept one, or its record deleted) may hold an
// earlier run's tables that no record names: they cannot be told from a person's files, so they
// stay, but the run names them, so that no one takes an old table for one of this run's.
TEST_F(TableManifestTest, TablesNoRecordNamesAreNamedNotRemoved) {
  const std::string out = *dir_ / "unrecorded";
  auto r = RunCommand(Ghsift() + " report --store " + (*dir_ / "both") + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string tables = out + "/tables";
  fs::remove(tables + "/.ghsift-tables");
  fs::create_directory(tables + "/old.csv");  // a directory: no table
  std::ofstream(tables + "/README") << "mine\n";  // no .csv: no table

  r = RunCommand(Ghsift() + " report --store " + (*dir_ / "perf") + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // Before: the 7 accuracy tables stayed beside the 9 new ones and the run said nothing of them.
  EXPECT_EQ(r.output, "ghsift: wrote " + out + "/index.html, " + out + "/report.md and 9 tables in " + out +
                          "/tables\n"
                          "ghsift: note: 7 .csv files in " + out + "/tables are not this report's (no report "
                          "recorded writing them: left as they are): accuracy_subcategories.csv, "
                          "days_to_close_accuracy.csv, labels_accuracy.csv, monthly_accuracy.csv, "
                          "resolution_accuracy.csv, time_to_close_accuracy.csv, verdict_accuracy.csv\n");
  EXPECT_TRUE(fs::exists(tables + "/verdict_accuracy.csv"));
  // The same report again names them again: they are still not its tables.
  r = RunCommand(Ghsift() + " report --store " + (*dir_ / "perf") + " --out " + out);
  EXPECT_NE(r.output.find("ghsift: note: 7 .csv files in "), std::string::npos) << r.output;
  // Once gone, nothing is said.
  for (const auto& entry : fs::directory_iterator(tables)) {
    if (entry.path().filename().string().find("accuracy") != std::string::npos) fs::remove(entry.path());
  }
  r = RunCommand(Ghsift() + " report --store " + (*dir_ / "perf") + " --out " + out);
  EXPECT_EQ(r.output, "ghsift: wrote " + out + "/index.html, " + out + "/report.md and 9 tables in " + out +
                          "/tables\n");
}

// A run that fails part-way leaves the earlier report's pages as they were: the tables are written
// first and the pages last, each file whole or not at all (a temporary renamed over it), so new
// pages never sit over old tables. Before: index.html and report.md were written first, so a
// failing table left the new pages describing tables of the earlier run.
TEST_F(TableManifestTest, AFailedRunLeavesTheEarlierPagesWhole) {
  const std::string out = *dir_ / "failing";
  auto r = RunCommand(Ghsift() + " report --store " + (*dir_ / "both") + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string before_html = ReadText(out + "/index.html");
  const std::string before_md = ReadText(out + "/report.md");
  // A table this run must write cannot be: its name is taken by a directory.
  const std::string blocked = out + "/tables/verdict_performance.csv";
  fs::remove(blocked);
  fs::create_directories(blocked + "/inside");
  r = RunCommand(Ghsift() + " report --store " + (*dir_ / "perf") + " --out " + out);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  // (Compared whole, said briefly: the pages are long.)
  EXPECT_TRUE(ReadText(out + "/index.html") == before_html) << "index.html is not the earlier run's";
  EXPECT_TRUE(ReadText(out + "/report.md") == before_md) << "report.md is not the earlier run's";
  EXPECT_EQ(r.output, "ghsift: " + blocked + ": cannot replace: Is a directory\n");
  std::set<std::string> left;  // no temporary stays behind
  for (const auto& entry : fs::recursive_directory_iterator(out)) {
    if (entry.path().filename().string().ends_with(".tmp")) left.insert(entry.path().string());
  }
  EXPECT_EQ(left, std::set<std::string>{});
}

// The record is read as untrusted: a line that is no table's file name never leads outside tables/.
TEST_F(TableManifestTest, AnEditedRecordRemovesNothingOutsideTables) {
  const std::string out = *dir_ / "edited";
  fs::create_directories(out + "/tables");
  std::ofstream(out + "/keep.csv") << "mine\n";
  std::ofstream(out + "/tables/.ghsift-tables") << "../keep.csv\n.hidden.csv\n/etc/x.csv\nstale.csv\n";
  std::ofstream(out + "/tables/stale.csv") << "old\n";
  auto s = Store::Open(*dir_ / "perf", StoreMode::kRead);
  ASSERT_TRUE(s.ok());
  ReportOptions options;
  options.store_path = *dir_ / "perf";
  auto report = BuildReport(**s, options);
  ASSERT_TRUE(report.ok()) << report.status().message();
  auto written = WriteReportFiles(*report, out);
  ASSERT_TRUE(written.ok()) << written.status().message();
  EXPECT_EQ(written->removed, 1u);
  EXPECT_EQ(written->others, std::vector<std::string>{});
  EXPECT_TRUE(fs::exists(out + "/keep.csv"));
  EXPECT_FALSE(fs::exists(out + "/tables/stale.csv"));
  EXPECT_FALSE(IsTableFileName("../keep.csv"));
  EXPECT_FALSE(IsTableFileName(".hidden.csv"));
  EXPECT_FALSE(IsTableFileName("/etc/x.csv"));
  EXPECT_TRUE(IsTableFileName("verdict_performance.csv"));
}

}  // namespace
}  // namespace ghsift
