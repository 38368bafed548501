// The one table of report fields the exports write: a list is an array in JSON and joined by ";"
// in CSV, numbers stay unquoted, and jsonl members come out in the order asked for.
#include "commands/report_fields.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace ghsift::cli {
namespace {

ListedIssue Report() {
  ListedIssue issue;
  issue.repo = "o/r";
  issue.number = 12;
  issue.state = "open";
  issue.title = "a \"quoted\" title";
  issue.categories = {"accuracy", "performance"};
  issue.score = 1.5;
  return issue;
}

TEST(ReportFieldsTest, AListIsAnArrayInJsonAndJoinedInCsv) {
  const ReportField& categories = ReportFieldNamed("categories");
  EXPECT_EQ(CsvCellOf(categories, Report()), "accuracy;performance");
  EXPECT_EQ(JsonCellOf(categories, Report()), "[\"accuracy\", \"performance\"]");
  EXPECT_TRUE(JsonIsRaw(categories));
}

TEST(ReportFieldsTest, NumbersAreRawAndTextIsQuotedByTheWriter) {
  EXPECT_EQ(JsonCellOf(ReportFieldNamed("score"), Report()), "1.50");
  EXPECT_TRUE(JsonIsRaw(ReportFieldNamed("number")));
  EXPECT_FALSE(JsonIsRaw(ReportFieldNamed("title")));
  EXPECT_EQ(JsonCellOf(ReportFieldNamed("title"), Report()), "a \"quoted\" title");
}

TEST(ReportFieldsTest, JsonMembersComeInTheOrderAsked) {
  EXPECT_EQ(JsonMembersOf(Report(), {"repo", "number", "title"}, true),
            "\"repo\": \"o/r\", \"number\": 12, \"title\": \"a \\\"quoted\\\" title\"");
  EXPECT_EQ(JsonMembersOf(Report(), {"state"}), ", \"state\": \"open\"");
}

TEST(ReportFieldsTest, EveryFieldHasOneNameAndAValue) {
  std::set<std::string_view> names;
  for (const ReportField& field : ReportFields()) {
    EXPECT_TRUE(names.insert(field.name).second) << field.name;
    EXPECT_TRUE(field.form == ReportField::Form::kList ? field.list != nullptr : field.text != nullptr) << field.name;
  }
  EXPECT_EQ(names.size(), 15u);
}

// The labeling exports' columns come from the table alone: their places run 1, 2, ... without a
// gap or a tie, and sample writes a few of issues' in the same order.
TEST(ReportFieldsTest, LabelingPlacesRunFromOneWithoutGaps) {
  std::vector<int> places;
  for (const ReportField& field : ReportFields()) {
    if (field.labeling_place > 0) places.push_back(field.labeling_place);
    if (field.sampled) EXPECT_GT(field.labeling_place, 0) << field.name << ": sample writes only labeling fields";
  }
  std::sort(places.begin(), places.end());
  for (size_t i = 0; i < places.size(); ++i) EXPECT_EQ(places[i], static_cast<int>(i + 1));
  const std::vector<const ReportField*> issues = LabelingFields(LabelingExport::kIssues);
  const std::vector<const ReportField*> sample = LabelingFields(LabelingExport::kSample);
  ASSERT_EQ(issues.size(), places.size());
  ASSERT_FALSE(sample.empty());
  auto at = issues.begin();
  for (const ReportField* field : sample) {
    at = std::find(at, issues.end(), field);
    EXPECT_NE(at, issues.end()) << field->name << " out of issues' order";
  }
}

TEST(ReportFieldsTest, CellsAndMembersFollowTheFieldsGiven) {
  const std::vector<const ReportField*> fields = {&ReportFieldNamed("url"), &ReportFieldNamed("categories"),
                                                  &ReportFieldNamed("score")};
  EXPECT_EQ(CsvCellsOf(fields, Report()), (std::vector<std::string>{"", "accuracy;performance", "1.50"}));
  EXPECT_EQ(JsonMembersOf(Report(), fields),
            ", \"url\": \"\", \"categories\": [\"accuracy\", \"performance\"], \"score\": 1.50");
}

TEST(ReportFieldsDeathTest, AnUnknownNameIsAProgrammingError) {
  EXPECT_DEATH(ReportFieldNamed("no-such-field"), "no report field 'no-such-field'");
}

}  // namespace
}  // namespace ghsift::cli
