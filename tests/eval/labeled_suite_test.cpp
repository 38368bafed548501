// The labeled suite file, group names from file names, and labels files without the label key.
#include <gtest/gtest.h>

#include <fstream>

#include "eval/labeled_report.hpp"
#include "eval/labeled_suite.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

TEST(LabeledSuiteTest, GroupNamesComeFromTheStemOrAGenericStemsFolder) {
  EXPECT_EQ(GroupNameOfFile("data/mhnurf/caffe.csv"), "caffe");
  EXPECT_EQ(GroupNameOfFile("data/silentbugs/titles.jsonl"), "silentbugs");
  EXPECT_EQ(GroupNameOfFile("/x/hlp/dataset-2.jsonl"), "hlp");
  EXPECT_EQ(GroupNameOfFile("nnsmith.jsonl"), "nnsmith");
}

TEST(LabeledSuiteTest, ReadsSetsRelativeToTheDataDirectory) {
  testing::TempDir dir;
  std::ofstream(dir / "suite.yaml") << "control_max_rate: 0.2\nsets:\n"
                                       "  - {path: a/caffe.csv, positive: [performance, accuracy], controls: [silent]}\n"
                                       "  - {path: s/titles.jsonl, group: sb, positive: silent, label_key: silent,\n"
                                       "     issue_dir: s/issues, objective: f1}\n";
  auto suite = LoadLabeledSuite(dir / "suite.yaml", "/data");
  ASSERT_TRUE(suite.ok()) << suite.status().message();
  EXPECT_DOUBLE_EQ(suite->control_max_rate, 0.2);
  ASSERT_EQ(suite->sets.size(), 2u);
  EXPECT_EQ(suite->sets[0].path, "/data/a/caffe.csv");
  EXPECT_EQ(suite->sets[0].group, "caffe");
  EXPECT_EQ(suite->sets[0].positive, (std::vector<std::string>{"performance", "accuracy"}));
  EXPECT_EQ(suite->sets[0].controls, (std::vector<std::string>{"silent"}));
  EXPECT_FALSE(suite->sets[0].objective_f1);
  EXPECT_EQ(suite->sets[1].group, "sb");
  EXPECT_EQ(suite->sets[1].positive, (std::vector<std::string>{"silent"}));
  EXPECT_EQ(suite->sets[1].label_key, "silent");
  EXPECT_EQ(suite->sets[1].issue_dir, "/data/s/issues");
  EXPECT_TRUE(suite->sets[1].objective_f1);

  std::ofstream(dir / "bad.yaml") << "sets:\n  - {path: a.csv, positive: [x], colour: red}\n";
  auto bad = LoadLabeledSuite(dir / "bad.yaml", "/data");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), dir / "bad.yaml" + ": set #1: unknown key 'colour'");
}

// Labels as a spreadsheet writes them: a byte order mark before the first column, CRLF, a label
// column first, blank cells (not labeled yet), 1.0 for 1; a typo is an error with its line.
TEST(LabeledSuiteTest, HandWrittenLabelsAreReadOrRefusedWithTheirLine) {
  testing::TempDir dir;
  std::ofstream(dir / "l.csv") << "\xEF\xBB\xBF" "class,Repository,Number,Title,Body\r\n"
                                  "1,a/b,1,slow,\"two\r\nlines\"\r\n"
                                  ",a/b,2,fast,\r\n"
                                  " 1.0 ,a/b,3,leak,\r\n"
                                  "0,c/d,4,typo,\r\n";
  auto read = ReadLabeledReports(dir / "l.csv", LabelOptions{});
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_EQ(read->size(), 4u);
  EXPECT_EQ((*read)[0].binary, 1);
  EXPECT_EQ((*read)[0].group, "a/b");
  EXPECT_FALSE((*read)[1].labeled());
  EXPECT_EQ((*read)[2].binary, 1);
  EXPECT_EQ((*read)[3].binary, 0);
  EXPECT_EQ((*read)[0].line, 2u);
  EXPECT_EQ((*read)[1].line, 4u);  // the record before it spans two lines
  EXPECT_EQ((*read)[3].line, 6u);

  std::ofstream(dir / "two.csv") << "Repository,Number,Title,Body,class\nx,1,slow,\"a\nb\",1\nx,2,fast,,2\n";
  auto two = ReadLabeledReports(dir / "two.csv", LabelOptions{});
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.status().message(),
            dir / "two.csv" + ":4: 'class' is '2'; use 0 or 1 (or leave it empty: not labeled yet)");
  std::ofstream(dir / "word.jsonl") << "{\"title\": \"a\", \"class\": \"1\"}\n{\"title\": \"b\", \"class\": \"yes\"}\n";
  auto word = ReadLabeledReports(dir / "word.jsonl", LabelOptions{});
  ASSERT_FALSE(word.ok());
  EXPECT_EQ(word.status().message(),
            dir / "word.jsonl" + ":2: 'class' is 'yes'; use 0 or 1 (or leave it empty: not labeled yet)");
  LabelOptions text_only;  // rules bench reads the text of any file
  text_only.require_label = false;
  EXPECT_TRUE(ReadLabeledReports(dir / "word.jsonl", text_only).ok());
  std::ofstream(dir / "cut.csv") << "Repository,Number,Title,Body,class\nx,1,slow,,1\nx,2,fast,\"cut in";
  auto cut = ReadLabeledReports(dir / "cut.csv", LabelOptions{});
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.status().message(), dir / "cut.csv" + ":3: a quoted field starts here and never ends (a file cut short?)");
}

TEST(LabeledSuiteTest, AFileWithoutTheLabelKeyIsAnError) {
  testing::TempDir dir;
  std::ofstream(dir / "l.csv") << "Repository,Number,Title,Body,class\nx,1,slow,,1\n";
  LabelOptions options;
  options.label_key = "nosuch";
  auto csv = ReadLabeledReports(dir / "l.csv", options);
  ASSERT_FALSE(csv.ok());
  EXPECT_EQ(csv.status().message(), dir / "l.csv" + ": no column for the label key 'nosuch'; name the key with --label-key (the columns: Repository, Number, Title, Body, class)");
  // A key present but null means "not labeled yet": read, with no binary label, when another
  // record is labeled; a file in which no record is labeled is an error naming the key.
  std::ofstream(dir / "l.jsonl") << "{\"title\": \"a\", \"nosuch\": null}\n{\"title\": \"b\", \"nosuch\": 1}\n";
  auto jsonl = ReadLabeledReports(dir / "l.jsonl", options);
  ASSERT_TRUE(jsonl.ok()) << jsonl.status().message();
  EXPECT_FALSE((*jsonl)[0].binary.has_value());
  EXPECT_EQ((*jsonl)[1].binary, 1);
  std::ofstream(dir / "null.jsonl") << "{\"title\": \"a\", \"nosuch\": null}\n{\"title\": \"b\"}\n";
  auto unlabeled = ReadLabeledReports(dir / "null.jsonl", options);
  ASSERT_FALSE(unlabeled.ok());
  EXPECT_EQ(unlabeled.status().message(),
            dir / "null.jsonl" + ": no usable label: the key 'nosuch' is null or empty in all 2 records; "
                                 "fill it with 0 or 1 (or name another key with --label-key)");
  std::ofstream(dir / "empty.csv") << "Repository,Number,Title,Body,class\nx,1,slow,,\nx,2,fast,,\n";
  options.label_key = "class";
  auto empty = ReadLabeledReports(dir / "empty.csv", options);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().message(),
            dir / "empty.csv" + ": no usable label: the column 'class' is empty in all 2 records; fill it with 0 "
                                "or 1 (or name another column with --label-key)");
  options.label_key = "other";
  EXPECT_FALSE(ReadLabeledReports(dir / "l.jsonl", options).ok());
  options.require_label = false;
  EXPECT_TRUE(ReadLabeledReports(dir / "l.jsonl", options).ok());
}

}  // namespace
}  // namespace ghsift

namespace ghsift {
namespace {

TEST(LabeledSuiteTest, VerdictAndPerRepositoryGroups) {
  testing::TempDir dir;
  std::ofstream(dir / "suite.yaml") << "sets:\n"
                                       "  - {path: m/keras.csv, positive: [performance, accuracy], verdict: bug}\n"
                                       "  - {path: h/apache.jsonl, positive: performance, group_by: repo}\n"
                                       "  - {path: f/fixes.jsonl, group: perf, positive: performance, verdict: any,\n"
                                       "     group_by: repo, label_key: perf}\n";
  auto suite = LoadLabeledSuite(dir / "suite.yaml", "/data");
  ASSERT_TRUE(suite.ok()) << suite.status().message();
  ASSERT_EQ(suite->sets.size(), 3u);
  EXPECT_TRUE(suite->sets[0].bug_only);
  EXPECT_FALSE(suite->sets[0].group_by_repo);
  EXPECT_FALSE(suite->sets[1].bug_only);
  EXPECT_TRUE(suite->sets[1].group_by_repo);
  EXPECT_EQ(suite->sets[1].group_prefix, "");
  EXPECT_FALSE(suite->sets[2].bug_only);
  EXPECT_EQ(suite->sets[2].group_prefix, "perf:");

  std::ofstream(dir / "bad.yaml") << "sets:\n  - {path: a.csv, positive: [x], verdict: maybe}\n";
  auto bad = LoadLabeledSuite(dir / "bad.yaml", "/data");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            dir / "bad.yaml" + ": set #1: verdict must be bug (the label means a bug) or any, not 'maybe'");
}

}  // namespace
}  // namespace ghsift
