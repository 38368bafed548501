// ghsift merge --store DIR PARTIAL...
#include <chrono>
#include <cstdio>

#include "commands/commands.hpp"
#include "commands/common_options.hpp"
#include "output.hpp"
#include "rollup/rollup.hpp"
#include "store/store.hpp"

namespace ghsift::cli {
namespace {

struct MergeArgs {
  std::string store;
  std::vector<std::string> partials;
  bool timings = false;
};

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int RunMerge(const MergeArgs& args) {
  auto store = Store::Open(args.store, StoreMode::kReadWrite);
  if (!store.ok()) return FailOpening(store.status());
  int merged = 0, skipped = 0, failed = 0, busy = 0;
  std::string copy_times;
  for (const std::string& path : args.partials) {
    // A partial an ingest still writes is left for a later merge: merged now, its files would be
    // in the store and the rest of it could never be merged (a partial merges whole).
    if (const int64_t writer = Store::WriterOf(path); writer != 0) {
      ++busy;
      std::fprintf(stderr, "ghsift: %s: an ingest (process %lld) is still writing this partial store; merge it when "
                   "that ends\n", TerminalSafe(path).c_str(), static_cast<long long>(writer));
      continue;
    }
    const auto start = std::chrono::steady_clock::now();
    auto partial = Store::Open(path, StoreMode::kRead);
    Status s = partial.ok() ? (*store)->MergeFrom(**partial) : partial.status();
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f s", SecondsSince(start));
    copy_times += (copy_times.empty() ? "" : ", ") + std::string(seconds);
    if (s.ok()) {
      ++merged;
    } else if (s.code() == StatusCode::kAlreadyExists) {
      ++skipped;
      std::fprintf(stderr, "ghsift: %s: skipped\n", TerminalSafe(s.message()).c_str());
    } else {
      ++failed;
      std::fprintf(stderr, "ghsift: %s\n", TerminalSafe(s.message()).c_str());
    }
  }
  SettleTimes settle;
  if (merged > 0) {
    const Status refreshed = SettleStore(**store, true, &settle);
    if (!refreshed.ok()) return Fail("refreshing the rollup: " + refreshed.message());
  }
  if (args.timings) {
    std::fprintf(stderr, "ghsift: timings: partials %s; %s\n", copy_times.c_str(), SettleTimesText(settle).c_str());
  }
  const std::string written = busy > 0 ? ", " + std::to_string(busy) + " still written" : "";
  std::fprintf(stderr, "ghsift: merged %d partial store%s into %s (%d skipped, %d failed%s)\n", merged,
               merged == 1 ? "" : "s", args.store.c_str(), skipped, failed, written.c_str());
  return failed > 0 ? kExitError : busy > 0 ? kExitStoreBusy : kExitOk;
}

}  // namespace

void AddMergeCommand(CLI::App& command, int& exit_code) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* cmd = &command;
  cmd->add_option("--store", args->store, "Store directory (created if missing)")->required();
  cmd->add_option("partials", args->partials, "Partial store directories")->required();
  cmd->add_flag("--timings", args->timings,
                "Print where the time went: each partial's copy (open, checks, table files, ingestion), the rollup "
                "refresh, the flush");
  cmd->callback([args, &exit_code] { exit_code = RunMerge(*args); });
}

}  // namespace ghsift::cli
