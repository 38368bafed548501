// The default rules (rules/) on reports written for this test, one symptom each, as a reporter
// would phrase it: tests/data/rule_examples.jsonl says which topics each speaks of. A rule edit
// that loses one of these symptoms, or flags a crash, an import error, a feature request or a
// typo, fails here before the labeled suite is even run. The silent topic includes silent
// slow-downs and memory growth, as the silent-bug study's scenarios do.
#include <gtest/gtest.h>

#include <string>

#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::Ghsift;
using testing::RunCommand;

struct Expected {
  const char* category;
  int positives;
  int negatives;
};

TEST(DefaultRuleExamplesTest, EveryExampleIsFlaggedAsLabeled) {
  const std::string source = GHSIFT_SOURCE_DIR;
  auto eval = [&](const std::string& category, const std::string& how) {
    return RunCommand(Ghsift() + " rules eval --rules '" + source + "/rules' --labels '" + source +
                      "/tests/data/rule_examples.jsonl' --positive " + category + " --label-key " + category + " " + how);
  };
  for (const Expected& e : {Expected{"performance", 4, 16}, Expected{"accuracy", 6, 14}, Expected{"silent", 11, 9}}) {
    const auto r = eval(e.category, "--format json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::string counts = "\"in_sample\": {\"tp\": " + std::to_string(e.positives) +
                               ", \"fp\": 0, \"fn\": 0, \"tn\": " + std::to_string(e.negatives) + ",";
    EXPECT_NE(r.output.find(counts), std::string::npos)
        << e.category << ": expected " << counts << "\n"
        << eval(e.category, "--show fp").output << eval(e.category, "--show fn").output;
  }
}

}  // namespace
}  // namespace ghsift
