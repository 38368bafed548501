#pragma once
// Re-applies a rule set to the report texts a --keep-text store kept, without re-reading dumps:
// every report's matched rules are recomputed exactly as ingest would have computed them, and
// the records and the store's rule model are replaced in one atomic batch.
#include <memory>

#include "rules/rule_database.hpp"
#include "store/store.hpp"

namespace ghsift {

struct RescanSummary {
  uint64_t reports = 0;  //!< records rescanned
  uint64_t texts = 0;    //!< report events scanned
  uint64_t changed = 0;  //!< records whose matched rules changed
};

Result<RescanSummary> Rescan(Store& store, std::shared_ptr<const RuleDatabase> rules);

}  // namespace ghsift
