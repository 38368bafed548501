#pragma once
// The text of one report event (title, body, comment, labels), kept by `ingest --keep-text` so
// that `rescan` can apply a changed rule set to exactly the text ingest scanned.
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"

namespace ghsift {

struct ReportTextRecord {
  std::string title;
  std::string body;     //!< raw markdown
  std::string comment;  //!< raw markdown; empty when the event had none
  std::vector<std::string> labels;

  std::string Encode() const;
  static Result<ReportTextRecord> Decode(std::string_view bytes);
};

}  // namespace ghsift
