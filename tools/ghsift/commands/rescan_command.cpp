// ghsift rescan --store DIR [--rules PATH]...
#include <cstdio>

#include "commands/commands.hpp"
#include "commands/common_options.hpp"
#include "pipelines/rule_layers_meta.hpp"
#include "common/number_text.hpp"
#include "output.hpp"
#include "pipelines/rescan.hpp"

namespace ghsift::cli {
namespace {

struct RescanArgs {
  std::string store;
  std::vector<std::string> rules;  //!< layers, in order
};

//! The records the rescan left alone because they are no reports: said, so that its count of
//! reports (the store's distinct reports, as `stats` gives them) and the store's records add up.
void PrintReferences(uint64_t references) {
  if (references == 0) return;
  std::fprintf(stderr,
               "ghsift: %s known only as closed by a merged pull request (never seen, no text): no report, left "
               "as %s\n",
               Counted(references, "issue").c_str(), references == 1 ? "it is" : "they are");
}

int RunRescan(const RescanArgs& args) {
  auto rules = LoadRules(args.rules);
  if (!rules.ok()) return Fail(rules.status().message());
  auto store = Store::Open(args.store, StoreMode::kReadWrite);
  if (!store.ok()) return FailOpening(store.status());
  auto summary = Rescan(**store, *rules);
  if (!summary.ok()) return Fail(summary.status().message());
  // The store now decides with these layers: `stats` lists them beside the ingests'.
  const Status layers = RecordRuleLayers(**store, args.rules);
  if (!layers.ok()) return Fail(layers.message());
  const auto n = [](uint64_t v) { return WithCommas(v); };  // as ingest and stats say counts: "10,230"
  if (summary->exact) {
    std::fprintf(stderr, "ghsift: rescanned %s reports (%s texts); %s changed their matched rules\n",
                 n(summary->reports).c_str(), n(summary->texts).c_str(), n(summary->changed).c_str());
    PrintReferences(summary->references);
    return kExitOk;
  }
  // A store without --keep-text kept the latest text of the reports that were flagged: say which
  // rules could be matched again, against what, and what the others keep.
  if (summary->rematched_rules == 0) {
    std::fprintf(stderr,
                 "ghsift: no rule is new or edited since the ingest: every report keeps what it matched then "
                 "(exact), decided with these weights and thresholds; %s changed their matched rules\n",
                 n(summary->changed).c_str());
    PrintReferences(summary->references);
    return kExitOk;
  }
  std::fprintf(stderr,
               "ghsift: %s of %s rules are new or edited since the ingest (pattern, flags, fields, or how this "
               "ghsift reads markdown): matched again against the latest text "
               "of %s of %s reports (title, body and labels as last seen, and their first comments; %s texts); "
               "the other rules keep what they matched at ingest (exact); %s changed their matched rules\n",
               n(summary->rematched_rules).c_str(), n(summary->rules).c_str(),
               n(summary->reports - summary->without_text).c_str(),
               n(summary->reports).c_str(), n(summary->texts).c_str(), n(summary->changed).c_str());
  if (summary->without_text > 0) {
    std::fprintf(stderr,
                 "ghsift: %s reports have no kept text (never flagged): the new or edited rules do not reach them "
                 "(ingest with --keep-text for an exact rescan)\n",
                 n(summary->without_text).c_str());
  }
  PrintReferences(summary->references);
  return kExitOk;
}

}  // namespace

void AddRescanCommand(CLI::App& command, int& exit_code) {
  auto args = std::make_shared<RescanArgs>();
  CLI::App* cmd = &command;
  cmd->add_option("--store", args->store, "Store directory")->required();
  AddRulesOption(*cmd, args->rules);
  cmd->callback([args, &exit_code] { exit_code = RunRescan(*args); });
}

}  // namespace ghsift::cli
