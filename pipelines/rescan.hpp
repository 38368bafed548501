#pragma once
// Re-applies a rule set to the report texts a store kept, without re-reading dumps, and replaces
// the records and the store's rule model in one atomic batch:
//  - a --keep-text store kept every report event's text: every report's matched rules are
//    recomputed exactly as ingest would have computed them;
//  - any other store kept the latest text of each report that was flagged (title, body and
//    labels as last seen, and its first comments): the rules new or edited since the ingest are
//    matched again against it; every other rule keeps what it matched at ingest (every event's
//    text, exact). Reports without a kept text keep their matches: new or edited patterns cannot
//    reach them. The new weights and thresholds decide every report.
#include <memory>

#include "rules/rule_database.hpp"
#include "store/store.hpp"

namespace ghsift {

struct RescanSummary {
  bool exact = true;     //!< every event's text was kept (--keep-text); else latest texts only
  //! Reports rescanned: the store's distinct reports, as `stats` and `query --kind all` count them.
  uint64_t reports = 0;
  //! Records of issues never seen, only named by a merged pull request that closes them ("fixes
  //! #12"): no report (no event, no text), so neither rescanned nor counted in `reports`.
  uint64_t references = 0;
  uint64_t texts = 0;    //!< texts scanned (report events, or latest texts and their comments; none when
                         //!< no rule is new or edited)
  uint64_t changed = 0;  //!< records whose matched rules changed
  uint64_t without_text = 0;  //!< records with no kept text: their matches were kept as ingested
  //! Without --keep-text: the rules, and those of them new or edited since the ingest (matched
  //! again against the latest texts; the others keep what they matched at ingest).
  uint64_t rules = 0;
  uint64_t rematched_rules = 0;
};

//! Rescans as the store allows: every event's text with --keep-text, else RescanLatestTexts.
Result<RescanSummary> Rescan(Store& store, std::shared_ptr<const RuleDatabase> rules);
//! Re-decides the reports whose latest text the store kept; the others keep their matches.
Result<RescanSummary> RescanLatestTexts(Store& store, std::shared_ptr<const RuleDatabase> rules);

}  // namespace ghsift
