#include "report/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "common/csv.hpp"
#include "common/terminal_safe.hpp"
#include "common/time_util.hpp"
#include "report/table_manifest.hpp"

namespace ghsift {
namespace {

// Colorblind-friendly palette (Okabe-Ito, then a few neutrals).
const char* const kPalette[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9",
                                "#D55E00", "#F0E442", "#000000", "#999999", "#7F3C8D"};
constexpr size_t kPaletteSize = sizeof kPalette / sizeof kPalette[0];

//! Text for HTML: shown safe first (a repository name or a label can carry escape sequences and
//! bidi overrides, common/terminal_safe.hpp), then HTML's own characters escaped.
std::string Escape(std::string_view text) {
  const std::string s = TerminalSafe(text);
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

double ValueOf(const ReportTable& t, size_t row) {
  return t.query.metric == Metric::kMedianDaysToClose ? t.table.values[row]
                                                      : static_cast<double>(t.table.counts[row]);
}

//! A row's bar label: its dimension values, with the table's category prefix dropped.
std::string RowLabel(const ReportTable& t, size_t row) {
  std::string out;
  for (size_t d = 0; d < t.table.rows[row].size(); ++d) {
    std::string v = t.table.rows[row][d];
    if (t.query.dimensions[d] == "subcategory" && t.query.category && v.rfind(*t.query.category + "/", 0) == 0) {
      v = v.substr(t.query.category->size() + 1);
    }
    out += (out.empty() ? "" : "  ") + v;
  }
  return out.empty() ? "(all)" : out;
}

int DimensionIndex(const ReportTable& t, std::string_view name) {
  const auto it = std::find(t.query.dimensions.begin(), t.query.dimensions.end(), name);
  return it == t.query.dimensions.end() ? -1 : static_cast<int>(it - t.query.dimensions.begin());
}

//! The blind months a table's legend lists: the report's list (the head's) for a table by month;
//! its months without pull-request text for a table by a dimension that reads that text
//! (resolution: closings are unknown there).
BlindMonthList BlindMonthsOf(const Report& report, const ReportTable& t) {
  if (DimensionIndex(t, dimension::kMonth) >= 0) return report.blind;
  BlindMonthList out;
  if (ReadsPullRequestText(t.query.dimensions)) out.no_pull_request_text = report.blind.no_pull_request_text;
  return out;
}

//! The legend lines of blind months: mark, months, meaning.
std::vector<std::string> BlindLegend(const BlindMonthList& shown) {
  std::vector<std::string> lines;
  if (!shown.no_issue_text.empty()) {
    lines.push_back(std::string(kNoIssueTextMark) + " " + MonthRuns(shown.no_issue_text) + ": " + kNoIssueTextLegend +
                    ".");
  }
  if (!shown.no_pull_request_text.empty()) {
    lines.push_back(std::string(kNoPullRequestTextMark) + " " + MonthRuns(shown.no_pull_request_text) + ": " +
                    kNoPullRequestTextLegend + ".");
  }
  return lines;
}

//! A cell as shown in the HTML and Markdown tables: a month of the blind list carries its marks.
std::string CellText(const Report& report, const ReportTable& t, size_t col, const std::string& value) {
  if (col >= t.query.dimensions.size() || t.query.dimensions[col] != "month") return value;
  const auto m = ParseMonth(value);
  if (!m) return value;
  const std::string marks = report.blind.Marks(*m);
  return marks.empty() ? value : value + " " + marks;
}

//! The report's blind months for its head ("" when none).
std::string BlindSummary(const Report& report) {
  if (report.blind.empty()) return "";
  std::string out = "Months where the archive is blind (judged from the store's report events of each month: "
                    "blind when under 5% of at least 20 events carry text; with fewer, issue events count as "
                    "blind before 2015 and pull-request events from 2025-10 on):";
  for (const std::string& line : BlindLegend(report.blind)) out += " " + line;
  return out;
}

//! At most `max` bytes: cut before a whole character (never inside one), then an ellipsis.
std::string Truncate(const std::string& s, size_t max) {
  if (s.size() <= max) return s;
  size_t cut = max - 1;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // a continuation byte
  return s.substr(0, cut) + "\u2026";
}

//! The colour key of a row: its last dimension's value (the thing being compared).
std::string ColorKey(const ReportTable& t, size_t row) {
  return t.table.rows[row].empty() ? "" : t.table.rows[row].back();
}

std::map<std::string, const char*> ColorMap(const std::vector<std::string>& keys) {
  std::set<std::string> sorted(keys.begin(), keys.end());
  std::map<std::string, const char*> out;
  size_t i = 0;
  for (const auto& k : sorted) out[k] = kPalette[i++ % kPaletteSize];
  return out;
}

void EmptyChart(std::ostream& out, const ReportTable& t) {
  out << "<svg class=\"chart\" data-table=\"" << Escape(t.id)
      << "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"710\" height=\"30\" role=\"img\">"
      << "<text x=\"8\" y=\"19\" font-size=\"12\" fill=\"#666\">no reports</text></svg>\n";
}

void BarChart(std::ostream& out, const ReportTable& t) {
  if (t.drawn.empty()) return EmptyChart(out, t);
  const int label_w = 300, bar_w = 300, row_h = 18, pad = 6, width = 710;
  const int height = pad * 2 + static_cast<int>(t.drawn.size()) * row_h;
  double max = 0;
  std::vector<std::string> keys;
  for (size_t r : t.drawn) {
    max = std::max(max, ValueOf(t, r));
    keys.push_back(ColorKey(t, r));
  }
  const auto colors = ColorMap(keys);
  out << "<svg class=\"chart\" data-table=\"" << Escape(t.id) << "\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
      << width << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << " " << height
      << "\" role=\"img\" aria-label=\"" << Escape(t.title) << "\">\n";
  out << "<line x1=\"" << label_w << "\" y1=\"" << pad << "\" x2=\"" << label_w << "\" y2=\"" << height - pad
      << "\" stroke=\"#444\" stroke-width=\"1\"/>\n";
  const bool grouped = t.query.dimensions.size() >= 2 && t.query.dimensions[0] == "repo";
  for (size_t k = 0; k < t.drawn.size(); ++k) {
    const size_t r = t.drawn[k];
    const int y = pad + static_cast<int>(k) * row_h;
    if (grouped && k > 0 && t.table.rows[r][0] != t.table.rows[t.drawn[k - 1]][0]) {
      out << "<line x1=\"4\" y1=\"" << y << "\" x2=\"" << width - 4 << "\" y2=\"" << y
          << "\" stroke=\"#ddd\" stroke-width=\"1\"/>\n";
    }
    const double v = ValueOf(t, r);
    const double w = max > 0 ? std::max(1.0, v / max * bar_w) : 1.0;
    const std::string label = RowLabel(t, r);
    // A median says how many closed reports it rests on: n beside every bar.
    const std::string value = ValueText(t, r) + (t.query.metric == Metric::kMedianDaysToClose
                                                     ? " (n=" + std::to_string(t.table.counts[r]) + ")"
                                                     : "");
    const std::string share = ShareText(t, r);
    out << "<text x=\"" << label_w - 6 << "\" y=\"" << y + 13 << "\" text-anchor=\"end\" font-size=\"11\">"
        << Escape(Truncate(label, 50)) << "</text>";
    out << "<rect x=\"" << label_w << "\" y=\"" << y + 3 << "\" width=\"" << Num(w) << "\" height=\"" << row_h - 5
        << "\" fill=\"" << colors.at(ColorKey(t, r)) << "\"><title>" << Escape(label) << ": " << value
        << (share.empty() ? "" : " (" + share + ")") << "</title></rect>";
    out << "<text x=\"" << Num(label_w + w + 4) << "\" y=\"" << y + 13 << "\" font-size=\"11\">" << value
        << (share.empty() ? "" : " (" + share + ")") << "</text>\n";
  }
  out << "</svg>\n";
}

void LineChart(std::ostream& out, const Report& report, const ReportTable& t) {
  if (t.table.rows.empty()) return EmptyChart(out, t);
  const int x0 = 50, x1 = 540, y0 = 16, y1 = 220;
  // series (first dimension) -> month index -> count
  std::map<std::string, std::map<int32_t, int64_t>> series;
  int32_t first = INT32_MAX, last = INT32_MIN;
  int64_t max = 0;
  for (size_t i = 0; i < t.table.rows.size(); ++i) {
    const auto month = ParseMonth(t.table.rows[i][1]);
    if (!month) continue;
    series[t.table.rows[i][0]][*month] += t.table.counts[i];
    first = std::min(first, *month);
    last = std::max(last, *month);
    max = std::max(max, t.table.counts[i]);
  }
  if (series.empty()) return EmptyChart(out, t);
  // The legend is never cut: the chart widens to its longest name (about 7 px a character at
  // 11 px) and grows for more series than its height holds.
  size_t longest = 0;
  for (const auto& [name, points] : series) {
    size_t chars = 0;
    for (const unsigned char c : name) chars += (c & 0xC0) != 0x80;
    longest = std::max(longest, chars);
  }
  const int width = std::max(710, x1 + 34 + static_cast<int>(longest) * 7 + 10);
  const int height = std::max(260, y0 + 4 + static_cast<int>(series.size()) * 14 + 10);
  auto x_of = [&](int32_t m) {
    return last == first ? (x0 + x1) / 2.0 : x0 + (x1 - x0) * static_cast<double>(m - first) / (last - first);
  };
  auto y_of = [&](double v) { return max == 0 ? static_cast<double>(y1) : y1 - (y1 - y0) * v / max; };
  out << "<svg class=\"chart\" data-table=\"" << Escape(t.id) << "\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
      << width << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << " " << height
      << "\" role=\"img\" aria-label=\"" << Escape(t.title) << "\">\n";
  // Axes, horizontal grid at 0, max/2, max.
  for (int g = 0; g <= 2; ++g) {
    const double v = max * g / 2.0;
    const double y = y_of(v);
    out << "<line x1=\"" << x0 << "\" y1=\"" << Num(y) << "\" x2=\"" << x1 << "\" y2=\"" << Num(y)
        << "\" stroke=\"" << (g == 0 ? "#444" : "#ddd") << "\" stroke-width=\"1\"/>"
        << "<text x=\"" << x0 - 6 << "\" y=\"" << Num(y + 4) << "\" text-anchor=\"end\" font-size=\"10\">"
        << (std::fmod(v, 1.0) == 0 ? std::to_string(static_cast<int64_t>(v)) : Num(v)) << "</text>\n";
  }
  out << "<line x1=\"" << x0 << "\" y1=\"" << y0 << "\" x2=\"" << x0 << "\" y2=\"" << y1
      << "\" stroke=\"#444\" stroke-width=\"1\"/>\n";
  const int32_t months = last - first + 1;
  const int32_t step = std::max(1, (months + 7) / 8);
  for (int32_t m = first; m <= last; m += step) {
    out << "<text x=\"" << Num(x_of(m)) << "\" y=\"" << y1 + 16 << "\" text-anchor=\"middle\" font-size=\"10\">"
        << FormatMonth(m) << "</text>";
  }
  out << "\n";
  // Blind months: a grey band behind each, and its mark above the plot (one mark per 10 px at
  // most, so that a run of narrow months shows one mark, not a smear).
  const double half = last == first ? 8.0 : (x1 - x0) / (2.0 * (last - first));
  double last_mark_x = -1e9;
  std::string last_marks;
  for (int32_t m = first; m <= last; ++m) {
    const std::string marks = report.blind.Marks(m);
    if (marks.empty()) continue;
    const double x = x_of(m);
    out << "<polygon class=\"blind\" points=\"" << Num(x - half) << "," << y0 << " " << Num(x + half) << "," << y0
        << " " << Num(x + half) << "," << y1 << " " << Num(x - half) << "," << y1
        << "\" fill=\"#000\" fill-opacity=\"0.07\"><title>" << FormatMonth(m) << " " << marks << "</title></polygon>";
    if (x - last_mark_x < 10 && marks == last_marks) continue;
    out << "<text class=\"blind-mark\" x=\"" << Num(x) << "\" y=\"" << y0 - 4
        << "\" text-anchor=\"middle\" font-size=\"10\" fill=\"#555\">" << marks << "</text>";
    last_mark_x = x;
    last_marks = marks;
  }
  out << "\n";
  std::vector<std::string> names;
  for (const auto& [name, points] : series) names.push_back(name);
  const auto colors = ColorMap(names);
  int legend = 0;
  for (const auto& [name, points] : series) {
    const char* color = colors.at(name);
    // The line runs through every month (0 where the query has no row); points mark the rows.
    out << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"1.5\" points=\"";
    for (int32_t m = first; m <= last; ++m) {
      auto it = points.find(m);
      out << (m == first ? "" : " ") << Num(x_of(m)) << "," << Num(y_of(it == points.end() ? 0 : it->second));
    }
    out << "\"/>\n";
    for (const auto& [m, count] : points) {
      out << "<circle cx=\"" << Num(x_of(m)) << "\" cy=\"" << Num(y_of(count)) << "\" r=\"3\" fill=\"" << color
          << "\"><title>" << Escape(name) << " " << FormatMonth(m) << ": " << count << "</title></circle>";
    }
    out << "\n";
    const int ly = y0 + 4 + legend * 14;
    out << "<line x1=\"" << x1 + 12 << "\" y1=\"" << ly << "\" x2=\"" << x1 + 30 << "\" y2=\"" << ly << "\" stroke=\""
        << color << "\" stroke-width=\"3\"/><text x=\"" << x1 + 34 << "\" y=\"" << ly + 4 << "\" font-size=\"11\">"
        << Escape(name) << "</text>\n";
    ++legend;
  }
  out << "</svg>\n";
}

void HtmlTable(std::ostream& out, const Report& report, const ReportTable& t) {
  const bool shares = !t.totals.empty();
  out << "<details><summary>Table: " << t.table.rows.size() << " rows (tables/" << Escape(t.id)
      << ".csv)</summary>\n<table><thead><tr>";
  for (const auto& c : t.table.columns) out << "<th>" << Escape(c) << "</th>";
  if (t.query.metric == Metric::kMedianDaysToClose) out << "<th>closed</th>";
  if (shares) out << "<th>share</th>";
  out << "</tr></thead><tbody>\n";
  for (size_t i = 0; i < t.table.rows.size(); ++i) {
    out << "<tr>";
    for (size_t c = 0; c < t.table.rows[i].size(); ++c) {
      out << "<td>" << Escape(CellText(report, t, c, t.table.rows[i][c])) << "</td>";
    }
    out << "<td class=\"n\">" << ValueText(t, i) << "</td>";
    if (t.query.metric == Metric::kMedianDaysToClose) out << "<td class=\"n\">" << t.table.counts[i] << "</td>";
    if (shares) out << "<td class=\"n\">" << ShareText(t, i) << "</td>";
    out << "</tr>\n";
  }
  out << "</tbody></table></details>\n";
}

std::string FilterText(const Report& report) {
  std::string out;
  const ReportOptions& o = report.options;
  out += report.repos.empty() ? "all frameworks in the store" : "frameworks: ";
  for (size_t i = 0; i < report.repos.size(); ++i) out += (i ? ", " : "") + report.repos[i];
  if (o.from_month) out += "; from " + FormatMonth(*o.from_month);
  if (o.to_month) out += "; to " + FormatMonth(*o.to_month);
  return out;
}

bool HasRepo(const ReportTable& t) {
  return std::find(t.query.dimensions.begin(), t.query.dimensions.end(), "repo") != t.query.dimensions.end();
}

std::string RepoNote(const Report& report, const ReportTable& t) {
  if (report.repos.empty() || !HasRepo(t)) return "";
  std::string out = "Rows of ";
  for (size_t i = 0; i < report.repos.size(); ++i) out += (i ? ", " : "") + report.repos[i];
  return out + " only.";
}

}  // namespace

std::string RenderCsv(const ReportTable& t) {
  std::string out;
  for (size_t c = 0; c < t.table.columns.size(); ++c) {
    if (c) out.push_back(',');
    AppendCsvField(out, t.table.columns[c]);
  }
  out.push_back('\n');
  for (size_t i = 0; i < t.table.rows.size(); ++i) {
    for (const auto& v : t.table.rows[i]) {
      AppendCsvField(out, v);
      out.push_back(',');
    }
    out += ValueText(t, i);
    out.push_back('\n');
  }
  return out;
}

std::string RenderHtml(const Report& report) {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<title>ghsift report</title>\n<style>\n"
      << "body{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:24px;color:#222;"
         "max-width:1180px}\n"
      << "h1{font-size:24px;margin-bottom:4px}h2{font-size:19px;border-bottom:1px solid #ccc;padding-bottom:4px;"
         "margin-top:32px}h3{font-size:15px;margin:18px 0 6px}\n"
      << ".figure{display:flex;gap:16px;align-items:flex-start;flex-wrap:wrap}\n"
      << ".side{flex:1;min-width:300px;font-size:13px}\n"
      << "pre{background:#f4f4f4;padding:6px 8px;white-space:pre;overflow-x:auto;font-size:12px;"
         "margin:6px 0}\n"
      << "svg.chart{font-family:inherit;flex:none}\n"
      << "table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ddd;padding:2px 6px}"
         "td.n{text-align:right}\n.meta{color:#555;font-size:13px}\n"
      << "</style>\n</head>\n<body>\n<h1>ghsift report</h1>\n<p class=\"meta\">Store <code>"
      << Escape(report.options.store_path) << "</code>; " << Escape(FilterText(report))
      << ". " << KindSentence(report.options) << ". Every number below is printed by the <code>ghsift query</code> "
         "command shown next to it.</p>\n<p class=\"meta\" id=\"coverage\">"
      << Escape(report.coverage_text) << ".</p>\n";
  const std::string blind = BlindSummary(report);
  if (!blind.empty()) out << "<p class=\"meta\" id=\"blind-months\">" << Escape(blind) << "</p>\n";
  for (const ReportSection& s : report.sections) {
    out << "<h2>" << Escape(s.title) << "</h2>\n<p>" << Escape(s.text) << "</p>\n";
    for (const ReportTable& t : s.tables) {
      out << "<section id=\"" << Escape(t.id) << "\">\n<h3>" << Escape(t.title) << "</h3>\n<div class=\"figure\">\n";
      if (t.chart == ChartKind::kBars) BarChart(out, t);
      if (t.chart == ChartKind::kLines) LineChart(out, report, t);
      out << "<div class=\"side\">\n<p class=\"caption\">" << Escape(t.caption);
      if (t.drawn.size() < t.table.rows.size() && t.chart == ChartKind::kBars) {
        out << " Drawn: " << t.drawn.size() << " of " << t.table.rows.size() << " rows.";
      }
      out << "</p>\n<pre><code>" << Escape(t.command) << "</code></pre>\n";
      if (!t.totals_command.empty()) {
        out << "<p>Shares divide by the framework's reports of the category:</p>\n<pre><code>"
            << Escape(t.totals_command) << "</code></pre>\n";
      }
      const std::string note = RepoNote(report, t);
      if (!note.empty()) out << "<p>" << Escape(note) << "</p>\n";
      for (const std::string& line : BlindLegend(BlindMonthsOf(report, t))) {
        out << "<p class=\"blind-legend\">" << Escape(line) << "</p>\n";
      }
      HtmlTable(out, report, t);
      out << "</div>\n</div>\n</section>\n";
    }
  }
  out << "</body>\n</html>\n";
  return out.str();
}

std::string RenderMarkdown(const Report& report) {
  // A cell is shown safe (escape sequences, bidi overrides, line breaks as visible escapes), and
  // neither closes the cell nor starts HTML or a link: a label can be "<img ...>" or "[x](...)".
  auto cell = [](const std::string& text) {
    std::string out;
    for (char c : TerminalSafe(text)) {
      switch (c) {
        case '|': out += "\\|"; break;
        case '[': out += "\\["; break;
        case ']': out += "\\]"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '&': out += "&amp;"; break;
        default: out += c;
      }
    }
    return out;
  };
  std::ostringstream out;
  out << "# ghsift report\n\nStore `" << report.options.store_path << "`; " << FilterText(report)
      << ". " << KindSentence(report.options) << ". Every number is printed by the `ghsift query` command above its "
         "table; the same rows are in `tables/<name>.csv`.\n\n"
      << report.coverage_text << ".\n";
  const std::string blind = BlindSummary(report);
  if (!blind.empty()) out << "\n" << blind << "\n";
  for (const ReportSection& s : report.sections) {
    out << "\n## " << s.title << "\n\n" << s.text << "\n";
    for (const ReportTable& t : s.tables) {
      out << "\n### " << t.title << "\n\n" << t.caption << " (`tables/" << t.id << ".csv`)\n\n```sh\n"
          << t.command << "\n";
      if (!t.totals_command.empty()) out << t.totals_command << "   # shares: reports of the category per framework\n";
      out << "```\n\n";
      const std::string note = RepoNote(report, t);
      if (!note.empty()) out << note << "\n\n";
      for (const std::string& line : BlindLegend(BlindMonthsOf(report, t))) out << line << "\n\n";
      if (t.table.rows.empty()) {
        out << "No reports.\n";
        continue;
      }
      const bool shares = !t.totals.empty();
      const bool median = t.query.metric == Metric::kMedianDaysToClose;
      out << "|";
      for (const auto& c : t.table.columns) out << " " << cell(c) << " |";
      if (median) out << " closed |";
      if (shares) out << " share |";
      out << "\n|";
      for (size_t c = 0; c < t.table.columns.size(); ++c) out << (c + 1 == t.table.columns.size() ? "---:|" : "---|");
      if (median) out << "---:|";
      if (shares) out << "---:|";
      out << "\n";
      for (size_t i = 0; i < t.table.rows.size(); ++i) {
        out << "|";
        for (size_t c = 0; c < t.table.rows[i].size(); ++c) {
          out << " " << cell(CellText(report, t, c, t.table.rows[i][c])) << " |";
        }
        out << " " << ValueText(t, i) << " |";
        if (median) out << " " << t.table.counts[i] << " |";
        if (shares) out << " " << ShareText(t, i) << " |";
        out << "\n";
      }
    }
  }
  return out.str();
}

namespace {

//! Writes `path` whole or not at all: into a hidden temporary beside it, renamed over it, so that
//! a run that stops leaves the earlier file or the new one, never a cut one.
Status WriteTextFile(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path temporary = path.parent_path() / ("." + path.filename().string() + ".tmp");
  std::error_code ec;
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    file << text;
    file.close();
    if (!file) {
      std::filesystem::remove(temporary, ec);
      return Status::IoErrorFromErrno(path.string() + ": cannot write");
    }
  }
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    return Status::IoError(path.string() + ": cannot replace: " + ec.message());
  }
  return Status::Ok();
}

//! The file names of the report's tables.
std::set<std::string> TableFileNames(const Report& report) {
  std::set<std::string> names;
  for (const ReportSection& s : report.sections) {
    for (const ReportTable& t : s.tables) names.insert(t.id + ".csv");
  }
  return names;
}

}  // namespace

Result<ReportFilesOutcome> WriteReportFiles(const Report& report, const std::string& out_dir) {
  namespace fs = std::filesystem;
  const fs::path tables = fs::path(out_dir) / "tables";
  std::error_code ec;
  fs::create_directories(tables, ec);
  if (ec) {
    // The system's word alone ("Not a directory") does not say which of the user's paths is wrong.
    if (fs::exists(out_dir) && !fs::is_directory(out_dir)) {
      return Status::IoError("--out " + out_dir + ": a file of that name is in the way; the report is a directory " +
                             "(index.html, report.md, tables/)");
    }
    return Status::IoError("--out " + out_dir + ": cannot create " + tables.string() + ": " + ec.message());
  }
  // The report owns the tables it wrote, no other file: the earlier run's record says which.
  // Recorded before writing (the earlier ones and these), so that a run stopped half-way still
  // leaves every table it may have written on record for the next run to remove.
  GHSIFT_ASSIGN_OR_RETURN(const std::set<std::string> previous, ReadTableManifest(tables));
  const std::set<std::string> now = TableFileNames(report);
  std::set<std::string> either = previous;
  either.insert(now.begin(), now.end());
  GHSIFT_TRY(WriteTableManifest(tables, either));
  // The tables first, the pages that describe them last: a run that fails part-way leaves the
  // earlier pages, never new pages over tables of the earlier run.
  for (const ReportSection& s : report.sections) {
    for (const ReportTable& t : s.tables) GHSIFT_TRY(WriteTextFile(tables / (t.id + ".csv"), RenderCsv(t)));
  }
  GHSIFT_TRY(WriteTextFile(fs::path(out_dir) / "report.md", RenderMarkdown(report)));
  GHSIFT_TRY(WriteTextFile(fs::path(out_dir) / "index.html", RenderHtml(report)));
  ReportFilesOutcome outcome;
  GHSIFT_ASSIGN_OR_RETURN(outcome.removed, RemoveStaleTables(tables, previous, now));
  GHSIFT_TRY(WriteTableManifest(tables, now));
  GHSIFT_ASSIGN_OR_RETURN(outcome.others, OtherCsvFiles(tables, now));
  return outcome;
}

}  // namespace ghsift
