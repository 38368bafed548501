// `ghsift rules learn` end to end on a tiny made-up suite written here: the learned layer names
// the phrase that every group's positives share, records the groups it was fitted on, is the
// same bytes on a second run, and `rules eval` warns when it scores it on those groups.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::ReadText;
using testing::Ghsift;
using testing::RunCommand;

void WriteFile(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

class RulesLearnCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteFile(rules_, "rules:\n"
                      "  - {id: s.nan, tag: silent/nan, pattern: '\\bnan\\b', flags: [caseless]}\n"
                      "  - {id: p.slow, tag: performance/speed, pattern: '\\bslow\\b', flags: [caseless]}\n");
    // In every group two positives say "wrong result" and one "NaN"; "wrong" and "result" alone
    // occur in negatives too, so only the phrase tells.
    for (const std::string group : {"alpha", "beta", "gamma"}) {
      WriteFile(dir_ / (group + ".jsonl"),
                "{\"title\":\"wrong result from conv in " + group + "\",\"class\":1}\n"
                "{\"title\":\"Wrong  result after resize\",\"class\":1}\n"
                "{\"title\":\"NaN in loss\",\"class\":1}\n"
                "{\"title\":\"wrong link in the docs\",\"class\":0}\n"
                "{\"title\":\"result type is not documented\",\"class\":0}\n"
                "{\"title\":\"crash on import\",\"class\":0}\n"
                "{\"title\":\"build fails on mac\",\"class\":0}\n");
    }
    WriteFile(dir_ / "suite.yaml", "sets:\n"
                                   "  - {path: alpha.jsonl, positive: [silent], objective: f1}\n"
                                   "  - {path: beta.jsonl, positive: [silent], objective: f1}\n"
                                   "  - {path: gamma.jsonl, positive: [silent], objective: f1}\n");
  }
  std::string Learn(const std::string& out) const {
    return Ghsift() + " rules learn --rules " + rules_ + " --suite " + (dir_ / "suite.yaml") + " --data " + dir_.path() +
           " --positive silent --min-reports 2 --write " + out;
  }
  testing::TempDir dir_;
  std::string rules_ = dir_ / "r.yaml";
};

TEST_F(RulesLearnCliTest, WritesThePhraseAsARuleWithTheGroupsItWasFittedOn) {
  const std::string layer = dir_ / "learned.yaml";
  auto r = RunCommand(Learn(layer));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string yaml = ReadText(layer);
  EXPECT_NE(yaml.find("  - {id: learned.silent.wrong-result, tag: silent/learned, pattern: '\\bwrong\\s+result\\b', "
                      "fields: [title, body], flags: [caseless], weight: "),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("\nfitted:\n  groups: [\"alpha\", \"beta\", \"gamma\"]\n  logo: "), std::string::npos) << yaml;
  // What the fit read: the digests the command's provenance line names, and its version.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.output, m, std::regex("^provenance: ghsift ([0-9.]+); rule set ([0-9a-f]{16}) "
                                                         "[^;]*; data 3 files, [0-9]+ B, digest ([0-9a-f]{16}) ")))
      << r.output;
  EXPECT_NE(yaml.find("  data: \"" + std::string(m[3]) + "\"\n  rules: \"" + std::string(m[2]) + "\"\n  ghsift: \"" +
                      std::string(m[1]) + "\"\n"),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("\ncategories:\n  silent: {threshold: 1.00}\n"), std::string::npos) << yaml;  // as written
  // Held out in turn, each group gets all three positives and no false positive.
  EXPECT_NE(r.output.find("mean over 3 groups: as written 0.500, LOGO 1.000"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("mean LOGO through the engine: 1.000 (the fit: 1.000); every figure agrees"),
            std::string::npos)
      << r.output;
  // Same input, same bytes.
  const std::string again = dir_ / "again.yaml";
  ASSERT_EQ(RunCommand(Learn(again)).exit_code, 0);
  EXPECT_EQ(ReadText(again), yaml);
  // Scored on the groups it was fitted on, the layer's figures are in-sample: rules eval says so.
  r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + " --rules " + layer + " --suite " +
                 (dir_ / "suite.yaml") + " --data " + dir_.path());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Careful: " + layer + " was fitted (`rules tune` or `rules learn`) on groups scored here "
                          "(alpha, beta, gamma)"),
            std::string::npos)
      << r.output;
}

// A fourth group whose "wrong result" reports are not silent bugs: learning the phrase raises the
// mean over groups, but that group falls by 0.333 at every lambda. With --max-drop 0.02 no lambda
// is good enough: nothing is written, exit 1.
TEST_F(RulesLearnCliTest, MaxDropRefusesALayerThatLowersAGroup) {
  WriteFile(dir_ / "delta.jsonl", "{\"title\":\"NaN in output\",\"class\":1}\n"
                                  "{\"title\":\"nan after one step\",\"class\":1}\n"
                                  "{\"title\":\"wrong result in the docs example\",\"class\":0}\n"
                                  "{\"title\":\"wrong result formatting\",\"class\":0}\n"
                                  "{\"title\":\"crash on exit\",\"class\":0}\n");
  WriteFile(dir_ / "suite.yaml", ReadText(dir_ / "suite.yaml") + "  - {path: delta.jsonl, positive: [silent], objective: f1}\n");
  const std::string layer = dir_ / "learned.yaml";
  auto r = RunCommand(Learn(layer));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(ReadText(layer).find("id: learned.silent.wrong-result,"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("mean over 4 groups: as written 0.625, LOGO 0.917"), std::string::npos) << r.output;
  const std::string gated = dir_ / "gated.yaml";
  r = RunCommand(Learn(gated) + " --max-drop 0.02");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("0.917  0.333 (over)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("No lambda keeps every group within 0.020 of the rules as written: nothing is learned, "
                          "nothing written."),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(gated));
}

TEST_F(RulesLearnCliTest, RefusesWhatItCannotEstimate) {
  WriteFile(dir_ / "one.yaml", "sets:\n  - {path: alpha.jsonl, positive: [silent], objective: f1}\n");
  auto r = RunCommand(Ghsift() + " rules learn --rules " + rules_ + " --suite " + (dir_ / "one.yaml") + " --data " +
                      dir_.path() + " --positive silent");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("ghsift: rules learn: 1 group(s) labeled for silent; leave-one-group-out needs two or more"),
            std::string::npos)
      << r.output;
  r = RunCommand(Learn(dir_ / "x.yaml") + " --fields title,code");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--fields: 'code' is not one of title, body, comment"), std::string::npos) << r.output;
}

// A union is read as `rules eval` reads it and refused in one line saying why (before: "--positive
// names one category"); one category given twice, with spaces, is that category.
TEST_F(RulesLearnCliTest, AUnionLabelIsRefusedSayingWhatWorks) {
  const std::string base = Ghsift() + " rules learn --rules " + rules_ + " --suite " + (dir_ / "suite.yaml") +
                           " --data " + dir_.path() + " --min-reports 2 --write " + (dir_ / "x.yaml");
  auto r = RunCommand(base + " --positive 'silent, performance'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.output,
            "ghsift: rules learn: --positive performance,silent is a union label, as rules eval scores it, but a "
            "learned layer holds one category's phrases and weights: give --positive performance or silent\n");
  r = RunCommand(base + " --positive 'silent, silent'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(ReadText(dir_ / "x.yaml").find("silent"), std::string::npos);
}

}  // namespace
}  // namespace ghsift
