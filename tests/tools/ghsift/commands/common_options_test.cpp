// Every command that takes --rules loads its layers through one place (LoadRuleLayers, reached
// from common_options' LoadRules and LoadRuleLayersOrDefault): an overlay given alone gets the same
// one line from each of them, the line that says to give the base first.
#include <gtest/gtest.h>

#include <fstream>
#include <vector>

#include "rules/rule_set.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::Ghsift;
using testing::RunCommand;

TEST(CommonOptionsTest, EveryCommandTakingRulesSaysAnOverlayGoesOnARuleSet) {
  testing::TempDir dir;
  const std::string overlay = dir / "overlay.yaml";
  // As `rules tune --write` writes it: a threshold and a weight, no rule of its own.
  std::ofstream(overlay) << "categories:\n  performance: {threshold: 1.5}\nrules:\n"
                            "  - {id: perf.speed.title-slow, weight: 0.5}\n";
  std::ofstream(dir / "labels.jsonl") << "{\"title\":\"slow fit\",\"class\":1}\n{\"title\":\"docs\",\"class\":0}\n";
  std::ofstream(dir / "2016-01-01-0.json") << "";
  const std::string labels = " --labels " + (dir / "labels.jsonl");
  const std::vector<std::string> commands = {
      "rules check",
      "rules eval" + labels,
      "rules tune" + labels,
      "rules suggest --positive performance" + labels,
      "rules learn --positive performance" + labels,
      "rules explain --title slow",
      "rules bench " + (dir / "2016-01-01-0.json"),
      "ingest --store " + (dir / "store") + " " + (dir / "2016-01-01-0.json"),
      "rescan --store " + (dir / "store"),
  };
  // Before: "ghsift: <overlay>: rule 'perf.speed.title-slow': missing 'pattern' (an entry without
  // one overrides a rule of an earlier --rules layer, and none defines 'perf.speed.title-slow')",
  // and with thresholds alone "...: threshold for category 'performance', which no rule has; the
  // categories: " (an empty list).
  const std::string want = "ghsift: --rules " + overlay + " holds no categories: an overlay is layered on a rule set, "
                           "give the base first: --rules " + DefaultRulesPath() + " --rules " + overlay +
                           " (or begin it with 'base: default')\n";
  for (const std::string& command : commands) {
    const auto r = RunCommand(Ghsift() + " " + command + " --rules " + overlay);
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_EQ(r.output, want) << command;
  }
  // On the rule set it goes on, the overlay loads.
  const auto layered = RunCommand(Ghsift() + " rules check --rules " + DefaultRulesPath() + " --rules " + overlay);
  EXPECT_EQ(layered.exit_code, 0) << layered.output;
}

}  // namespace
}  // namespace ghsift
