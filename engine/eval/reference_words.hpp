#pragma once
// The reference a rule set must beat besides the constant answer: a word list per category, the
// regular expression a reader writes in a minute ("slow|latency|memory leak|..."), matched in a
// report's title and body with no weights, no thresholds and no verdict. Figures quoted against
// rule sets are often such lists ("a 12-word regex gets 0.54"); `rules eval` scores them in the
// same run, on the same groups, so that the comparison needs no second tool.
#include <optional>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "eval/bootstrap.hpp"
#include "eval/match_table.hpp"
#include "rules/rule_set.hpp"

namespace ghsift {

struct ReferenceWords {
  std::string category;  //!< the category a match flags
  std::string path;      //!< one word or phrase a line; a line starting with '#' is a comment
};

//! "CATEGORY=FILE", as given on the command line.
Result<ReferenceWords> ParseReferenceWords(const std::string& text);

//! The list's words as one alternation with word boundaries, each word's regex characters
//! escaped: "\b(slow|memory leak)\b" (matched without regard to case).
Result<std::string> ReferencePattern(const std::string& path);

//! One rule per list (id "reference.CATEGORY", weight 1, threshold 1, title and body).
Result<RuleSet> ReferenceRuleSet(const std::vector<ReferenceWords>& lists);

//! A group under the word lists: its score, and how they decided each labeled report (in the
//! group's order, as GroupEstimate::held_out_reports holds the held-out fold's), for the paired
//! interval of the rules' margin over the lists.
struct ReferenceGroupScore {
  GroupScore score;
  DecidedGroup decided;
};

//! Each group's score under the word lists (the same reports and groups as the rules' table);
//! none for a group one of whose positive categories has no list.
Result<std::vector<std::optional<ReferenceGroupScore>>> ScoreReferenceWords(const std::vector<ReferenceWords>& lists,
                                                                   const std::vector<LabeledReport>& reports,
                                                                   const std::vector<GroupDefinition>& groups,
                                                                   const std::vector<int>& report_group);

}  // namespace ghsift
