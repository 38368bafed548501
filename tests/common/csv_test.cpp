// CSV cells as ghsift writes them (common/csv.hpp): RFC 4180 quoting, and a cell a spreadsheet
// would run as a formula written as text with a leading apostrophe, which ghsift's reader takes
// off again; numbers, signed ones too, are left as they are.
#include "common/csv.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eval/labeled_report.hpp"

namespace ghsift {
namespace {

TEST(CsvTest, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(CsvField("plain"), "plain");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField(""), "");
}

TEST(CsvTest, AFormulaIsWrittenAsText) {
  EXPECT_EQ(CsvField("=1+2"), "'=1+2");
  EXPECT_EQ(CsvField("+x"), "'+x");
  EXPECT_EQ(CsvField("-x"), "'-x");
  EXPECT_EQ(CsvField("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(CsvField("\tx"), "'\tx");
  EXPECT_EQ(CsvField("\rx"), "\"'\rx\"");
  EXPECT_EQ(CsvField("=A1,B1"), "\"'=A1,B1\"");
  EXPECT_EQ(CsvField("-"), "'-");
  EXPECT_EQ(CsvField("'=x"), "''=x");  // an apostrophe of its own survives the reader
  EXPECT_EQ(CsvField("a=b"), "a=b");
  EXPECT_EQ(CsvField("'quoted'"), "'quoted'");
}

TEST(CsvTest, NumbersStayNumbers) {
  for (const char* number : {"-1", "+2", "-0.25", "1e-5", "-3.5E+2", "0"}) EXPECT_EQ(CsvField(number), number);
  EXPECT_EQ(CsvField("-1x"), "'-1x");
  EXPECT_EQ(CsvField("-1."), "'-1.");
  EXPECT_EQ(CsvField("-inf"), "'-inf");
}

TEST(CsvTest, EveryCellReadsBackAsItWas) {
  const std::vector<std::string> cells = {"=1+2", "'=x", "''-y", "'", "''", "-1", "-", "+", "@", "a,b", "'plain",
                                          "=\"q\",\n2", "\tz", "", "x"};
  std::string line;
  for (size_t i = 0; i < cells.size(); ++i) line += (i ? "," : "") + CsvField(cells[i]);
  const auto records = ParseCsv(line + "\n");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0], cells);
}

}  // namespace
}  // namespace ghsift
