// Charts of the HTML report: legends are never cut, medians show the n they rest on, and the
// page states the hours and rule set behind it (issue 14).
#include <gtest/gtest.h>

#include "report/html_report.hpp"
#include "report/report_builder.hpp"

namespace ghsift {
namespace {

ReportTable LineTable() {
  ReportTable t;
  t.id = "monthly_performance";
  t.title = "Monthly performance reports";
  t.query.dimensions = {"repo", "month"};
  t.query.category = "performance";
  t.chart = ChartKind::kLines;
  t.table.columns = {"repo", "month", "issues"};
  t.table.rows = {{"huggingface/transformers-very-long-name", "2024-01"}, {"b/two", "2024-02"}};
  t.table.counts = {3, 4};
  t.drawn = {0, 1};
  return t;
}

ReportTable MedianTable() {
  ReportTable t;
  t.id = "days_to_close_performance";
  t.title = "Median days to close";
  t.query.dimensions = {"repo"};
  t.query.category = "performance";
  t.query.metric = Metric::kMedianDaysToClose;
  t.table.columns = {"repo", "median_days_to_close"};
  t.table.rows = {{"b/two"}};
  t.table.counts = {3};
  t.table.values = {12.5};
  t.drawn = {0};
  return t;
}

TEST(HtmlChartTest, LegendKeepsWholeNamesAndChartWidens) {
  Report report;
  report.coverage_text = "Covers 6 ingested hours from 2024-03-05-14 to 2024-03-05-19 (UTC), none missing";
  report.sections.push_back({"Over time", "", {LineTable(), MedianTable()}});
  const std::string html = RenderHtml(report);
  EXPECT_NE(html.find(">huggingface/transformers-very-long-name</text>"), std::string::npos);
  EXPECT_EQ(html.find("\u2026"), std::string::npos);  // nothing cut with an ellipsis
  // 540 + 34 + 39 characters * 7 + 10 = 857 pixels.
  EXPECT_NE(html.find("data-table=\"monthly_performance\" xmlns=\"http://www.w3.org/2000/svg\" width=\"857\""),
            std::string::npos);
  EXPECT_NE(html.find(">12.5 (n=3)</text>"), std::string::npos);
  EXPECT_NE(html.find("<p class=\"meta\" id=\"coverage\">Covers 6 ingested hours from 2024-03-05-14 to "
                      "2024-03-05-19 (UTC), none missing.</p>"),
            std::string::npos);
  EXPECT_NE(RenderMarkdown(report).find("\n\nCovers 6 ingested hours"), std::string::npos);
}

}  // namespace
}  // namespace ghsift
