#include "json/report_probe.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ghsift {
namespace {

TEST(ReportProbeTest, IssueNumberAndTitle) {
  const std::string payload =
      R"({"action":"opened","issue":{"url":"https://api.github.com/repos/o/r/issues/42","id":55,"number":42,)"
      R"("title":"Training is very slow","user":{"login":"bob"},"body":null}})";
  const auto probe = ProbeReport(payload);
  ASSERT_TRUE(probe.has_value());
  EXPECT_EQ(probe->number, 42);
  EXPECT_EQ(probe->title, "Training is very slow");
}

TEST(ReportProbeTest, PullRequestAfterThePayloadsOwnNumber) {
  const std::string payload =
      R"({"action":"closed","number":7,"pull_request":{"id":1,"html_url":"h","number":8,"state":"closed",)"
      R"("locked":false,"title":"Faster \u0000 loader","user":{}}})";
  // The title holds an escape: not read from the bytes.
  EXPECT_FALSE(ProbeReport(payload).has_value());
  const std::string plain =
      R"({"action":"closed","number":7,"pull_request":{"id":1,"html_url":"h","number":8,"state":"closed",)"
      R"("locked":false,"title":"Faster loader","user":{}}})";
  const auto probe = ProbeReport(plain);
  ASSERT_TRUE(probe.has_value());
  EXPECT_EQ(probe->number, 8);  // the object's number, as the full parser keeps it
  EXPECT_EQ(probe->title, "Faster loader");
}

TEST(ReportProbeTest, TitleBeforeNumberAndEscapedValuesSkipped) {
  const std::string payload =
      R"({"action":"say \"hi\\\"","issue":{"title":"T","body":"a \\\" b \"","n":-1.5e3,"x":null,"number":3}})";
  const auto probe = ProbeReport(payload);
  ASSERT_TRUE(probe.has_value());
  EXPECT_EQ(probe->number, 3);
  EXPECT_EQ(probe->title, "T");
}

TEST(ReportProbeTest, UncertainBytesAreLeftToTheParser) {
  for (const std::string payload : {
           // a nested value before both are read
           R"({"action":"opened","issue":{"user":{"login":"a"},"number":1,"title":"T"}})",
           R"({"action":"opened","issue":{"labels":[],"number":1,"title":"T"}})",
           R"({"comment":{"body":"x"},"issue":{"number":1,"title":"T"}})",
           // numbers that are no plain positive integer
           R"({"issue":{"number":0,"title":"T"}})",
           R"({"issue":{"number":-4,"title":"T"}})",
           R"({"issue":{"number":"4","title":"T"}})",
           R"({"issue":{"number":4.0,"title":"T"}})",
           R"({"issue":{"number":04,"title":"T"}})",
           R"({"issue":{"number":null,"title":"T"}})",
           R"({"issue":{"number":1234567890123456789,"title":"T"}})",
           // titles that are empty, null or escaped
           R"({"issue":{"number":1,"title":""}})",
           R"({"issue":{"number":1,"title":null}})",
           R"({"issue":{"number":1,"title":"a\nb"}})",
           // the object never gives both, whitespace, an escaped key, no report object
           R"({"issue":{"number":1}})",
           R"({"issue": {"number":1,"title":"T"}})",
           R"({"iss\u0075e":{"number":1,"title":"T"}})",
           R"({"issue":12,"number":1})",
           R"({"action":"opened"})",
           R"({"action":tru,"issue":{"number":1,"title":"T"}})",
           R"()",
       }) {
    EXPECT_FALSE(ProbeReport(payload).has_value()) << payload;
  }
}

TEST(ReportProbeTest, RestOfTheLineIsNotRead) {
  // As with the envelope read from the bytes, what follows both is left unvalidated.
  const auto probe = ProbeReport(R"({"issue":{"number":1,"title":"T")");
  ASSERT_TRUE(probe.has_value());
  EXPECT_EQ(probe->number, 1);
}

}  // namespace
}  // namespace ghsift
