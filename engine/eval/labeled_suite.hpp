#pragma once
// A suite of labeled sets (tools/labeled_suite.yaml): each set is one file with its own positive
// categories, label key and group name, so `rules eval|tune|suggest --suite` scores sets of
// different kinds (performance/accuracy, silent bugs) in one run. Paths only, never texts.
#include <string>
#include <vector>

#include "common/result.hpp"
#include "eval/labeled_report.hpp"
#include "eval/reference_words.hpp"

namespace ghsift {

struct LabeledSet {
  std::string path;                   //!< resolved against the data directory
  std::string group;                  //!< group name (default: from the file name)
  std::vector<std::string> positive;  //!< categories whose union predicts the label
  std::string label_key{kDefaultLabelKey};
  std::string issue_dir;              //!< resolved against the data directory ("" = none)
  bool objective_f1 = false;          //!< fit F1 of the positive class instead of macro-F1
  std::vector<std::string> controls;  //!< categories these reports are a negative control for
  //! `verdict: bug`: the label means "speaks of a positive category AND is a bug" (the MHNurf
  //! label: a performance or accuracy bug); without it, only what the report speaks of.
  bool bug_only = false;
  //! `group_by: repo`: each repository (project) of the file is a group of its own.
  bool group_by_repo = false;
  std::string group_prefix;  //!< with group_by_repo: "perf:" when `group: perf` is given
};

struct LabeledSuite {
  std::vector<LabeledSet> sets;
  double control_max_rate = 0.15;  //!< a control category may flag at most this share
  //! `reference_words: {CATEGORY: FILE}`: the word lists scored beside the rules (paths taken from
  //! the suite file's folder: the lists belong with the suite, the labeled data lives elsewhere).
  std::vector<ReferenceWords> reference_words;
};

//! Reads the suite; relative paths are taken from `data_dir`. Errors name the file and entry.
Result<LabeledSuite> LoadLabeledSuite(const std::string& suite_path, const std::string& data_dir);

//! The group a labels file stands for: its stem (caffe, keras), or its folder's name when the
//! stem is generic (silentbugs/titles.jsonl -> silentbugs, hlp/dataset-2.jsonl -> hlp).
std::string GroupNameOfFile(const std::string& path);

}  // namespace ghsift
