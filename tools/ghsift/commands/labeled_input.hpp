#pragma once
// Options shared by `rules eval|tune|suggest`: labeled files or a suite of them, rules, positive
// categories, and the groups (frameworks or project sets) the estimates hold one out at a time.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "eval/evaluation.hpp"
#include "eval/labeled_report.hpp"
#include "eval/match_table.hpp"
#include "eval/reference_words.hpp"

namespace ghsift::cli {

struct LabeledInputArgs {
  std::vector<std::string> labels;  //!< files
  std::string suite;                //!< or a suite file listing sets
  std::string data = "../shared/data/labeled";
  std::vector<std::string> rules;  //!< layers, in order
  std::string positive = "performance,accuracy";
  std::string label_key{kDefaultLabelKey};
  std::string issue_dir;
  std::string group_by = "file";
  std::string objective = "macro-f1";
  std::string verdict = "any";  //!< bug: the labels mean "a positive category and a bug" (--labels)
  //! Options of --labels given on the command line (a suite names them per set: with --suite they
  //! would be ignored, so they are an error).
  std::vector<std::string> labels_only_given;
  bool suite_takes_positive = false;  //!< rules suggest: --positive names the category to mine
};

void AddLabeledInputOptions(CLI::App& cmd, LabeledInputArgs& args);

struct LabeledInput {
  std::shared_ptr<const RuleDatabase> database;
  std::vector<LabeledReport> reports;
  std::vector<ReportVerdict> verdicts;
  std::vector<GroupDefinition> groups;
  std::vector<int> report_group;  //!< index into groups
  double control_max_rate = 0.15;
  std::vector<ReferenceWords> reference_words;  //!< the suite's (`rules eval --reference` replaces them)
  MatchTable table;
  //! The distinct targets (positive categories, bug or not), each with the indices of its
  //! reports (for the detail tables).
  std::vector<std::pair<Target, std::vector<size_t>>> targets;
  //! What the reports were read from, in the order read, each once: labels files, and the
  //! directories of issue objects giving bodies (for the provenance of the figures).
  std::vector<std::string> sources;
};

//! --positive of a command that works on one category (rules suggest, rules learn), read as `rules
//! eval` reads it (a comma list, spaces trimmed, a name given twice counted once). A union (MHNurf's
//! label: performance or accuracy) is what eval scores as one target; here it is refused in one
//! line that names it as eval does, says why one category (`why`) and what works, then the
//! command's `hint` for the union's categories (null: none).
Result<std::string> OneCategory(const std::string& positive, const std::string& command, const std::string& why,
                                std::string (*hint)(const std::set<std::string>& categories) = nullptr);

//! Loads rules and reports and judges every report; the Status names what failed.
Result<LabeledInput> LoadLabeledInput(const LabeledInputArgs& args);

}  // namespace ghsift::cli
