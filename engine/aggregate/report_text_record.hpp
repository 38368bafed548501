#pragma once
// The text of one report event (a ReportText: title, body, labels and the event's own texts),
// kept by `ingest --keep-text` so that `rescan` can apply a changed rule set to exactly the text
// ingest scanned. The fields of the first format sit at fixed places (title, body, comment,
// labels); a field added since follows as a tagged field (tagged_fields.hpp) under its
// TextFieldSpec::store_tag, only when it holds text, so a record without one is byte for byte
// what ghsift always wrote (its key is its hash).
#include <string>
#include <string_view>

#include "common/result.hpp"
#include "json/report_text.hpp"

namespace ghsift {

std::string EncodeReportTextRecord(const ReportText& text);
Result<ReportText> DecodeReportTextRecord(std::string_view bytes);

}  // namespace ghsift
