#pragma once
// The rule layers a store was built with, as `stats` lists them: each ingest records the --rules
// it was given (the bundled set when none), as absolute paths. The store's rule model says how
// reports were decided; this says where those rules came from.
#include <string>
#include <vector>

#include "common/result.hpp"
#include "store/store.hpp"

namespace ghsift {

//! Adds `layers` (as given to ingest or rescan; empty: the bundled set) to the end of the store's
//! lists, or moves the same list there.
Status RecordRuleLayers(Store& store, const std::vector<std::string>& layers);

//! Every list of layers ingests and rescans used, the last used last; each list in its layers'
//! order.
//! Empty for a store written before layers were recorded.
Result<std::vector<std::vector<std::string>>> ReadRuleLayers(const Store& store);

//! "PATH (the bundled set)" for the bundled rules' path, else PATH.
std::string DescribeRuleLayer(const std::string& path);

}  // namespace ghsift
