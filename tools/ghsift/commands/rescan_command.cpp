// ghsift rescan --store DIR [--rules PATH]...
#include <cstdio>

#include "commands/commands.hpp"
#include "commands/common_options.hpp"
#include "pipelines/rescan.hpp"

namespace ghsift::cli {
namespace {

struct RescanArgs {
  std::string store;
  std::vector<std::string> rules;  //!< layers, in order
};

int RunRescan(const RescanArgs& args) {
  auto rules = LoadRules(args.rules);
  if (!rules.ok()) return Fail(rules.status().message());
  auto store = Store::Open(args.store, StoreMode::kReadWrite);
  if (!store.ok()) return Fail(store.status().message());
  auto summary = Rescan(**store, *rules);
  if (!summary.ok()) return Fail(summary.status().message());
  std::fprintf(stderr, "ghsift: rescanned %llu reports (%llu texts); %llu changed their matched rules\n",
               static_cast<unsigned long long>(summary->reports), static_cast<unsigned long long>(summary->texts),
               static_cast<unsigned long long>(summary->changed));
  return kExitOk;
}

}  // namespace

void AddRescanCommand(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<RescanArgs>();
  CLI::App* cmd = app.add_subcommand("rescan", "Re-apply a (changed) rule set to the report text a --keep-text "
                                               "store kept, updating every aggregate");
  cmd->add_option("--store", args->store, "Store directory")->required();
  AddRulesOption(*cmd, args->rules);
  cmd->callback([args, &exit_code] { exit_code = RunRescan(*args); });
}

}  // namespace ghsift::cli
