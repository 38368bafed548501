#pragma once
// Turns the FILE|DIR arguments of `ingest` into the list of dump files, in name order per
// directory.
#include <string>
#include <vector>

#include "common/result.hpp"

namespace ghsift {

//! True for names GH Archive dumps can have: *.json, *.json.gz, *.json.zst (and .ndjson).
bool LooksLikeDump(const std::string& name);

Result<std::vector<std::string>> ResolveInputs(const std::vector<std::string>& arguments);

}  // namespace ghsift
