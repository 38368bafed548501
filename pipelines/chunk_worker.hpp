#pragma once
// What one pipeline task does with one chunk: the per-line stage order
// extract -> scan -> aggregate. One ChunkWorker per thread.
#include <memory>
#include <string>

#include "aggregate/file_aggregate.hpp"
#include "aggregate/repo_filter.hpp"
#include "io/line_splitter.hpp"
#include "json/event_extractor.hpp"
#include "rules/report_scan.hpp"
#include "rules/scanner.hpp"

namespace ghsift {

class ChunkWorker {
 public:
  //! `keep_text`: also keep each tracked report event's text for `rescan`.
  ChunkWorker(std::shared_ptr<const RuleDatabase> rules, const RepoFilter& repos, size_t max_line_bytes,
              bool keep_text = false);

  //! Extracts, scans and aggregates every line of `chunk` into `aggregate`.
  void Process(const Chunk& chunk, FileAggregate& aggregate);

  //! Scans every field of one report (json/text_field.hpp).
  void ScanReport(const ReportFields& report, MatchSet& matches);

 private:
  //! Issue texts remembered per thread: about a third of the report events of a generated hour
  //! find their issue's text there (16,384 slots: 44%, 1,024: 25%). At most 32 MiB per thread
  //! (texts up to ReportScan::kMemoMaxTextBytes), usually a few MiB.
  static constexpr size_t kMemoSlots = 4096;

  //! Where a record starts: the chunk, the line in it (0-based) and the byte in the line (1-based).
  struct RecordPlace {
    uint64_t chunk = 0;
    uint64_t line = 0;
    uint64_t column = 1;
  };

  //! Counts the extracted event (found at `place`) and, for a tracked report, scans and aggregates it.
  void AddEvent(const std::vector<Rule>& rules, FileAggregate& aggregate, RecordPlace place);

  //! Reads the records of a line of glued records (`}{`) from byte `pos` on, each alone: a bad
  //! one is counted with its column and skipped to the next record boundary, or to the first
  //! intact record before it (FindIntactRecord).
  void ProcessGluedRecords(std::string_view line, size_t pos, uint64_t chunk_sequence, uint64_t line_index,
                           const std::vector<Rule>& rules, FileAggregate& aggregate);

  //! `text` starts with a bad record: where in text[1, before) the first intact record starts (an
  //! event that closes right before the next record or the line's end), or npos. A record cut
  //! short leaves no `}` before the next `{`, so the next `}{"` may lie past records that are whole.
  //! Only for bad records: it parses every candidate it finds.
  size_t FindIntactRecord(std::string_view text, size_t before);

  Scanner scanner_;
  //! By rule index: a positive rule of a problem category (not a facet). A report event that
  //! matches one keeps its text for the label loop (a flagged report has matched one).
  std::vector<bool> problem_rule_;
  ReportScan report_scan_;
  const RepoFilter& repos_;
  size_t max_line_bytes_;
  bool keep_text_;
  EventExtractor extractor_;
  Event event_;
  MatchSet matches_;
};

}  // namespace ghsift
