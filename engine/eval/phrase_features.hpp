#pragma once
// Word n-gram features of labeled reports for `rules learn`, read exactly as the rule written for
// a phrase will find it: lowercase [A-Za-z0-9_]+ words (WordRuns), n words in a row separated by
// whitespace only (the pattern joins them with \s+ between \b's), within one field's text.
// A report either has a phrase or not: features are binary.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "eval/labeled_report.hpp"
#include "json/text_field.hpp"

namespace ghsift {

//! The texts of `fields` the rules see, each its own text (no phrase spans two): the title, the
//! body's prose (outside fenced code), each comment's prose.
std::vector<std::string> FieldTexts(const LabeledReport& report, FieldMask fields);

//! The fields of `fields` that at least half of the positives and half of the negatives have
//! text in. A field only one class has (the silent-bug set gives bodies of its positives alone)
//! would teach the words of that field, not of the label.
FieldMask FieldsBothClassesHave(const std::vector<const LabeledReport*>& positives,
                                const std::vector<const LabeledReport*>& negatives, FieldMask fields);

//! The distinct word 1..max_words-grams of the texts, sorted; an n-gram of stopwords and
//! numbers alone is left out (no rule should fire on "of the").
std::vector<std::string> TextPhrases(const std::vector<std::string>& texts, int max_words);

//! Every report's phrases as indices into one sorted dictionary.
struct PhraseIndex {
  std::vector<std::string> phrases;              //!< sorted
  std::vector<std::vector<uint32_t>> of_report;  //!< per report: sorted indices into `phrases`
  //! Per report: the phrases a fit may learn from (a subset of of_report: those of the fields
  //! both classes of its group have); of_report is what a rule finds, and what is scored.
  std::vector<std::vector<uint32_t>> learn_from;
};
//! `learnable[i]`, when given, is a subset of `report_phrases[i]` (else the same).
PhraseIndex IndexPhrases(const std::vector<std::vector<std::string>>& report_phrases,
                         const std::vector<std::vector<std::string>>* learnable = nullptr);

struct VocabularyOptions {
  int64_t min_groups = 2;   //!< distinct groups whose reports contain the phrase
  int64_t min_reports = 5;  //!< reports that contain it
};

//! The phrases (indices, ascending) that occur in at least `min_reports` of the reports with
//! `use[i]` and in at least `min_groups` distinct `group[i]` among them: phrases that a group
//! other than one's own also uses, so that a weight learned for them may transfer.
//! Counted over `learn_from`.
std::vector<uint32_t> Vocabulary(const PhraseIndex& index, const std::vector<int>& group,
                                 const std::vector<char>& use, const VocabularyOptions& options);

}  // namespace ghsift
