// ghsift merge --store DIR PARTIAL...
#include <cstdio>

#include "commands/commands.hpp"
#include "rollup/rollup.hpp"
#include "store/store.hpp"

namespace ghsift::cli {
namespace {

struct MergeArgs {
  std::string store;
  std::vector<std::string> partials;
};

int RunMerge(const MergeArgs& args) {
  auto store = Store::Open(args.store, StoreMode::kReadWrite);
  if (!store.ok()) return Fail(store.status().message());
  int merged = 0, skipped = 0, failed = 0;
  for (const std::string& path : args.partials) {
    auto partial = Store::Open(path, StoreMode::kRead);
    Status s = partial.ok() ? (*store)->MergeFrom(**partial) : partial.status();
    if (s.ok()) {
      ++merged;
    } else if (s.code() == StatusCode::kAlreadyExists) {
      ++skipped;
      std::fprintf(stderr, "ghsift: %s: skipped\n", s.message().c_str());
    } else {
      ++failed;
      std::fprintf(stderr, "ghsift: %s\n", s.message().c_str());
    }
  }
  if (merged > 0) {
    const Status refreshed = SettleStore(**store, true);
    if (!refreshed.ok()) return Fail("refreshing the rollup: " + refreshed.message());
  }
  std::fprintf(stderr, "ghsift: merged %d partial store%s into %s (%d skipped, %d failed)\n", merged,
               merged == 1 ? "" : "s", args.store.c_str(), skipped, failed);
  return failed > 0 ? kExitError : kExitOk;
}

}  // namespace

void AddMergeCommand(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* cmd = app.add_subcommand("merge", "Add partial stores (ingest --partial) to a store, each atomically");
  cmd->add_option("--store", args->store, "Store directory (created if missing)")->required();
  cmd->add_option("partials", args->partials, "Partial store directories")->required();
  cmd->callback([args, &exit_code] { exit_code = RunMerge(*args); });
}

}  // namespace ghsift::cli
