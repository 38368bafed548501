// The overlay `rules tune --write` writes (engine/eval/rule_overlay.cpp): group names come from
// labeled files, so a quote, a line break or an escape sequence in one must read back as itself,
// add no key and leave no raw control byte in the file.
#include "eval/rule_overlay.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

namespace ghsift {
namespace {

TEST(RuleOverlayTest, HostileGroupNamesReadBackAsThemselves) {
  RuleOverlay overlay;
  overlay.thresholds["performance"] = 1.25;
  FittedLayer fitted;
  fitted.groups = {"own/r\x1b]0;X\x07", "a\rcategories2: {performance: {threshold: 9}}", "q'\"\\", "c1\xc2\x9b"};
  fitted.logo = 0.5;
  const std::string yaml =
      FormatOverlayYaml(overlay, "fitted on " + fitted.groups[0] + " and " + fitted.groups[1], &fitted);
  for (const char raw : {'\x1b', '\x07', '\r'}) EXPECT_EQ(yaml.find(raw), std::string::npos) << yaml;
  const YAML::Node root = YAML::Load(yaml);
  std::vector<std::string> keys;
  for (const auto& entry : root) keys.push_back(entry.first.as<std::string>());
  EXPECT_EQ(keys, (std::vector<std::string>{"rules", "categories", "fitted"}));
  EXPECT_EQ(root["fitted"]["groups"].as<std::vector<std::string>>(), fitted.groups);
  auto parsed = ParseOverlayYaml(yaml, "o.yaml");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->thresholds, overlay.thresholds);
}

}  // namespace
}  // namespace ghsift
