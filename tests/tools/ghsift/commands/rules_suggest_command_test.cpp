// `ghsift rules suggest --positive`: read as `rules eval` reads it (a comma list, spaces trimmed,
// a name given twice counted once), and a union label (which eval scores as one target) refused
// in one line that says why and what works, never mined as one of its categories.
#include <gtest/gtest.h>

#include <fstream>

#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::Ghsift;
using testing::RunCommand;

class RulesSuggestCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ofstream(rules_) << "rules:\n"
                             "  - {id: p.slow, tag: performance/low-speed, pattern: '\\bslow\\b'}\n"
                             "  - {id: a.low, tag: accuracy/low, pattern: '\\baccuracy\\b'}\n";
    // Labeled as MHNurf is: 1 = performance or accuracy.
    std::ofstream(labels_) << "{\"title\":\"slow fit\",\"class\":1}\n"
                              "{\"title\":\"low accuracy after fit\",\"class\":1}\n"
                              "{\"title\":\"docs typo\",\"class\":0}\n";
  }
  std::string Suggest(const std::string& positive) const {
    return Ghsift() + " rules suggest --rules " + rules_ + " --labels " + labels_ + " --min-positive 1 --positive '" +
           positive + "'";
  }
  testing::TempDir dir_;
  std::string rules_ = dir_ / "r.yaml";
  std::string labels_ = dir_ / "union.jsonl";
};

TEST_F(RulesSuggestCommandTest, AUnionLabelIsRefusedInOneLineAsEvalNamesIt) {
  // rules eval takes the union as one target and names it so.
  const auto eval = RunCommand(Ghsift() + " rules eval --rules " + rules_ + " --labels " + labels_ +
                               " --positive 'performance, accuracy'");
  ASSERT_EQ(eval.exit_code, 0) << eval.output;
  EXPECT_NE(eval.output.find("== rules as written, positive accuracy,performance =="), std::string::npos)
      << eval.output;
  // Before: "ghsift: rules suggest: --positive names one category", which said neither why nor what works.
  const auto r = RunCommand(Suggest("performance, accuracy"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.output,
            "ghsift: rules suggest: --positive accuracy,performance is a union label, as rules eval scores it, but a "
            "suggested rule carries one category: give --positive accuracy or performance (a set labeled with the "
            "union goes in a --suite entry with positive: [accuracy, performance]: suggest mines it when no set is "
            "labeled for the category alone, and says so)\n");
  const auto three = RunCommand(Suggest("silent,performance,accuracy"));
  EXPECT_EQ(three.exit_code, 2);
  EXPECT_EQ(three.output.rfind("ghsift: rules suggest: --positive accuracy,performance,silent is a union label, "
                               "as rules eval scores it, but a suggested rule carries one category: give --positive "
                               "accuracy, performance or silent (",
                               0),
            0u)
      << three.output;
  const auto none = RunCommand(Suggest(" "));
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.output, "ghsift: rules suggest: --positive names one category\n");
}

TEST_F(RulesSuggestCommandTest, OneCategoryIsReadAsEvalReadsIt) {
  // Before: " performance" was "no rule has category ' performance'" and "performance,performance"
  // was refused as more than one category; eval takes both as performance.
  for (const std::string positive : {" performance", "performance,performance", "performance"}) {
    const auto r = RunCommand(Suggest(positive));
    EXPECT_EQ(r.exit_code, 0) << positive << "\n" << r.output;
    // Right after the provenance line (what the phrases were mined from).
    EXPECT_EQ(r.output.find("Phrases of the title that separate performance reports from the others, mined on "
                            "union: 2 positive (1 matched by no performance rule yet), 1 negative.\n"),
              r.output.find('\n') + 1)
        << positive << "\n"
        << r.output;
  }
}

}  // namespace
}  // namespace ghsift
