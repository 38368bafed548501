// The label loop (issue 14): sample flagged reports of a store (with or without --keep-text),
// label them, and `rules eval` scores exactly what was sampled: every sampled report is flagged
// again, from the latest text the store keeps of every flagged report.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>

#include "common/csv.hpp"
#include "eval/labeled_report.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::ReadText;
using testing::CsvHeaderLine;
using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;
using testing::WithExportedColumns;

//! The sample's population, from "population N, sample M" on stderr.
int64_t SampleSize(const std::string& output) {
  std::smatch m;
  const std::regex pattern("population ([0-9]+), sample ([0-9]+)");
  if (!std::regex_search(output, m, pattern) || m[1] != m[2]) return -1;
  return std::stoll(m[2]);
}

//! The parameter: whether the store is ingested with --keep-text.
class LabelLoopTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    testing::GenCorpus(dir_ / "corpus", 4, 3000, 11, "gz");
    const auto r = RunCommand(Ghsift() + " ingest -q --all-repos " + (GetParam() ? "--keep-text " : "") +
                              "--store " + (dir_ / "store") + " " + (dir_ / "corpus"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  std::string Sample(const std::string& format, const std::string& out, int64_t* n) {
    const auto r = RunCommand(Ghsift() + " sample --store " + (dir_ / "store") +
                              " --category performance,accuracy,silent --n 1000000 --seed 3 --format " + format +
                              " --out " + out);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.output.find("no kept text"), std::string::npos) << r.output;
    // How it was drawn, and the rules whose flags made the population: the digest `stats` shows.
    const auto stats = RunCommand(Ghsift() + " stats --store " + (dir_ / "store"));
    const size_t at = stats.output.find("rule set     ");
    EXPECT_NE(at, std::string::npos) << stats.output;
    if (at != std::string::npos) {
      EXPECT_NE(r.output.find("ghsift: drawn with --seed 3 from the reports flagged by rule set " +
                              stats.output.substr(at + 13, 16) + " (the default rule set)\n"),
                std::string::npos)
          << r.output << stats.output;
    }
    *n = SampleSize(r.output);
    return ReadText(out);
  }
  //! `rules eval` on the labeled file: every row labeled 1, so every row must be a true positive.
  void ExpectAllFlagged(const std::string& labeled, int64_t n) {
    const auto r = RunCommand(Ghsift() + " rules eval --labels " + labeled +
                              " --positive performance,accuracy,silent --format json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("\"reports\": " + std::to_string(n) + ","), std::string::npos) << r.output;
    // The set's overall confusion opens its entry.
    EXPECT_NE(r.output.find("\"sets\": [\n{\n  \"positive\": \"accuracy,performance,silent\",\n  \"tp\": " +
                            std::to_string(n) + ",\n  \"fp\": 0,\n  \"fn\": 0,\n  \"tn\": 0,\n"),
              std::string::npos)
        << r.output.substr(0, 800);
    // A sample of flagged reports: recall means nothing there, and rules eval says so; so does
    // rules tune, whose fit there could not see what it would miss.
    EXPECT_NE(r.output.find("is flagged by these rules (a sample of flagged reports?)"), std::string::npos)
        << r.output.substr(0, 800);
    const auto tune = RunCommand(Ghsift() + " rules tune --labels " + labeled + " --positive performance,accuracy,silent");
    ASSERT_EQ(tune.exit_code, 0) << tune.output;
    EXPECT_NE(tune.output.find("is flagged by these rules (a sample of flagged reports?)"), std::string::npos)
        << tune.output.substr(0, 800);
  }
  //! Fills `class` of every row of a labeling CSV with `value`.
  static std::string Labeled(std::vector<std::vector<std::string>> records, const std::string& value,
                             size_t* with_body = nullptr) {
    const auto column = [&](const std::string& name) {
      return static_cast<size_t>(std::find(records[0].begin(), records[0].end(), name) - records[0].begin());
    };
    const size_t body = column("Body"), cls = column("class");
    std::string labeled;
    for (size_t r = 0; r < records.size(); ++r) {
      if (records[r].size() != records[0].size()) continue;  // the parser's empty record after the last newline
      if (r > 0) {
        if (with_body) *with_body += !records[r][body].empty();
        records[r][cls] = value;
      }
      for (size_t c = 0; c < records[r].size(); ++c) {
        if (c > 0) labeled += ',';
        labeled += CsvField(records[r][c]);
      }
      labeled += "\n";
    }
    return labeled;
  }
  TempDir dir_;
};

INSTANTIATE_TEST_SUITE_P(Stores, LabelLoopTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? std::string("KeepText") : std::string("Default");
                         });

TEST_P(LabelLoopTest, CsvSampleScoresExactlyWhatWasSampled) {
  int64_t n = 0;
  const std::string csv = Sample("csv", dir_ / "sample.csv", &n);
  ASSERT_GT(n, 20);
  auto records = ParseCsv(csv);
  ASSERT_EQ(records[0], WithExportedColumns({"Repository", "Number", "State", "Title", "Body", "Labels", "Comments",
                                              "Codes", "Review", "class", "url", "categories", "verdict", "stratum",
                                              "also_flagged", "notes"}));
  size_t with_body = 0;
  const std::string labeled = Labeled(records, "1", &with_body);
  EXPECT_GT(with_body * 2, static_cast<size_t>(n)) << "the store gives the bodies";
  std::ofstream(dir_ / "labeled.csv") << labeled;
  ExpectAllFlagged(dir_ / "labeled.csv", n);
}

// Without --positive, a sample is scored as what its rows were drawn as (its categories column),
// not as the default union (accuracy,performance), and the command says so.
TEST_P(LabelLoopTest, WithoutPositiveASampleIsScoredAsWhatItWasDrawnAs) {
  int64_t n = 0;
  const std::string csv = Sample("csv", dir_ / "sample.csv", &n);
  ASSERT_GT(n, 20);
  std::ofstream(dir_ / "labeled.csv") << Labeled(ParseCsv(csv), "1");
  auto r = RunCommand(Ghsift() + " rules eval --labels " + (dir_ / "labeled.csv") + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("ghsift: " + (dir_ / "labeled.csv") + ": scored as accuracy,performance,silent, what its "
                          "rows were drawn as (its 'categories' column); --positive names another target\n"),
            std::string::npos)
      << r.output.substr(0, 800);
  EXPECT_NE(r.output.find("\"sets\": [\n{\n  \"positive\": \"accuracy,performance,silent\",\n  \"tp\": " +
                          std::to_string(n) + ",\n"),
            std::string::npos)
      << r.output.substr(0, 800);
  // Per category, a row counts for the categories it was drawn as: every row labeled 1 and flagged
  // again, so no category has a false negative (before, a performance row was one of accuracy).
  const std::regex category_scores(R"re("(accuracy|performance|silent)": \{"flagged": \d+, "scores": \{"tp": (\d+), "fp": (\d+), "fn": (\d+), "tn": (\d+))re");
  size_t categories = 0;
  for (auto it = std::sregex_iterator(r.output.begin(), r.output.end(), category_scores); it != std::sregex_iterator();
       ++it, ++categories) {
    EXPECT_GT(std::stoll((*it)[2]), 0) << (*it)[0];
    EXPECT_EQ((*it)[3].str() + " " + (*it)[4].str() + " " + (*it)[5].str(), "0 0 0") << (*it)[0];
  }
  EXPECT_EQ(categories, 3u) << r.output.substr(0, 1500);
  r = RunCommand(Ghsift() + " rules eval --labels " + (dir_ / "labeled.csv") + " --positive performance --format json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("what its rows were drawn as"), std::string::npos) << r.output.substr(0, 800);
  EXPECT_NE(r.output.find("\"sets\": [\n{\n  \"positive\": \"performance\","), std::string::npos)
      << r.output.substr(0, 800);
}

TEST_P(LabelLoopTest, JsonlSampleScoresExactlyWhatWasSampled) {
  int64_t n = 0;
  std::string jsonl = Sample("jsonl", dir_ / "sample.jsonl", &n);
  ASSERT_GT(n, 20);
  size_t at = 0, filled = 0;
  while ((at = jsonl.find("\"class\": null", at)) != std::string::npos) {
    jsonl.replace(at, 13, "\"class\": 1");
    ++filled;
  }
  EXPECT_EQ(filled, static_cast<size_t>(n));
  std::ofstream(dir_ / "labeled.jsonl") << jsonl;
  ExpectAllFlagged(dir_ / "labeled.jsonl", n);
}

TEST_P(LabelLoopTest, IssuesJsonlGoesStraightIntoRulesEval) {
  const auto r = RunCommand(Ghsift() + " issues --store " + (dir_ / "store") + " --kind all --limit 0 --format jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.output.substr(0, 400);
  std::string jsonl = r.output;
  size_t at = 0, n = 0;
  while ((at = jsonl.find("\"class\": null", at)) != std::string::npos) {
    jsonl.replace(at, 13, "\"class\": 1");
    ++n;
  }
  ASSERT_GT(n, 20u);
  EXPECT_EQ(std::count(jsonl.begin(), jsonl.end(), '\n'), static_cast<std::ptrdiff_t>(n));
  // The keys of the CSV's columns (its MHNurf text columns by their jsonl names), in its order:
  // a labeler who exports jsonl sees the verdict, score and rules the CSV shows.
  simdjson::dom::parser parser;
  std::vector<std::string> keys;
  for (auto [key, value] : parser.parse(jsonl.substr(0, jsonl.find('\n'))).get_object()) keys.emplace_back(key);
  std::vector<std::string> expected =
      WithExportedColumns({"repo", "number", "state", "title", "body", "labels", "comments", "review", "url", "kind",
                           "created", "updated", "categories", "subcategories", "facets", "verdict", "score", "rules"});
  expected.push_back("class");
  EXPECT_EQ(keys, expected) << jsonl.substr(0, jsonl.find('\n'));
  std::ofstream(dir_ / "issues.jsonl") << jsonl;
  ExpectAllFlagged(dir_ / "issues.jsonl", static_cast<int64_t>(n));
}

TEST_P(LabelLoopTest, IssuesCsvGoesStraightIntoRulesEval) {
  const auto r = RunCommand(Ghsift() + " issues --store " + (dir_ / "store") + " --kind all --limit 0 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.output.substr(0, 400);
  EXPECT_EQ(r.output.find("no kept text"), std::string::npos) << r.output.substr(0, 400);
  const auto records = ParseCsv(r.output);
  ASSERT_EQ(records[0], WithExportedColumns({"Repository", "Number", "State", "Title", "Body", "Labels", "Comments",
                                              "Codes", "Review", "class", "url", "kind", "created", "updated",
                                              "categories", "subcategories", "facets", "verdict", "score", "rules"}));
  size_t n = 0;
  for (size_t i = 1; i < records.size(); ++i) n += records[i].size() == records[0].size();
  ASSERT_GT(n, 20u);
  std::ofstream(dir_ / "issues.csv") << Labeled(records, "1");
  ExpectAllFlagged(dir_ / "issues.csv", static_cast<int64_t>(n));
}

TEST_P(LabelLoopTest, AnUnlabeledSampleIsAnErrorNamingTheKey) {
  int64_t n = 0;
  Sample("csv", dir_ / "sample.csv", &n);
  auto r = RunCommand(Ghsift() + " rules eval --labels " + (dir_ / "sample.csv") + " --positive performance");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(dir_ / "sample.csv" + ": no usable label: the column 'class' is empty in all " +
                          std::to_string(n) + " records"),
            std::string::npos)
      << r.output;
  Sample("jsonl", dir_ / "sample.jsonl", &n);
  r = RunCommand(Ghsift() + " rules eval --labels " + (dir_ / "sample.jsonl") + " --positive performance");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(dir_ / "sample.jsonl" + ": no usable label: the key 'class' is null or empty in all " + std::to_string(n) + " records"),
            std::string::npos)
      << r.output;
}

// A report whose title was edited after it was flagged: its kept (latest) text no longer carries
// the accuracy flag it was sampled for. The export says what the store flagged (`categories`),
// so `rules eval` still knows the file for a sample of flagged reports, and says how many rows
// the rules miss on the exported text, instead of a recall that means nothing.
TEST(LabelLoopEditTest, AReportEditedAfterItsFlagStillReadsAsASampleOfFlaggedReports) {
  TempDir dir;
  std::filesystem::create_directories(dir / "hours");
  auto event = [](const std::string& id, const std::string& action, const std::string& title, const std::string& at) {
    return "{\"id\":\"" + id + "\",\"type\":\"IssuesEvent\",\"actor\":{\"id\":1,\"login\":\"alice\"},\"repo\":{\"id\":"
           "65600975,\"name\":\"pytorch/pytorch\"},\"payload\":{\"action\":\"" + action + "\",\"issue\":{\"number\":"
           "4243,\"title\":\"" + title + "\",\"body\":\"See above.\",\"labels\":[],\"state\":\"open\",\"created_at\":"
           "\"2024-02-01T01:00:00Z\",\"user\":{\"login\":\"alice\"},\"comments\":0}},\"public\":true,\"created_at\":\"" +
           at + "\"}\n";
  };
  std::ofstream(dir / "hours/2024-02-01-1.json")
      << event("81000000", "opened", "Training loss becomes NaN after epoch 3", "2024-02-01T01:00:00Z")
      << event("81000001", "edited", "Slow import after upgrading", "2024-02-01T01:30:00Z");
  auto r = RunCommand(Ghsift() + " ingest -q --store " + (dir / "store") + " " + (dir / "hours"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const std::string format : {"csv", "jsonl"}) {
    const std::string sample = dir / ("sample." + format);
    r = RunCommand(Ghsift() + " sample --store " + (dir / "store") + " --category accuracy --n 10 --seed 1 --format " +
                   format + " --out " + sample);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    std::string text = ReadText(sample);
    if (format == "csv") {
      const size_t at = text.find("[],,");  // Review's [] and the empty class cell
      ASSERT_NE(at, std::string::npos) << text;
      text.replace(at, 4, "[],1,");
    } else {
      const size_t at = text.find("\"class\": null");
      ASSERT_NE(at, std::string::npos) << text;
      text.replace(at, 13, "\"class\": 1");
    }
    std::ofstream(sample) << text;
    r = RunCommand(Ghsift() + " rules eval --labels " + sample + " --positive accuracy");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("ghsift: warning: every labeled report of sample was flagged by the store that exported it "
                            "(its 'categories' column), and 1 of them is not flagged by these rules on the exported "
                            "text (edited after the flag, or other rules): a sample of flagged reports, so its "
                            "recall, true negatives, F1 and macro-F1 say nothing of the rules; only its precision "
                            "(n/a: these rules flag none of them) means anything\n"),
              std::string::npos)
        << format << "\n" << text << "\n" << r.output;
  }
}

}  // namespace
}  // namespace ghsift
