#pragma once
// What a distributed ingest (MPI ranks, Slurm array tasks, Kubernetes indexed jobs) needs
// besides the transport: where each worker writes its partial store, which files are left to
// do, and folding finished partials into the store exactly once.
#include <string>
#include <vector>

#include "common/result.hpp"
#include "store/store.hpp"

namespace ghsift {

//! The partial store of worker `rank` for the store at `store_path`: <store>.partials/rank-<rank>.
std::string PartialStorePath(const std::string& store_path, int rank);

//! The files not yet in `store` (by name), largest first, so that the long ones start early.
Result<std::vector<std::string>> PendingFiles(const Store& store, const std::vector<std::string>& files);

struct PartialMergeSummary {
  int merged = 0;   //!< partials added now
  int skipped = 0;  //!< partials whose files were all in the store already
};

//! Merges every partial under <store>.partials/ into `store` and removes it. A worker that died
//! leaves a partial holding only whole files (each file commits atomically), so a rerun first
//! folds those in and then hands out only the files still missing: nothing counts twice.
Result<PartialMergeSummary> MergeAndRemovePartials(Store& store, const std::string& store_path);

}  // namespace ghsift
