#include "commands/mpi_ingest.hpp"

#include <cstdio>

#include "commands/commands.hpp"

#ifdef GHSIFT_WITH_MPI
#include <mpi.h>

#include "pipelines/rule_layers_meta.hpp"
#include "output.hpp"
#include "pipelines/distributed_ingest.hpp"
#include "pipelines/store_scope.hpp"
#endif

namespace ghsift::cli {

#ifndef GHSIFT_WITH_MPI

bool MpiAvailable() { return false; }
int RunMpiIngest(const MpiIngestJob&) {
  return Fail("this ghsift was built without MPI (install libopenmpi-dev and rebuild); use --partial and merge");
}

#else

namespace {

enum Tag : int {
  kRequest = 1,   //!< worker -> 0: give me a file (payload: nothing)
  kWork = 2,      //!< 0 -> worker: a file path
  kNoMoreWork = 3,
  kFinished = 4,  //!< worker -> 0: partial store closed; payload: {ingested, failed}
};

void SendString(const std::string& s, int to, int tag) {
  MPI_Send(s.data(), static_cast<int>(s.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

int Coordinate(const MpiIngestJob& job, int ranks) {
  auto store = Store::Open(job.store, StoreMode::kReadWrite);
  if (!store.ok()) {
    Fail(store.status().message());
    MPI_Abort(MPI_COMM_WORLD, kExitError);
  }
  // Partials left by a run that died hold only whole files: fold them in first.
  auto leftovers = MergeAndRemovePartials(**store, job.store);
  auto pending = leftovers.ok() ? PendingFiles(**store, job.files) : Result<std::vector<std::string>>(leftovers.status());
  if (!pending.ok()) {
    Fail(pending.status().message());
    MPI_Abort(MPI_COMM_WORLD, kExitError);
  }
  if (!job.quiet && (leftovers->merged > 0 || leftovers->skipped > 0)) {
    std::fprintf(stderr, "ghsift: rank 0: merged %d partial store(s) left by an earlier run\n", leftovers->merged);
  }
  MPI_Barrier(MPI_COMM_WORLD);  // workers create their partials only after the leftovers are gone
  size_t next = 0;
  int working = ranks - 1;
  uint64_t ingested = 0, failed = 0;
  while (working > 0) {
    MPI_Status status;
    uint64_t counts[2] = {0, 0};
    MPI_Recv(counts, 2, MPI_UINT64_T, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    if (status.MPI_TAG == kFinished) {
      ingested += counts[0];
      failed += counts[1];
      --working;
    } else if (next < pending->size()) {
      SendString((*pending)[next++], status.MPI_SOURCE, kWork);
    } else {
      SendString("", status.MPI_SOURCE, kNoMoreWork);
    }
  }
  auto merged = MergeAndRemovePartials(**store, job.store);
  if (!merged.ok()) return Fail(merged.status().message());
  if (!job.quiet) {
    std::fprintf(stderr, "ghsift: %d ranks ingested %llu files (%llu failed, %zu already in the store); merged %d "
                         "partial stores into %s\n",
                 ranks - 1, static_cast<unsigned long long>(ingested), static_cast<unsigned long long>(failed),
                 job.files.size() - pending->size(), merged->merged, job.store.c_str());
  }
  return failed > 0 ? kExitError : kExitOk;
}

int Work(const MpiIngestJob& job, int rank) {
  uint64_t counts[2] = {0, 0};  // ingested, failed
  MPI_Barrier(MPI_COMM_WORLD);  // rank 0 has folded in what an earlier run left
  {
    const std::string path = PartialStorePath(job.store, rank);
    auto partial = Store::Open(path, StoreMode::kReadWrite);
    Status s = partial.ok() ? CheckStoreScope(**partial, job.rules->rules(), job.repos, job.options.keep_text)
                            : partial.status();
    // The merge carries the layers into the store, as it carries the rules.
    if (s.ok()) s = RecordRuleLayers(**partial, job.rule_layers);
    if (!s.ok()) {
      Fail("rank " + std::to_string(rank) + ": " + s.message());
      MPI_Abort(MPI_COMM_WORLD, kExitError);
    }
    IngestPipeline pipeline(**partial, job.rules, job.repos, job.options);
    while (true) {
      MPI_Send(counts, 2, MPI_UINT64_T, 0, kRequest, MPI_COMM_WORLD);
      MPI_Status status;
      MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
      int length = 0;
      MPI_Get_count(&status, MPI_CHAR, &length);
      std::string file(static_cast<size_t>(length), '\0');
      MPI_Recv(file.data(), length, MPI_CHAR, 0, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (status.MPI_TAG == kNoMoreWork) break;
      for (const FileOutcome& o : pipeline.Run({file})) {
        if (o.result == FileResult::kIngested) ++counts[0];
        if (o.result == FileResult::kFailed) {
          ++counts[1];
          std::fprintf(stderr, "ghsift: rank %d: %s: %s\n", rank, TerminalSafe(o.path).c_str(),
                       TerminalSafe(o.message).c_str());
        }
      }
    }
  }  // the partial store is closed before rank 0 reads it
  MPI_Send(counts, 2, MPI_UINT64_T, 0, kFinished, MPI_COMM_WORLD);
  return kExitOk;
}

}  // namespace

bool MpiAvailable() { return true; }

int RunMpiIngest(const MpiIngestJob& job) {
  MPI_Init(nullptr, nullptr);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int rc = kExitOk;
  if (ranks < 2) {
    rc = Fail("--mpi needs at least 2 ranks (rank 0 hands out files, the others ingest)");
  } else {
    rc = rank == 0 ? Coordinate(job, ranks) : Work(job, rank);
  }
  MPI_Finalize();
  return rc;
}

#endif

}  // namespace ghsift::cli
