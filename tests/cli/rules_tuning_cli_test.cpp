// `ghsift rules eval|tune|suggest` end to end on small labeled files written here, and once on
// the real labeled suite in ../shared/data/labeled when it is present.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "eval/rule_overlay.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::Ghsift;
using testing::RunCommand;

void WriteFile(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

class RulesTuningCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteFile(rules_, "rules:\n"
                      "  - {id: p.slow, tag: performance/low-speed, pattern: '\\bslow\\b', flags: [caseless]}\n"
                      "  - {id: p.leak, tag: performance/memory, pattern: '\\bleak\\b', weight: 0.5}\n");
    // Group "alpha": both positives say only "leak" (0.5 < 1.0). Group "beta": "slow" is right.
    WriteFile(dir_ / "alpha.jsonl", "{\"title\":\"a leak in fit\",\"class\":1}\n"
                                    "{\"title\":\"leak after epoch\",\"class\":1}\n"
                                    "{\"title\":\"docs typo\",\"class\":0}\n");
    WriteFile(dir_ / "beta.jsonl", "{\"title\":\"slow predict\",\"class\":1}\n"
                                   "{\"title\":\"a leak question\",\"class\":0}\n"
                                   "{\"title\":\"build fails\",\"class\":0}\n");
  }
  std::string Labels() const { return " --positive performance --labels " + (dir_ / "alpha.jsonl") + " " + (dir_ / "beta.jsonl"); }
  testing::TempDir dir_;
  std::string rules_ = dir_ / "r.yaml";
};

TEST_F(RulesTuningCliTest, EvalPrintsLeaveOneGroupOutBeforeInSample) {
  auto r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + Labels() + " --objective f1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // alpha held out: beta alone keeps 1.0 (0.5 would flag its "leak question"): alpha gets 0 of 2
  // and flags nothing (precision 0/0: n/a).
  // beta held out: alpha alone asks for 0.5, which flags beta's negative: precision 0.5.
  EXPECT_NE(r.output.find("alpha         3          2        n/a        0.000    0.000          0.250"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("beta          3          1      0.500        1.000    0.667          0.667"), std::string::npos)
      << r.output;
  EXPECT_LT(r.output.find("LOGO prec"), r.output.find("in-sample prec"));
  // The intervals: alpha's F1 is 0 in every resample; beta's one positive is always found and
  // its resampled two negatives hold 0, 1 or 2 copies of the false positive (F1 1, 0.667, 0.5).
  EXPECT_NE(r.output.find("0.250  [0.000, 0.000]"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("0.667  [0.500, 1.000]"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("mean over 2 groups: LOGO 0.333 (95% CI [0.250, 0.500]), in-sample 0.500"),
            std::string::npos)
      << r.output;
}

// A figure in a paper names what produced it: the first line says the ghsift version, the rule
// set's digest (the one `stats` shows for a store ingested with the same rules), the data's
// digest (of the files' content, wherever they lie) and the bootstrap. JSON lists each file.
TEST_F(RulesTuningCliTest, EvalStatesWhereItsFiguresCameFrom) {
  const std::regex first_line(
      "^provenance: ghsift [0-9]+\\.[0-9]+\\.[0-9]+; rule set ([0-9a-f]{16}) \\(custom\\); data 2 files, "
      "[0-9]+ B, digest ([0-9a-f]{16}) \\(--format json lists each\\); bootstrap 1,000 resamples, seed 20240101\n");
  auto r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + Labels());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.output, m, first_line)) << r.output;
  const std::string rules_digest = m[1], data_digest = m[2];

  // The same rules give the same digest in `stats` of a store they built.
  const std::string dump = dir_ / "2016-01-01-0.json";
  WriteFile(dump, "{\"id\":\"1\",\"type\":\"WatchEvent\",\"actor\":{\"id\":1,\"login\":\"a\"},\"repo\":{\"id\":7,"
                  "\"name\":\"o/r\",\"url\":\"https://api.github.com/repos/o/r\"},\"payload\":{\"action\":\"started\"},"
                  "\"public\":true,\"created_at\":\"2016-01-01T00:00:00Z\"}\n");
  const std::string store = dir_ / "store";
  r = RunCommand(Ghsift() + " ingest -q --all-repos --rules " + rules_ + " --store " + store + " " + dump);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = RunCommand(Ghsift() + " stats --store " + store);
  EXPECT_NE(r.output.find("rule set     " + rules_digest + " (custom)"), std::string::npos) << rules_digest << "\n" << r.output;

  // The data's digest follows the content, not the path: copies elsewhere give the same one,
  // one changed label another.
  std::filesystem::create_directories(dir_ / "copy");
  std::filesystem::copy_file(dir_ / "alpha.jsonl", dir_ / "copy/alpha.jsonl");
  std::filesystem::copy_file(dir_ / "beta.jsonl", dir_ / "copy/beta.jsonl");
  const std::string copies = " --positive performance --labels " + (dir_ / "copy/alpha.jsonl") + " " + (dir_ / "copy/beta.jsonl");
  r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + copies);
  ASSERT_TRUE(std::regex_search(r.output, m, first_line)) << r.output;
  EXPECT_EQ(m[2], data_digest);
  WriteFile(dir_ / "copy/beta.jsonl", "{\"title\":\"slow predict\",\"class\":1}\n"
                                      "{\"title\":\"a leak question\",\"class\":1}\n"
                                      "{\"title\":\"build fails\",\"class\":0}\n");
  r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + copies);
  ASSERT_TRUE(std::regex_search(r.output, m, first_line)) << r.output;
  EXPECT_NE(m[2], data_digest);

  // JSON: each file with its size; a baseline is named too (in the table).
  r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + Labels() + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string alpha_entry = "{\"path\": \"" + (dir_ / "alpha.jsonl") + "\", \"files\": 1, \"bytes\": " +
                                  std::to_string(std::filesystem::file_size(dir_ / "alpha.jsonl")) + ", \"crc64\": \"";
  EXPECT_NE(r.output.find(alpha_entry), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"rules_digest\": \"" + rules_digest + "\", \"default_rules\": false, \"data_digest\": \"" +
                          data_digest + "\""),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("\"bootstrap\": {\"resamples\": 1000, \"level\": 0.95, \"seed\": 20240101}"), std::string::npos)
      << r.output;
  // A directory of issue objects counts as one source of all its files.
  std::filesystem::create_directories(dir_ / "issues");
  WriteFile(dir_ / "issues/1.json", "{\"title\": \"slow\"}");
  WriteFile(dir_ / "issues/2.json", "{}");
  r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + Labels() + " --issue-dir " + (dir_ / "issues") +
                 " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("{\"path\": \"" + (dir_ / "issues") + "\", \"files\": 2, \"bytes\": 19, \"crc64\": \""),
            std::string::npos)
      << r.output;
  const std::string before = dir_ / "before.yaml";
  WriteFile(before, "rules:\n  - {id: p.slow, tag: performance/low-speed, pattern: '\\bslow\\b', flags: [caseless]}\n");
  r = RunCommand(Ghsift() + " rules eval --speed-seconds 0 --rules " + rules_ + " --baseline " + before + Labels());
  EXPECT_TRUE(std::regex_search(r.output, std::regex("^provenance: [^\n]*; rule set " + rules_digest +
                                                     " \\(custom\\), baseline [0-9a-f]{16}; data ")))
      << r.output;
}

// The last column is what a rule set must beat: the group's objective for the better of flagging
// every report and flagging none. F1: alpha holds 2 positives of 3 (flag all: 2*2/(2+3) = 0.8),
// beta 1 of 3 (0.5). Macro-F1: alpha's best is flagging all ((0.8 + 0) / 2 = 0.4), beta's is
// flagging none ((0 + 2*2/(2*2+1)) / 2 = 0.4).
TEST_F(RulesTuningCliTest, EvalPrintsTheConstantAnswerToBeat) {
  auto r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + Labels() + " --objective f1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("in-sample macro-F1  constant\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("0.250     0.800\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1.000     0.500\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("in-sample 0.500; constant (all or none flagged, the better) 0.650)"), std::string::npos)
      << r.output;
  r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + Labels());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("constant (all or none flagged, the better) 0.400)"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + Labels() + " --objective f1 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\"constant\": 0.800}"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"mean_constant\": 0.650"), std::string::npos) << r.output;
}

// A word list is the other reference: "leak" finds alpha's two positives and nothing else there
// (F1 1.0), and in beta only the negative "a leak question" (F1 0). Its mean is set beside LOGO's
// over the same groups.
TEST_F(RulesTuningCliTest, EvalScoresAWordListBesideTheRules) {
  WriteFile(dir_ / "words.txt", "# a comment\nleak\n");
  const std::string reference = " --reference performance=" + (dir_ / "words.txt");
  auto r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + Labels() + " --objective f1" + reference);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("in-sample macro-F1  word list         LOGO - word list  constant\n"), std::string::npos)
      << r.output;
  // Each group's margin with its paired interval, in its row; the pooled row leaves it to the
  // summary line.
  EXPECT_NE(r.output.find("      1.000  -1.000 [-1.000, -1.000]     0.800\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("      0.000    +0.667 [0.500, 1.000]     0.500\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("      0.667                              0.667\n"), std::string::npos) << r.output;
  // The margin of LOGO over the list, with its paired interval (the same draws for both).
  EXPECT_NE(r.output.find("in-sample 0.500; word list 0.500 (LOGO - word list -0.167, paired 95% CI [-0.250, 0.000]); "
                          "constant (all or none flagged, the better) 0.650)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("summary: reference word lists: 0.500 over the 2 groups they cover, where LOGO is 0.333 "
                          "(LOGO - word list -0.167, paired 95% CI [-0.250, 0.000])\n"),
            std::string::npos)
      << r.output;
  r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + Labels() + " --objective f1 --format json" + reference);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // Each group's margin with its paired interval: in alpha the list is right where LOGO is wrong
  // on every draw (-1); in beta LOGO's F1 0.667 against the list's 0.
  EXPECT_NE(r.output.find("\"word_list\": 1.000, \"logo_minus_word_list_ci95\": [-1.000, -1.000], \"constant\": 0.800}"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("\"word_list\": 0.000, \"logo_minus_word_list_ci95\": [0.500, 1.000], \"constant\": 0.500}"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("\"word_list_groups\": 2, \"mean_word_list\": 0.500, \"mean_logo_on_word_list_groups\": 0.333, "
                          "\"mean_logo_minus_word_list_ci95\": [-0.250, 0.000]"),
            std::string::npos)
      << r.output;
  // The same as one row per group, for a notebook: a figure that cannot be computed is empty.
  r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + Labels() + " --objective f1 --format csv" + reference);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("group,positive,objective,reports,positives,rules_left_out,logo_precision,logo_recall,"
                          "logo_f1,logo_macro_f1,logo_objective,logo_ci_low,logo_ci_high,in_sample_precision,"
                          "in_sample_recall,in_sample_f1,in_sample_macro_f1,in_sample_objective,word_list,"
                          "logo_minus_word_list_ci_low,logo_minus_word_list_ci_high,constant\n"
                          "alpha,performance,f1,3,2,0,,0.000,0.000,0.250,0.000,0.000,0.000,,0.000,0.000,0.250,0.000,"
                          "1.000,-1.000,-1.000,0.800\n"),
            std::string::npos)
      << r.output;
  r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + Labels() + " --reference performance");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("give CATEGORY=FILE"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + Labels() + " --reference performance=" +
                 (dir_ / "none.txt"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("none.txt: cannot read the word list"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + Labels() + " --reference perfomance=" +
                 (dir_ / "words.txt"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("word list for 'perfomance' (" + (dir_ / "words.txt") +
                          "): no labeled group is scored on that category"),
            std::string::npos)
      << r.output;
}

// The gate a rule change must pass (--baseline): each group's held-out figure before and after,
// the change with its paired interval, and exit 1 when the mean does not rise or a group falls.
// Here "leak" weighs 1.0 instead of 0.5: alpha's two positives are found, beta does not move.
TEST_F(RulesTuningCliTest, BaselineGateShowsEachChangeWithItsPairedInterval) {
  const std::string changed = dir_ / "r2.yaml";
  WriteFile(changed, "rules:\n"
                     "  - {id: p.slow, tag: performance/low-speed, pattern: '\\bslow\\b', flags: [caseless]}\n"
                     "  - {id: p.leak, tag: performance/memory, pattern: '\\bleak\\b', weight: 1.0}\n");
  auto r = RunCommand(Ghsift() + " rules eval --rules " + changed + " --baseline " + rules_ + Labels() +
                      " --objective f1 --speed-seconds 0.01");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // Beside the gate, what the change costs every ingest's rule scan, timed alternately.
  EXPECT_TRUE(std::regex_search(
      r.output, std::regex("\nscan speed \\(every field of these reports, one thread\\): this set, against the "
                           "baseline, at [0-9]+\\.[0-9]{2} times its speed, (not told apart from the noise|faster|"
                           "slower) \\(timings of one set spread \\+-[0-9]+\\.[0-9]%; 5 alternating timings each, "
                           "medians\\)\n")))
      << r.output;
  EXPECT_NE(r.output.find("group  positive     objective  before  after  change   change 95% CI\n"
                          "-----  -----------  ---------  ------  -----  ------  --------------\n"
                          "alpha  performance  F1          0.000  1.000  +1.000  [1.000, 1.000]\n"
                          "beta   performance  F1          0.667  0.667  +0.000  [0.000, 0.000]\n"
                          "mean                            0.333  0.833  +0.500  [0.500, 0.500]\n"
                          "gate: pass (the mean rises, +0.500, paired 95% CI [0.500, 0.500])\n"),
            std::string::npos)
      << r.output;
  // The other way round the mean falls and so does alpha, by more than --gate-drop.
  r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + " --baseline " + changed + Labels() + " --objective f1 --speed-seconds 0");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("gate: FAIL (the mean does not rise, -0.500, paired 95% CI [-0.500, -0.500]; falling by more "
                          "than 0.020: alpha -1.000)\n"),
            std::string::npos)
      << r.output;
  // Report by report: alpha's two positives are found where they were missed.
  r = RunCommand(Ghsift() + " rules eval --rules " + changed + " --baseline " + rules_ + Labels() +
                 " --objective f1 --show changes --speed-seconds 0");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Reports whose leave-one-group-out decision the change flips:\n"
                          "  alpha  found  #0  a leak in fit\n"
                          "  alpha  found  #0  leak after epoch\n\n"),
            std::string::npos)
      << r.output;
  r = RunCommand(Ghsift() + " rules eval --rules " + changed + Labels() + " --show changes");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--show changes compares with --baseline"), std::string::npos) << r.output;
  // The same rules on both sides: nothing changes, and nothing passes.
  r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + " --baseline " + rules_ + Labels() + " --objective f1 --speed-seconds 0");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("gate: FAIL (the mean does not rise, +0.000, paired 95% CI [0.000, 0.000])\n"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("scan speed"), std::string::npos) << r.output;  // --speed-seconds 0
  r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + " --baseline " + rules_ + Labels() + " --speed-seconds -1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("ghsift: --speed-seconds: must be a number of at least 0, not '-1'"), std::string::npos)
      << r.output;
}

// A group without a positive report has no F1 (0/0): shown as n/a and left out of the mean, which
// would otherwise count a group the rules got all right as 0. One group alone holds nothing out.
TEST_F(RulesTuningCliTest, GroupsWithoutPositivesAndASingleGroupAreSaidSo) {
  WriteFile(dir_ / "gamma.jsonl", "{\"title\":\"docs\",\"class\":0}\n{\"title\":\"readme\",\"class\":0}\n");
  auto r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + Labels() + " " + (dir_ / "gamma.jsonl") +
                      " --objective f1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("mean over 2 groups, leaving out 1 without a positive report (F1 n/a): LOGO 0.333 (95% "
                          "CI [0.250, 0.500]), in-sample 0.500"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("gamma         2          0        n/a          n/a      n/a          0.500"), std::string::npos)
      << r.output;
  r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + " --positive performance --labels " +
                 (dir_ / "beta.jsonl"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // Right after the provenance line, before any figure.
  EXPECT_EQ(r.output.find("One group (beta): nothing can be held out, so the LOGO columns are the rule set as "
                          "written"),
            r.output.find('\n') + 1)
      << r.output;
}

// A suite names each set's positive categories and label key: the --labels options that would be
// ignored with --suite are errors. rules suggest's --positive (the category to mine) is not one;
// it mines the sets labeled for that category alone when there are some.
TEST_F(RulesTuningCliTest, SuiteOptionsAreNotSilentlyIgnored) {
  WriteFile(dir_ / "gamma.jsonl", "{\"title\":\"accuracy is low\",\"class\":1}\n{\"title\":\"docs\",\"class\":0}\n");
  WriteFile(dir_ / "suite.yaml", "sets:\n  - {path: alpha.jsonl, positive: [performance]}\n"
                                 "  - {path: beta.jsonl, positive: [performance]}\n"
                                 "  - {path: gamma.jsonl, positive: [performance, accuracy]}\n");
  WriteFile(dir_ / "both.yaml", "rules:\n  - {id: p.slow, tag: performance/low-speed, pattern: '\\bslow\\b'}\n"
                                "  - {id: a.low, tag: accuracy/low, pattern: '\\baccuracy\\b'}\n");
  const std::string suite =
      " --rules " + (dir_ / "both.yaml") + " --suite " + (dir_ / "suite.yaml") + " --data " + dir_.path();
  auto r = RunCommand(Ghsift() + " rules eval" + suite + " --positive accuracy");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("ghsift: --positive goes with --labels; a suite gives it per set"), std::string::npos)
      << r.output;
  r = RunCommand(Ghsift() + " rules tune" + suite + " --label-key other");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("ghsift: --label-key goes with --labels"), std::string::npos) << r.output;
  r = RunCommand(Ghsift() + " rules suggest" + suite + " --positive performance --min-positive 1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("mined on alpha, beta: 3 positive"), std::string::npos) << r.output;
}

TEST_F(RulesTuningCliTest, TuneWritesAnOverlayThatReproducesTheFit) {
  const std::string overlay = dir_ / "overlay.yaml";
  auto r = RunCommand(Ghsift() + " rules tune --weights --objective f1 --rules " + rules_ + Labels() + " --write " +
                      overlay);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(overlay);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.rfind("# Overlay fitted by `ghsift rules tune --weights`", 0), 0u) << text;
  EXPECT_NE(text.find("# Leave-one-group-out estimate (mean of each group's objective): "), std::string::npos) << text;
  // p.leak to 1.0 would flag beta's negative; leaving threshold 1.0 and p.leak at 0.5 misses
  // alpha: the fit lowers the threshold to 0.5 and p.slow is untouched (it never errs).
  auto parsed = ParseOverlayYaml(text, overlay);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->thresholds, (std::map<std::string, double>{{"performance", 0.5}}));
  EXPECT_EQ(parsed->weights.count("p.slow"), 0u);
  EXPECT_NE(r.output.find("wrote " + overlay), std::string::npos);
  EXPECT_NE(text.find("\nfitted:\n  groups: [\"alpha\", \"beta\"]\n  logo: "), std::string::npos) << text;
  // What the fit read, as the command's own provenance line names it.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.output, m, std::regex("^provenance: ghsift ([0-9.]+); rule set ([0-9a-f]{16}) "
                                                         "\\(custom\\); data 2 files, [0-9]+ B, digest ([0-9a-f]{16}) ")))
      << r.output;
  const std::string data_digest = m[3];
  EXPECT_NE(text.find("  data: \"" + data_digest + "\"\n  rules: \"" + std::string(m[2]) + "\"\n  ghsift: \"" +
                      std::string(m[1]) + "\"\n"),
            std::string::npos)
      << text;
  // Scored again on the groups it was fitted on, the overlay's figures are in-sample: said so,
  // and that these are the very reports it saw.
  r = RunCommand(Ghsift() + " rules eval --objective f1 --rules " + rules_ + " --rules " + overlay + Labels());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Careful: " + overlay + " was fitted (`rules tune` or `rules learn`) on groups scored here (alpha, beta), "
                          "on this very data (digest " + data_digest + "): on them even the LOGO columns are in-sample."),
            std::string::npos)
      << r.output;
  // Other reports under the same groups' names: the note says the data differs.
  std::filesystem::create_directories(dir_ / "other");
  WriteFile(dir_ / "other/alpha.jsonl", "{\"title\":\"a leak in fit\",\"class\":1}\n{\"title\":\"docs\",\"class\":0}\n");
  WriteFile(dir_ / "other/beta.jsonl", "{\"title\":\"slow predict\",\"class\":1}\n{\"title\":\"build\",\"class\":0}\n");
  r = RunCommand(Ghsift() + " rules eval --objective f1 --rules " + rules_ + " --rules " + overlay +
                 " --positive performance --labels " + (dir_ / "other/alpha.jsonl") + " " + (dir_ / "other/beta.jsonl"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("on groups scored here (alpha, beta), in other data (digest " + data_digest + "; here "),
            std::string::npos)
      << r.output;
  // Wrong grid values are refused with what is wanted.
  r = RunCommand(Ghsift() + " rules tune --step 0 --rules " + rules_ + Labels());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("ghsift: --step: must be a number above 0, not '0'"), std::string::npos) << r.output;
}

TEST_F(RulesTuningCliTest, LabelsWithoutTheLabelKeyAreAnError) {
  auto r = RunCommand(Ghsift() + " rules eval --rules " + rules_ + Labels() + " --label-key nosuch");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(dir_ / "alpha.jsonl" + ": no record has the label key 'nosuch'"), std::string::npos)
      << r.output;
}

TEST_F(RulesTuningCliTest, SuggestListsPhrasesWithPatternsAndHoldout) {
  WriteFile(dir_ / "gamma.jsonl", "{\"title\":\"memory leak grows\",\"class\":1}\n"
                                  "{\"title\":\"memory leak in loader\",\"class\":1}\n"
                                  "{\"title\":\"memory leak again\",\"class\":1}\n"
                                  "{\"title\":\"docs for memory\",\"class\":0}\n");
  auto r = RunCommand(Ghsift() + " rules suggest --positive performance --rules " + rules_ + " --labels " +
                      (dir_ / "gamma.jsonl") + " " + (dir_ / "alpha.jsonl") + " --holdout alpha --top 1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("mined on gamma: 3 positive (0 matched by no performance rule yet), 1 negative"),
            std::string::npos)
      << r.output;
  // "memory" is in the negative too; "leak" (also matched by p.leak) and "memory leak" are not.
  // Held-out alpha: the pattern \bleak\b finds both of its positives and nothing else.
  EXPECT_NE(r.output.find("1  leak    0.743     1.417    3    0          0             2            2         1.000"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("(cut: 1 more phrases with z > 0 in at least 3 positives; --top N shows more)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("  - {id: perf.suggested.leak, tag: performance, pattern: '\\bleak\\b', fields: [title], "
                          "flags: [caseless]}"),
            std::string::npos)
      << r.output;
  r = RunCommand(Ghsift() + " rules suggest --rules " + rules_ + Labels() + " --holdout nosuch");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--holdout: no group 'nosuch' with positive category performance"), std::string::npos);
}

TEST(RulesTuningRealDataTest, EveryGroupOfTheSuiteGetsALeaveOneGroupOutEstimate) {
  const std::string data = std::string(GHSIFT_SOURCE_DIR) + "/../shared/data/labeled";
  if (!std::filesystem::is_directory(data)) GTEST_SKIP() << data << " is absent";
  auto r = RunCommand(Ghsift() + " rules eval --suite " + GHSIFT_SOURCE_DIR + "/tools/labeled_suite.yaml --data " +
                      data + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* group : {"caffe", "incubator-mxnet", "keras", "silentbugs", "nnsmith", "impala", "elasticsearch",
                            "tensorflow/tensorflow", "pytorch/glow", "perf-frameworks"}) {
    const size_t at = r.output.find("\"" + std::string(group) + "\": {\"positive\"");
    ASSERT_NE(at, std::string::npos) << group << "\n" << r.output.substr(0, 2000);
    EXPECT_NE(r.output.find("\"LOGO\": {\"tp\": ", at), std::string::npos) << group;
  }
  EXPECT_NE(r.output.find("\"in_sample_silent_flag_rate\": "), std::string::npos);
}

}  // namespace
}  // namespace ghsift
