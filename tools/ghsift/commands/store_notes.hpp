#pragma once
// Notes the commands that answer from a store (query, issues, sample, report) print on stderr
// beside their answer, so that an answer the store cannot give whole is not taken for whole.
#include <string>

#include "store/store.hpp"

namespace ghsift::cli {

//! "ghsift: note: N files failed when ingested ..." when the store has files on record as failed
//! (nothing of them counted; hours missing at the source are the archive's, not said); "" else.
std::string FailedFilesNote(const Store& store);
//! Prints FailedFilesNote on stderr, when there is one.
void PrintFailedFilesNote(const Store& store);

}  // namespace ghsift::cli
