#pragma once
// Hand-labeled bug reports, for measuring rule sets (`ghsift rules eval|tune`).
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"

namespace ghsift {

struct LabeledReport {
  std::string id;      //!< e.g. "keras#11776" (for listings)
  std::string group;   //!< framework / repository, for per-group and leave-one-group-out numbers
  std::string title;
  std::string body;
  std::vector<std::string> comments;
  std::vector<std::string> code;    //!< code blocks given apart from the body
  std::vector<std::string> labels;
  std::optional<int> binary;        //!< the binary label (e.g. MHNurf `class`), when present
  std::optional<std::set<std::string>> expected;  //!< expected categories (JSONL `expected`)
  size_t line = 0;                  //!< the file's line the record starts on (1-based)
  //! Labeled: a binary label or an expected list. A row left blank is "not labeled yet".
  bool labeled() const { return binary.has_value() || expected.has_value(); }
};

struct LabelOptions {
  std::string label_key = "class";  //!< field read as the binary label: 0 or 1 (empty or null: not labeled yet)
  std::string issue_dir;            //!< GitHub API issue objects NUMBER.json that supply bodies
  //! A file none of whose records carries `label_key` (nor an `expected` list) is an error:
  //! scoring it would print zeros for a typo in the key. `rules bench` reads text only.
  bool require_label = true;
};

//! Reads a MHNurf-format CSV (columns Repository, Number, Title, Body, Labels, Comments, Codes,
//! class, ...) or a JSONL file (see README "Labeled data"), chosen by the file's ending.
Result<std::vector<LabeledReport>> ReadLabeledReports(const std::string& path, const LabelOptions& options);

//! Parses a Python list literal of strings ("['a', \"b\"]"), as the MHNurf CSV stores lists.
std::vector<std::string> ParsePythonStringList(std::string_view text);

//! Splits CSV text into records of fields (RFC 4180 quoting; fields may hold newlines). When
//! given, `record_lines` gets the line each record starts on (1-based) and `open_quote_line` the
//! line of a quoted field that the text ends inside (0 when none: a cut file).
std::vector<std::vector<std::string>> ParseCsv(std::string_view text, std::vector<size_t>* record_lines = nullptr,
                                               size_t* open_quote_line = nullptr);

}  // namespace ghsift
