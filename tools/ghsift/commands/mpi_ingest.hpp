#pragma once
// `ghsift ingest --mpi`: one program on many nodes (mpirun, Slurm's srun). Rank 0 hands out
// files, largest first, to the other ranks as they become free; each of them ingests its files
// with the normal pipeline into its own partial store; rank 0 then merges the partials into
// the store, each atomically. Built only where OpenMPI is found (GHSIFT_WITH_MPI).
#include <memory>
#include <string>
#include <vector>

#include "aggregate/repo_filter.hpp"
#include "pipelines/ingest_pipeline.hpp"
#include "rules/rule_database.hpp"

namespace ghsift::cli {

struct MpiIngestJob {
  std::string store;
  std::vector<std::string> files;
  std::shared_ptr<const RuleDatabase> rules;
  std::vector<std::string> rule_layers;  //!< the --rules given, recorded for `stats`
  RepoFilter repos;
  IngestOptions options;
  bool quiet = false;
};

//! True when this binary was built with MPI.
bool MpiAvailable();

//! Runs the job on this rank; returns the process exit status.
int RunMpiIngest(const MpiIngestJob& job);

}  // namespace ghsift::cli
