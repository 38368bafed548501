#pragma once
// What a labeler needs of a flagged report beyond its title, shared by `sample` and `issues
// --format csv|jsonl`: the latest text every store keeps of a flagged report (or, in a
// --keep-text store, every text of it), and the MHNurf list format.
#include <string>
#include <vector>

#include "common/result.hpp"
#include "json/report_text.hpp"
#include "query/query.hpp"
#include "store/store.hpp"

namespace ghsift::cli {

//! A list as Python writes it (['a', 'b']), the form of the MHNurf Comments and Codes columns.
std::string PythonList(const std::vector<std::string>& items);

//! The texts kept of a report, by field (json/text_field.hpp): the body (markdown; its fenced
//! code stays in it, and `rules eval` takes code out of fences as ingest did) and the event texts
//! (comments, ...) kept. From the report's latest text (kept for every report that matched a
//! problem rule); in a --keep-text store from every text it kept instead, several versions of the
//! body (edits) joined by a blank line.
struct KeptText {
  ReportText text;     //!< the title is the kept snapshot's ("" when none was kept)
  bool found = false;  //!< some text was kept (false in a store ingested before ghsift kept it)
};
Result<KeptText> ReadKeptText(const Store& store, const ListedIssue& issue, bool keep_text);

//! The title to export: that of the kept snapshot (the text the rules flagged), else the latest.
std::string LabelingTitle(const ListedIssue& issue, const KeptText& kept);

//! The columns of the CSV `sample` and `issues --format csv` write: the MHNurf columns `rules eval
//! --labels` reads (Repository, Number, State, a column per text field, Labels as a list, one
//! label per item), class, then `extra`.
std::vector<std::string> LabelingCsvColumns(const std::vector<std::string>& extra);
//! Those columns as the CSV's header line.
std::string LabelingCsvHeader(const std::vector<std::string>& extra);
//! One row under LabelingCsvHeader: `class` empty for the labeler, then `extra` (CSV-quoted here).
std::string LabelingCsvRow(const ListedIssue& issue, const KeptText& kept, const std::vector<std::string>& extra);
//! The start of a jsonl record, the keys `rules eval` reads: `{"repo": ..., "number": ..., "state":
//! ...`, then the text fields (`, "title": "...", "body": "...", "labels": [...], ...`). Code stays
//! in the body's fences. Each export writes its own members after it, and the closing `}`.
std::string LabelingJsonOpening(const ListedIssue& issue, const KeptText& kept);
//! The end of a jsonl record: the label key, null for the labeler, and the closing `}`.
std::string LabelingJsonClosing();

//! The values of the exported dimensions (query/dimensions.hpp: ExportedDimensionNames) of a
//! report listed with them in IssueListOptions::with_values from index `first` on, one a column.
std::vector<std::string> ExportedValues(const ListedIssue& issue, size_t first);
//! The same as `, "name": "value"` members, for the jsonl and json exports.
std::string ExportedJsonMembers(const ListedIssue& issue, size_t first);

//! Says on stderr how many exported reports had no kept text (none: nothing is said).
void NoteMissingTexts(size_t missing, size_t total);

}  // namespace ghsift::cli
