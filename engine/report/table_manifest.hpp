#pragma once
// What a report wrote into its tables/ directory, so that the next report into the same --out
// removes the tables it no longer writes (a category the store's rules lost, a facet gone) and
// nothing else: the directory then always holds one run's tables, and a file a person put there
// is never touched, since no run recorded it.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "common/result.hpp"

namespace ghsift {

//! The record's file name inside tables/ (hidden: it is no table).
inline constexpr const char* kTableManifestName = ".ghsift-tables";

//! The table files the record in `tables_dir` names; empty when there is none (a fresh directory,
//! or one written before reports kept the record). A line that is no table's file name (a path,
//! "..", a hidden file: an edited record) is left out, so removing never leaves tables/.
Result<std::set<std::string>> ReadTableManifest(const std::filesystem::path& tables_dir);

//! Replaces the record with `names`, atomically (a temporary file renamed over it): a run that
//! stops half-way leaves the earlier record or the new one, never a cut one.
Status WriteTableManifest(const std::filesystem::path& tables_dir, const std::set<std::string>& names);

//! Removes from `tables_dir` each file of `previous` that is not in `now` (one already gone is
//! no error); returns how many it removed.
Result<size_t> RemoveStaleTables(const std::filesystem::path& tables_dir, const std::set<std::string>& previous,
                         const std::set<std::string>& now);

//! The .csv files of `tables_dir` (files or links, not hidden) that are not in `now`, in name
//! order: after RemoveStaleTables, those no report recorded writing (a person's, or an earlier
//! report's whose record is gone or that predates the record). They cannot be told apart, so they
//! stay; the caller names them, so that none is taken for one of this run's tables.
Result<std::vector<std::string>> OtherCsvFiles(const std::filesystem::path& tables_dir,
                                               const std::set<std::string>& now);

//! Whether `name` can be a table's file name: [a-z0-9_.-]+ ending in .csv, not starting with '.'.
bool IsTableFileName(const std::string& name);

}  // namespace ghsift
