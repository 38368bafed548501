#pragma once
// Writes a Report as one self-contained HTML page (inline SVG charts; no scripts, no styles or
// fonts from the network), as Markdown, and as one CSV per table.
//
// Chart contract (tests rely on it): each chart is one <svg class="chart" data-table="ID">
// holding exactly one <rect> per drawn row (bar charts) or one <circle> per row (line charts),
// and nothing else of those element kinds.
#include <string>
#include <vector>

#include "common/result.hpp"
#include "report/report_builder.hpp"

namespace ghsift {

std::string RenderHtml(const Report& report);
std::string RenderMarkdown(const Report& report);
//! The table as `ghsift query --format csv` prints it: the columns, then one line per row.
std::string RenderCsv(const ReportTable& table);

//! What WriteReportFiles did to tables/ beside writing this run's tables.
struct ReportFilesOutcome {
  size_t removed = 0;               //!< tables an earlier report recorded and this one does not write
  std::vector<std::string> others;  //!< .csv files left there that no report recorded (OtherCsvFiles)
};

//! Writes out_dir/index.html, out_dir/report.md and out_dir/tables/<id>.csv (directories made),
//! and removes the tables an earlier report wrote there that this one does not (only those: the
//! record tables/.ghsift-tables names them, table_manifest.hpp), so the directory holds one run's
//! tables and, named in the outcome, any .csv no report recorded. Each file is written whole or
//! not at all, the tables before the pages, so a failing run leaves the earlier pages.
Result<ReportFilesOutcome> WriteReportFiles(const Report& report, const std::string& out_dir);

}  // namespace ghsift
