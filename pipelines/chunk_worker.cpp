#include "pipelines/chunk_worker.hpp"

#include <cstring>

#include "aggregate/report_text_record.hpp"
#include "common/assert.hpp"
#include "rules/closing_references.hpp"

namespace ghsift {

ChunkWorker::ChunkWorker(std::shared_ptr<const RuleDatabase> rules, const RepoFilter& repos, size_t max_line_bytes,
                         bool keep_text)
    : scanner_(std::move(rules)),
      report_scan_(scanner_, kMemoSlots),
      repos_(repos),
      max_line_bytes_(max_line_bytes),
      keep_text_(keep_text) {}

void ChunkWorker::ScanReport(const ReportFields& report, MatchSet& matches) {
  const std::string_view comments[] = {report.comment};
  ReportText text;
  text.title = report.title;
  text.body = report.body;
  text.comments = report.comment.empty() ? std::span<const std::string_view>() : std::span(comments);
  text.labels = report.labels;
  report_scan_.Scan(text, matches);
}

void ChunkWorker::AddEvent(const std::vector<Rule>& rules, FileAggregate& aggregate) {
  aggregate.CountEvent(event_);
  if (!event_.has_report || event_.report.number <= 0 || !repos_.Tracks(event_.repo_name)) return;
  matches_.Clear();
  ScanReport(event_.report, matches_);
  std::vector<std::string> ids;
  ids.reserve(matches_.ids().size());
  for (uint32_t id : matches_.ids()) ids.push_back(rules[id].id);
  aggregate.AddReport(event_, std::move(ids));
  const ReportFields& report = event_.report;
  if (event_.kind == EventKind::kPullRequest && report.merged && report.action == "closed") {
    // Issues of the same repository this merged PR closes ("fixes #12").
    std::vector<int64_t> closes = FindClosingReferences(report.title, event_.repo_name);
    const std::vector<int64_t> in_body = FindClosingReferences(report.body, event_.repo_name);
    closes.insert(closes.end(), in_body.begin(), in_body.end());
    if (!closes.empty()) aggregate.AddClosingReferences(event_.repo_id, closes, report.number);
  }
  if (keep_text_) {
    const ReportFields& r = event_.report;
    ReportTextRecord text{std::string(r.title), std::string(r.body), std::string(r.comment), {}};
    for (std::string_view label : r.labels) text.labels.emplace_back(label);
    aggregate.AddText(event_.repo_id, r.number, text.Encode());
  }
}

void ChunkWorker::Process(const Chunk& chunk, FileAggregate& aggregate) {
  uint64_t line_index = 0;
  for (uint32_t i = 0; i < chunk.overlong_lines_before; ++i) {
    aggregate.AddBadLine(chunk.sequence, line_index++,
                         "line longer than " + std::to_string(max_line_bytes_) + " bytes");
  }
  const std::vector<Rule>& rules = scanner_.database().rules().rules;
  const char* p = chunk.data();
  const char* const end = p + chunk.size;
  while (p < end) {
    const char* newline = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    const char* line_end = newline != nullptr ? newline : end;
    const std::string_view line(p, static_cast<size_t>(line_end - p));
    p = line_end + 1;
    const uint64_t index = line_index++;
    if (line.empty() || line == "\r") continue;  // blank lines carry nothing
    if (line.size() > max_line_bytes_) {
      aggregate.AddBadLine(chunk.sequence, index, "line longer than " + std::to_string(max_line_bytes_) + " bytes");
      continue;
    }
    // Usually one record per line; `}{` lines hold more, each counted on its own.
    for (std::string_view rest = line; !rest.empty();) {
      if (extractor_.Extract(rest, event_) == ExtractOutcome::kBadLine) {
        aggregate.AddBadLine(chunk.sequence, index, extractor_.error());
        break;
      }
      const bool more = extractor_.consumed() < rest.size();
      if (more) aggregate.AddJoinedRecord();
      AddEvent(rules, aggregate);
      rest.remove_prefix(extractor_.consumed());
    }
  }
  aggregate.AddChunkLines(chunk.sequence, line_index);
}

}  // namespace ghsift
