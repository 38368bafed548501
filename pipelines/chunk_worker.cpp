#include "pipelines/chunk_worker.hpp"

#include <algorithm>
#include <cstring>

#include "aggregate/report_text_record.hpp"
#include "common/assert.hpp"
#include "json/record_boundary.hpp"
#include "rules/closing_references.hpp"

namespace ghsift {

ChunkWorker::ChunkWorker(std::shared_ptr<const RuleDatabase> rules, const RepoFilter& repos, size_t max_line_bytes,
                         bool keep_text)
    : scanner_(std::move(rules)),
      report_scan_(scanner_, kMemoSlots),
      repos_(repos),
      max_line_bytes_(max_line_bytes),
      keep_text_(keep_text) {
  // Outside the scope a report event is only counted: its payload need not be parsed.
  if (!repos_.all()) {
    extractor_.SetKeptReports([this](std::string_view name, int64_t id) { return repos_.Tracks(name, id); });
  }
  const RuleSet& set = scanner_.database().rules();
  problem_rule_.reserve(set.rules.size());
  for (const Rule& rule : set.rules) {
    const std::vector<std::string> categories = rule.ScoredCategories();
    problem_rule_.push_back(rule.weight > 0 && std::any_of(categories.begin(), categories.end(), [&](const auto& c) {
                              return !set.facets.count(c);
                            }));
  }
}

void ChunkWorker::ScanReport(const ReportFields& report, MatchSet& matches) {
  report_scan_.Scan(ViewOf(report), matches);
}

void ChunkWorker::AddEvent(const std::vector<Rule>& rules, FileAggregate& aggregate, RecordPlace place) {
  const bool tracked = repos_.Tracks(event_.repo_name, event_.repo_id);
  aggregate.CountEvent(event_, tracked);
  // Said whatever the scope, as a bad line is: it is the record that lacks a number, and what a
  // run says of its input should not depend on which repositories it keeps.
  if (!event_.no_report_reason.empty()) {
    aggregate.AddReportEventWithoutNumber(event_, place.chunk, place.line, place.column);
  }
  if (!event_.has_report || event_.report.number <= 0 || !tracked) return;
  matches_.Clear();
  ScanReport(event_.report, matches_);
  std::vector<std::string> ids;
  ids.reserve(matches_.ids().size());
  bool problem = false;
  for (uint32_t id : matches_.ids()) {
    ids.push_back(rules[id].id);
    problem = problem || problem_rule_[id];
  }
  aggregate.AddReport(event_, std::move(ids));
  const ReportFields& report = event_.report;
  if (problem) {
    // What a labeler reads of a flagged report, and what `rules eval` scores again.
    LatestTextRecord text;
    text.time = event_.created_at;
    for (const TextFieldSpec& spec : kTextFields) {
      const std::string_view field_text = report.text[spec.field];
      if (spec.source == TextSource::kSnapshot) {
        text.snapshot.Add(spec.field, field_text);
      } else if (spec.source == TextSource::kLabels) {
        text.snapshot[spec.field].assign(report.labels.begin(), report.labels.end());
        std::sort(text.snapshot[spec.field].begin(), text.snapshot[spec.field].end());
      } else if (spec.source == TextSource::kEventText && !field_text.empty()) {
        text.events[spec.field].emplace_back(event_.created_at, std::string(field_text));
      }
    }
    aggregate.AddLatestText(event_.repo_id, report.number, std::move(text));
  }
  if (event_.kind == EventKind::kPullRequest && report.merged && report.action == "closed") {
    // Issues of the same repository this merged PR closes ("fixes #12").
    std::vector<int64_t> closes = FindClosingReferences(report.text[Field::kTitle], event_.repo_name);
    const std::vector<int64_t> in_body = FindClosingReferences(report.text[Field::kBody], event_.repo_name);
    closes.insert(closes.end(), in_body.begin(), in_body.end());
    if (!closes.empty()) aggregate.AddClosingReferences(event_.repo_id, closes, report.number);
  }
  if (keep_text_) {
    aggregate.AddText(event_.repo_id, report.number, EncodeReportTextRecord(TextOf(report)));
  }
}

void ChunkWorker::ProcessGluedRecords(std::string_view line, size_t pos, uint64_t chunk_sequence, uint64_t line_index,
                                      const std::vector<Rule>& rules, FileAggregate& aggregate) {
  while (pos < line.size()) {
    if (line[pos] == ' ' || line[pos] == '\t' || line[pos] == '\r') {
      ++pos;
      continue;
    }
    const std::string_view rest = line.substr(pos);
    // Each record is cut out before it is parsed, so a line holding a whole hour (the original
    // 2012 files) costs one pass, not one pass per record.
    const size_t length = RecordLength(rest);
    const std::string_view record = length == std::string_view::npos ? rest : rest.substr(0, length);
    const ExtractOutcome outcome = extractor_.Extract(record, event_);
    if (outcome == ExtractOutcome::kEvent && extractor_.consumed() == record.size()) {
      if (record.size() < rest.size()) aggregate.AddJoinedRecord();
      AddEvent(rules, aggregate, {chunk_sequence, line_index, pos + 1});
      pos += record.size();
      continue;
    }
    aggregate.AddBadLine(chunk_sequence, line_index,
                         outcome == ExtractOutcome::kBadLine ? extractor_.error() : "trailing content after the JSON object",
                         pos + 1);
    // Counting resumes at the next record boundary: right after this record when it closed
    // and another opens there, otherwise at the next `}{"`; or before either, where an intact
    // record starts inside what this one seemed to hold.
    size_t next = std::string_view::npos;
    if (length != std::string_view::npos && length < rest.size() && rest[length] == '{') {
      next = length;
    } else if (const size_t join = FindRecordJoin(rest.substr(1)); join != std::string_view::npos) {
      next = 1 + join + 1;
    }
    const size_t intact = FindIntactRecord(rest, next == std::string_view::npos ? rest.size() : next);
    if (intact != std::string_view::npos) next = intact;
    if (next == std::string_view::npos) return;
    pos += next;
  }
}

size_t ChunkWorker::FindIntactRecord(std::string_view text, size_t before) {
  constexpr std::string_view kObjectStart = "{\"";
  // Each candidate is read to where it closes, or to the line's end when it never does: a damaged
  // record of the archive costs a few passes over its line (one per object open where it was cut,
  // and its closed objects once per level), but a line of thousands of objects that never close
  // would cost one pass each. Past this many passes the search gives up, and counting resumes at
  // the next record boundary as it did before the search existed.
  constexpr uint64_t kPasses = 32;
  uint64_t budget = kPasses * static_cast<uint64_t>(text.size());
  for (size_t from = 1; from < before;) {
    const size_t found = FindLiteral(text.substr(from, before - from + 1), kObjectStart);
    if (found == std::string_view::npos) return std::string_view::npos;
    const size_t start = from + found;
    from = start + 1;
    const std::string_view rest = text.substr(start);
    const size_t length = RecordLength(rest);
    const uint64_t read = length == std::string_view::npos ? rest.size() : 2 * length;  // 2: the parse
    if (read > budget) return std::string_view::npos;
    budget -= read;
    if (length == std::string_view::npos) continue;
    // It must end where a record may: before the next one or at the line's end (an object
    // nested in the damaged record is followed by ',' or '}').
    size_t after = length;
    while (after < rest.size() && (rest[after] == ' ' || rest[after] == '\t' || rest[after] == '\r')) ++after;
    if (after < rest.size() && rest[after] != '{') continue;
    // And be an event: an object nested in the damaged record and cut off right after, a
    // followed user {"type":"User","created_at":...} say, is none.
    if (extractor_.Extract(rest.substr(0, length), event_) == ExtractOutcome::kEvent &&
        extractor_.consumed() == length && event_.type.ends_with("Event")) {
      return start;
    }
  }
  return std::string_view::npos;
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
    std::string_view record = line;
    while (!record.empty() && (record.back() == '\r' || record.back() == ' ' || record.back() == '\t')) {
      record.remove_suffix(1);
    }
    // The fast path: one record per line.
    const ExtractOutcome outcome = extractor_.Extract(record, event_);
    if (outcome == ExtractOutcome::kEvent && extractor_.consumed() == record.size()) {
      AddEvent(rules, aggregate, {chunk.sequence, index});
    } else if (outcome == ExtractOutcome::kEvent) {
      // Glued records (`}{`): the first one is read; the others follow one by one.
      aggregate.AddJoinedRecord();
      AddEvent(rules, aggregate, {chunk.sequence, index});
      ProcessGluedRecords(record, extractor_.consumed(), chunk.sequence, index, rules, aggregate);
    } else if (FindRecordJoin(record) != std::string_view::npos) {
      // The first of several glued records is bad: it alone is lost.
      ProcessGluedRecords(record, 0, chunk.sequence, index, rules, aggregate);
    } else {
      aggregate.AddBadLine(chunk.sequence, index, extractor_.error());
      // A first record cut short glues onto the next with no `}{"`: the records after it count.
      const size_t intact = FindIntactRecord(record, record.size());
      if (intact != std::string_view::npos) {
        ProcessGluedRecords(record, intact, chunk.sequence, index, rules, aggregate);
      }
    }
  }
  aggregate.AddChunkLines(chunk.sequence, line_index);
}

}  // namespace ghsift
