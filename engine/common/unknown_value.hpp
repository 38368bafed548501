#pragma once
// The one spelling of a value that is not known, in every output (tables, csv, json, the report,
// the exports, the generator's truth file).
#include <string_view>

namespace ghsift {

//! What a report's field reads when the archive never gave it or it cannot be told: a state no
//! event gave, the time to close and the resolution that follow from it (or a closing in a month
//! whose pull requests carry no text), the verdict of a report no text was seen of, an attribute
//! no snapshot carried. In parentheses, as "(none)" and "(no text)" are, so that it never reads as
//! a value the archive itself could hold (a login, a label or a rule file's verdict "unknown").
inline constexpr const char* kUnknownValue = "(unknown)";

//! Whether a filter value asks for kUnknownValue: as printed, or as the bare word the options
//! name (`--state unknown`), which needs no quoting in a shell.
inline bool NamesUnknown(std::string_view wanted) { return wanted == kUnknownValue || wanted == "unknown"; }

}  // namespace ghsift
