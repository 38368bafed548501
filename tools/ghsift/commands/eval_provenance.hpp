#pragma once
// Where a table of figures came from, so that a paper can state it and a reader can check it:
// the ghsift version, the rule set's digest (the one `ghsift stats` shows for a store ingested
// with the same rules), every labeled file and directory read with its size and content digest,
// and the bootstrap behind the intervals. `rules eval` prints it before its figures (a line in
// the table, "provenance" in JSON, stderr beside CSV).
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "commands/labeled_input.hpp"
#include "common/result.hpp"
#include "eval/reference_words.hpp"
#include "rules/rule_set.hpp"

namespace ghsift::cli {

struct SourceDigest {
  std::string path;    //!< as read
  uint64_t files = 1;  //!< a directory: its regular files
  uint64_t bytes = 0;
  std::string digest;  //!< 16 hex digits: CRC-64 of the content (a directory: of each file's name and content, by name)
};

struct EvalProvenance {
  std::string version;
  std::string rules_digest;
  bool default_rules = false;   //!< the rules decide like the default (bundled) set, as `stats` says
  std::string baseline_digest;  //!< --baseline's rules ("" without)
  std::vector<SourceDigest> sources;     //!< the labeled data
  std::vector<SourceDigest> word_lists;  //!< read for the word-list column only
  std::string data_digest;  //!< of the sources' digests in order: the same data wherever it lies
  int bootstrap_replicates = 0;
  double bootstrap_level = 0;
  uint64_t bootstrap_seed = 0;
};

//! What produced figures on `input` (its rules, the files it read) with `word_lists` beside them;
//! `baseline` may be null. Reads every file whole (tens of MB at most).
Result<EvalProvenance> ProvenanceOf(const LabeledInput& input, const RuleSet* baseline = nullptr,
                                    const std::vector<ReferenceWords>& word_lists = {});

//! One line: "provenance: ghsift 0.1.0; rule set 9cf3... (the default rule set); data 9 files,
//! 12.4 MB, digest e911...; bootstrap 1,000 resamples, seed 20240101".
std::string ProvenanceLine(const EvalProvenance& provenance);

//! A JSON object (no trailing newline).
void PrintProvenanceJson(std::ostream& out, const EvalProvenance& provenance);

//! Records in a written layer what its fit read (`fitted:` data, rules, ghsift).
void StampFitted(FittedLayer& fitted, const EvalProvenance& provenance);

}  // namespace ghsift::cli
