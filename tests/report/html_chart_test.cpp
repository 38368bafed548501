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
  EXPECT_NE(html.find(">12.50 (n=3)</text>"), std::string::npos);
  EXPECT_NE(html.find("<p class=\"meta\" id=\"coverage\">Covers 6 ingested hours from 2024-03-05-14 to "
                      "2024-03-05-19 (UTC), none missing.</p>"),
            std::string::npos);
  EXPECT_NE(RenderMarkdown(report).find("\n\nCovers 6 ingested hours"), std::string::npos);
}

// A repository name or a label is anyone's text: in the HTML and the Markdown it shows escape
// sequences and bidi overrides as visible escapes, starts no tag or link, and a long one is cut
// between characters (the HTML stays UTF-8).
TEST(HtmlChartTest, UntrustedNamesAreShownSafely) {
  ReportTable t = LineTable();
  t.table.rows = {{"evil/\x1b]0;T\x07name\u202e", "2024-01"},
                  {"<img src=x onerror=alert(1)> [a](javascript:x) " + std::string(60, 'x') + "\u00e9\u00e9", "2024-02"}};
  Report report;
  report.sections.push_back({"Over time", "", {t}});
  const std::string html = RenderHtml(report);
  const std::string markdown = RenderMarkdown(report);
  for (const std::string* out : {&html, &markdown}) {
    EXPECT_EQ(out->find('\x1b'), std::string::npos);
    EXPECT_EQ(out->find("\u202e"), std::string::npos);
    EXPECT_EQ(out->find("<img"), std::string::npos);
  }
  EXPECT_NE(html.find("evil/\\x1b]0;T\\x07name\\u202e"), std::string::npos) << html;
  EXPECT_NE(markdown.find("evil/\\x1b\\]0;T\\x07name\\u202e"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("&lt;img src=x onerror=alert(1)&gt; \\[a\\](javascript:x)"), std::string::npos) << markdown;
  // Every cut leaves whole characters: the page decodes as UTF-8.
  for (size_t at = 0; at < html.size();) {
    const unsigned char lead = static_cast<unsigned char>(html[at]);
    const size_t length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    ASSERT_TRUE(lead < 0x80 || (lead >= 0xC2 && lead <= 0xF4)) << "byte " << at;
    for (size_t i = 1; i < length; ++i) {
      ASSERT_LT(at + i, html.size());
      ASSERT_EQ(static_cast<unsigned char>(html[at + i]) & 0xC0, 0x80) << "byte " << at + i;
    }
    at += length;
  }
}

}  // namespace
}  // namespace ghsift
