// What `ghsift report` says on the terminal beside writing its pages: a report whose every table
// is empty (a range or repository that matches no report) says so, with the query that shows the
// months the store's reports were created in, so that a mistyped range is not taken for a finding.
#include <gtest/gtest.h>

#include <fstream>

#include "test_support.hpp"

namespace ghsift::testing {
namespace {

TEST(ReportCliTest, AReportOfNoMatchingReportSaysItsTablesAreEmpty) {
  const OneHourStore store("2024-03-05-14.json",
                           OpenedIssueRecord(R"("Training is 10x slower after the upgrade")", R"("words")", R"("bug")") +
                               "\n");
  const auto outside = store.Run("report --out " + (store / "out") + " --from 2030-01");
  EXPECT_EQ(outside.exit_code, 0) << outside.output;
  EXPECT_NE(outside.output.find("ghsift: note: every table is empty: no report of the store matches --from 2030-01 "
                                "(`ghsift query --store " + store.Store() +
                                " --by month --format csv` lists the months its reports were created in)\n"),
            std::string::npos)
      << outside.output;
  const auto within = store.Run("report --out " + (store / "out") + " --from 2024-03 --to 2024-03");
  EXPECT_EQ(within.exit_code, 0) << within.output;
  EXPECT_EQ(within.output.find("every table is empty"), std::string::npos) << within.output;
  const OneHourStore empty("2024-03-05-15.json", "");
  const auto none = empty.Run("report --out " + (empty / "out"));
  EXPECT_EQ(none.exit_code, 0) << none.output;
  EXPECT_NE(none.output.find("ghsift: note: every table is empty: the store holds no report\n"), std::string::npos)
      << none.output;
}

// The page states the files that failed when ingested (nothing of them counted), not only a note
// on stderr: "Covers 1 ingested hours ..., none missing in between" was all it said of a store
// whose last hour had failed, after its last ingested one.
TEST(ReportCliTest, TheHeadSaysWhichFilesFailed) {
  const OneHourStore store("2024-03-05-14.json",
                           OpenedIssueRecord(R"("Training is 10x slower after the upgrade")", R"("words")", R"("bug")") +
                               "\n");
  const std::string hours = store / "hours";
  ASSERT_EQ(RunCommand("mkdir " + hours + " && cp " + store.Hour() + " " + hours + "/2024-03-05-18.json && gzip " +
                       hours + "/2024-03-05-18.json && truncate -s 40 " + hours + "/2024-03-05-18.json.gz")
                .exit_code,
            0);
  auto r = store.Run("ingest -q " + hours);
  ASSERT_EQ(r.exit_code, 2) << r.output;
  const auto head = [&](const std::string& options) {
    const std::string out = store / "report";
    const auto run = store.Run("report --out " + out + options);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    const std::string md = ReadText(out + "/report.md");
    size_t at = md.find("\nCovers ");
    if (at == std::string::npos) at = md.find("\nNo hourly dump");
    const std::string line = at == std::string::npos ? "" : md.substr(at + 1, md.find('\n', at + 1) - at - 1);
    const std::string html = ReadText(out + "/index.html");
    EXPECT_NE(html.find(line.substr(0, line.find("; rule set"))), std::string::npos) << html.substr(0, 2000);
    return line.substr(0, line.find("; rule set"));
  };
  EXPECT_EQ(head(""),
            "Covers 1 ingested hour from 2024-03-05-14 to 2024-03-05-14 (UTC), none missing in between; 1 file failed "
            "when ingested and is not counted (2024-03-05-18.json.gz; `ghsift stats --coverage` lists it)");
  // Within the months asked for only.
  EXPECT_EQ(head(" --from 2024-04 --to 2024-04"), "No hourly dump ingested within --from 2024-04 --to 2024-04");
  // A good copy clears it.
  RunCommand("rm " + hours + "/2024-03-05-18.json.gz");
  std::ofstream(hours + "/2024-03-05-18.json")
      << OpenedIssueRecord(R"("Inference is 10x slower on GPU")", R"("words")", R"("bug")") << "\n";
  ASSERT_EQ(RunCommand("gzip " + hours + "/2024-03-05-18.json").exit_code, 0);
  r = store.Run("ingest -q " + hours);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(head(""),
            "Covers 2 ingested hours of the 5 from 2024-03-05-14 to 2024-03-05-18 (UTC); 3 hours missing in between "
            "(first 2024-03-05-15; `ghsift stats --coverage` lists them)");
}

// `report --kind pr` counts pull requests (fix pull requests are studied as reports too): its head
// says so, every shown command carries the kind, and each table is what that command prints.
TEST(ReportCliTest, KindChoosesTheReportsCounted) {
  TempDir dir;
  const std::string store = dir / "store";
  auto r = RunCommand(Ghsift() + " ingest -q --store " + store + " " + GHSIFT_SOURCE_DIR + "/tests/data/sample");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::pair<std::string, std::string> kinds[] = {
      {"issue", "Issues only (not pull requests)"}, {"pr", "Pull requests only (not issues)"},
      {"all", "Issues and pull requests"}};
  std::string previous;
  for (const auto& [kind, sentence] : kinds) {
    const std::string out = dir / ("report-" + kind);
    r = RunCommand(Ghsift() + " report --store " + store + " --out " + out + " --kind " + kind);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::string md = ReadText(out + "/report.md");
    EXPECT_NE(md.find("; all frameworks in the store. " + sentence + ". Every number"), std::string::npos)
        << md.substr(0, 400);
    EXPECT_NE(ReadText(out + "/index.html").find(". " + sentence + ". Every number"), std::string::npos);
    const std::string shown = "ghsift query --store " + store + " --by repo,category" +
                              (kind == "issue" ? "" : " --kind " + kind) + " --format csv";
    EXPECT_NE(md.find(shown), std::string::npos) << kind;
    const auto query = RunCommand(Ghsift() + " query --store " + store + " --by repo,category --kind " + kind +
                                  " --format csv 2>/dev/null");
    ASSERT_EQ(query.exit_code, 0) << query.output;
    EXPECT_EQ(ReadText(out + "/tables/overview.csv"), query.output) << kind;
    EXPECT_NE(query.output, previous) << kind << ": the kinds count different reports";
    previous = query.output;
  }
  r = RunCommand(Ghsift() + " report --store " + store + " --out " + (dir / "x") + " --kind prs");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--kind: must be issue, pr or all, not 'prs'"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace ghsift::testing
