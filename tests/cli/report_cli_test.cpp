// What `ghsift report` says on the terminal beside writing its pages: a report whose every table
// is empty (a range or repository that matches no report) says so, with the query that shows the
// months the store's reports were created in, so that a mistyped range is not taken for a finding.
#include <gtest/gtest.h>

#include <fstream>

#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;

class ReportCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    const std::string hour = *dir_ / "2016-05-01-0.json";
    std::ofstream(hour)
        << R"({"id":"1","type":"IssuesEvent","actor":{"id":1,"login":"u"},"repo":{"id":6,"name":"o/s"},)"
           R"("payload":{"action":"opened","issue":{"number":1,"title":"slow training","body":"words",)"
           R"("state":"open","labels":[],"created_at":"2016-05-01T00:00:00Z","closed_at":null}},"public":true,)"
           R"("created_at":"2016-05-01T00:00:00Z"})"
        << "\n";
    std::ofstream(*dir_ / "rules.yaml") << "rules:\n  - {id: p.slow, tag: performance/speed, pattern: slow}\n";
    for (const auto& o : testing::IngestFiles(*dir_ / "store", {hour}, *dir_ / "rules.yaml")) {
      ASSERT_EQ(o.result, FileResult::kIngested) << o.message;
    }
    for (const auto& o : testing::IngestFiles(*dir_ / "empty", {}, *dir_ / "rules.yaml")) {
      ASSERT_EQ(o.result, FileResult::kIngested) << o.message;
    }
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static testing::CommandResult Report(const std::string& store, const std::string& extra) {
    return RunCommand(Ghsift() + " report --store " + (*dir_ / store) + " --out " + (*dir_ / "out") + " " + extra);
  }
  static TempDir* dir_;
};

TempDir* ReportCliTest::dir_ = nullptr;

TEST_F(ReportCliTest, AReportOfNoMatchingReportSaysItsTablesAreEmpty) {
  const auto outside = Report("store", "--from 2030-01");
  EXPECT_EQ(outside.exit_code, 0) << outside.output;
  EXPECT_NE(outside.output.find("ghsift: note: every table is empty: no report of the store matches --from 2030-01 "
                                "(`ghsift query --store " + (*dir_ / "store") +
                                " --by month --format csv` lists the months its reports were created in)\n"),
            std::string::npos)
      << outside.output;
  const auto within = Report("store", "--from 2016-05 --to 2016-05");
  EXPECT_EQ(within.exit_code, 0) << within.output;
  EXPECT_EQ(within.output.find("every table is empty"), std::string::npos) << within.output;
  const auto empty = Report("empty", "");
  EXPECT_EQ(empty.exit_code, 0) << empty.output;
  EXPECT_NE(empty.output.find("ghsift: note: every table is empty: the store holds no report\n"), std::string::npos)
      << empty.output;
}

}  // namespace
}  // namespace ghsift
