#pragma once
// Turns the FILE|DIR arguments of `ingest` into the list of dump files, in name order per
// directory.
#include <string>
#include <vector>

#include "common/result.hpp"

namespace ghsift {

//! True for names a directory scan takes: GH Archive hours (YYYY-MM-DD-H.json, .json.gz,
//! .json.zst) and any *.json.gz, *.json.zst, *.ndjson[.gz|.zst]. Other plain *.json files in a
//! directory (a truth.json, a config) are left alone; name them explicitly to read them.
bool LooksLikeDump(const std::string& name);

//! The other names one GH Archive hour can have: for "2024-01-01-2.json.gz", the same hour as
//! .json, .json.zst, .ndjson[.gz|.zst] and with its hour written 02. Empty for a name that is
//! no hour. A store holds an hour once, whichever of these it was read as.
std::vector<std::string> OtherNamesOfTheHour(const std::string& name);

//! Files stay as named; a directory gives its dumps in name order (with `recursive`, those of
//! its subdirectories too, each path in order); a directory with no dump is an error, so a
//! mistyped path is not an empty success. http(s) URLs pass through.
Result<std::vector<std::string>> ResolveInputs(const std::vector<std::string>& arguments, bool recursive = false);

}  // namespace ghsift
