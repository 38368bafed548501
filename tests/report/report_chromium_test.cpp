// Renders the report of the bundled sample in headless Chromium: the page must load from disk
// alone, its DOM must hold the SVG charts, and the screenshot must show something.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "pipelines/input_files.hpp"
#include "report/html_report.hpp"
#include "report/report_builder.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;

constexpr const char* kChromium = "/usr/bin/chromium";

size_t Count(std::string_view text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string ChromiumFlags(const std::string& profile) {
  return std::string(kChromium) +
         " --headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run "
         "--disable-component-update --disable-sync --user-data-dir='" +
         profile + "'";
}

TEST(ReportChromium, RendersChartsOffline) {
  if (!fs::exists(kChromium)) {
    GTEST_SKIP() << kChromium << " is missing: install the Debian package `chromium` (tools/setup.sh) to run this test";
  }
  testing::TempDir dir;
  auto files = ResolveInputs({std::string(GHSIFT_SOURCE_DIR) + "/tests/data/sample"});
  ASSERT_TRUE(files.ok());
  testing::IngestFiles(dir / "store", *files, std::string(GHSIFT_SOURCE_DIR) + "/rules");
  ReportOptions options;
  options.store_path = dir / "store";
  size_t bars = 0, points = 0, charts = 0;
  {
    auto store = Store::Open(dir / "store", StoreMode::kRead);
    ASSERT_TRUE(store.ok());
    auto report = BuildReport(**store, options);
    ASSERT_TRUE(report.ok()) << report.status().message();
    ASSERT_TRUE(WriteReportFiles(*report, dir / "out").ok());
    for (const auto& s : report->sections) {
      for (const auto& t : s.tables) {
        if (t.chart == ChartKind::kNone) continue;
        ++charts;
        if (t.chart == ChartKind::kBars) bars += t.drawn.size();
        if (t.chart == ChartKind::kLines) points += t.table.rows.size();
      }
    }
  }
  ASSERT_GT(bars, 0u);
  const std::string url = "file://" + (dir / "out/index.html");

  const std::string png = dir / "report.png";
  auto r = testing::RunCommand(ChromiumFlags(dir / "profile1") + " --screenshot='" + png +
                               "' --window-size=1200,2000 '" + url + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_TRUE(fs::exists(png)) << r.output;
  EXPECT_GT(fs::file_size(png), 10u * 1024) << "a blank page compresses to almost nothing";

  // The DOM after parsing: Chromium serializes the SVG elements it built.
  r = testing::RunCommand(ChromiumFlags(dir / "profile2") + " --dump-dom '" + url + "' 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(Count(r.output, "<svg class=\"chart\""), charts);
  EXPECT_EQ(Count(r.output, "<rect "), bars);
  EXPECT_EQ(Count(r.output, "<circle "), points);
  EXPECT_GT(Count(r.output, "<polyline "), 0u);
  EXPECT_NE(r.output.find("ghsift query --store"), std::string::npos);
}

}  // namespace
}  // namespace ghsift
