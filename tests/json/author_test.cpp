// Who opened a report: the `user` of the issue or pull request object, never a comment's user
// or the actor of another event; for Timeline records (ids only) the actor of an `opened` event.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "aggregate/file_aggregate.hpp"
#include "json/event_extractor.hpp"

namespace ghsift {
namespace {

//! Extracts one line (padded as the extractor requires) and keeps its report as the store would.
IssueRecord RecordOf(const std::string& line, std::string* author_seen = nullptr) {
  std::string padded = line + std::string(simdjson::SIMDJSON_PADDING, ' ');
  EventExtractor extractor;
  Event event;
  EXPECT_EQ(extractor.Extract(std::string_view(padded.data(), line.size()), event), ExtractOutcome::kEvent)
      << extractor.error();
  if (author_seen != nullptr) *author_seen = std::string(event.report.attributes[Attribute::kAuthor]);
  FileAggregate aggregate;
  aggregate.AddReport(event, {});
  IssueRecord out;
  for (const auto& [key, record] : aggregate.issues()) out = record;
  return out;
}

TEST(AuthorTest, TheUserOfTheIssueNotTheActorOrTheCommenter) {
  const std::string closed =
      R"({"id":"1","type":"IssuesEvent","actor":{"id":1,"login":"alice"},"repo":{"id":123,"name":"o/r"},)"
      R"("payload":{"action":"closed","issue":{"number":42,"title":"Slow","user":{"login":"Bob","id":2},)"
      R"("state":"closed","created_at":"2015-01-01T10:00:00Z"}},"public":true,"created_at":"2015-01-02T11:00:01Z"})";
  std::string seen;
  EXPECT_EQ(RecordOf(closed, &seen).attributes[Attribute::kAuthor], "Bob");
  EXPECT_EQ(seen, "Bob");
  const std::string comment =
      R"({"id":"2","type":"IssueCommentEvent","actor":{"id":3,"login":"carol"},"repo":{"id":77,"name":"o/p"},)"
      R"("payload":{"action":"created","issue":{"number":7,"title":"T","user":{"login":"dave"},"state":"open"},)"
      R"("comment":{"id":100,"body":"me too","user":{"login":"carol"}}},"created_at":"2016-03-02T08:09:10Z"})";
  EXPECT_EQ(RecordOf(comment).attributes[Attribute::kAuthor], "dave");
  const std::string pull =
      R"({"id":"3","type":"PullRequestEvent","actor":{"id":4,"login":"erin"},"repo":{"id":78,"name":"o/q"},)"
      R"("payload":{"action":"closed","number":5,"pull_request":{"number":5,"title":"Fix","state":"closed",)"
      R"("user":{"login":"frank"},"head":{"user":{"login":"gina"}},"base":{"user":{"login":"o"}}}},)"
      R"("created_at":"2016-03-02T08:09:10Z"})";
  EXPECT_EQ(RecordOf(pull).attributes[Attribute::kAuthor], "frank");
}

TEST(AuthorTest, TheActorOfATimelineOpenedEvent) {
  const std::string opened =
      R"({"created_at":"2013-05-01T10:00:00-07:00","payload":{"action":"opened","issue":1234,"number":9},)"
      R"("public":true,"type":"IssuesEvent","url":"https://github.com/o/r/issues/9","actor":"helen",)"
      R"("repository":{"id":5,"name":"r","owner":"o","url":"https://github.com/o/r"}})";
  EXPECT_EQ(RecordOf(opened).attributes[Attribute::kAuthor], "helen");
  // Closed by someone else: no word of who opened it.
  std::string closed = opened;
  closed.replace(closed.find("opened"), 6, "closed");
  EXPECT_EQ(RecordOf(closed).attributes[Attribute::kAuthor], "");
}

TEST(AuthorTest, MergesToTheSameLoginInAnyOrder) {
  IssueRecord a, b, none;
  a.attributes[Attribute::kAuthor] = "zed";
  b.attributes[Attribute::kAuthor] = "amy";
  IssueRecord ab = a, ba = b, an = a, na = none;
  ab.Merge(b);
  ba.Merge(a);
  an.Merge(none);
  na.Merge(a);
  EXPECT_EQ(ab.attributes[Attribute::kAuthor], "amy");
  EXPECT_EQ(ba.attributes[Attribute::kAuthor], "amy");
  EXPECT_EQ(an.attributes[Attribute::kAuthor], "zed");
  EXPECT_EQ(na.attributes[Attribute::kAuthor], "zed");
  auto decoded = IssueRecord::Decode(ab.Encode());
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(decoded->attributes[Attribute::kAuthor], "amy");
}

}  // namespace
}  // namespace ghsift
