// The report attributes (json/report_attribute.hpp) as the extractor reads them and the record
// keeps them. `author`: the `user` of the issue or pull request object, never a comment's user or
// the actor of another event; for Timeline records (ids only) the actor of an `opened` event.
// `association`, a row that is nothing but its row: the opener's tie to the repository
// (author_association), which goes with the latest snapshot.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "aggregate/file_aggregate.hpp"
#include "json/event_extractor.hpp"

namespace ghsift {
namespace {

//! An IssueCommentEvent of o/r#7 at `time` whose issue snapshot says `association` (none when empty).
std::string CommentLine(std::string_view time, std::string_view state, std::string_view association) {
  std::string issue = R"({"number":7,"title":"Slow","user":{"login":"dave"},"state":")" + std::string(state) + "\"";
  if (!association.empty()) issue += R"(,"author_association":")" + std::string(association) + "\"";
  issue += "}";
  return R"({"id":"2","type":"IssueCommentEvent","actor":{"id":3,"login":"carol"},"repo":{"id":77,"name":"o/r"},)"
         R"("payload":{"action":"created","issue":)" +
         issue + R"(,"comment":{"body":"me too","author_association":"OWNER"}},"created_at":")" + std::string(time) +
         "\"}";
}

//! Extracts one line (padded as the extractor requires) and keeps its report as the store would;
//! `extracted`, when given, gets the attributes as the extractor read them.
IssueRecord RecordOf(const std::string& line, PerAttribute<std::string>* extracted = nullptr) {
  std::string padded = line + std::string(simdjson::SIMDJSON_PADDING, ' ');
  EventExtractor extractor;
  Event event;
  EXPECT_EQ(extractor.Extract(std::string_view(padded.data(), line.size()), event), ExtractOutcome::kEvent)
      << extractor.error();
  if (extracted != nullptr) {
    // Copied: the extractor's views die with this function's buffers.
    for (size_t a = 0; a < extracted->by_id.size(); ++a) extracted->by_id[a] = event.report.attributes.by_id[a];
  }
  FileAggregate aggregate;
  aggregate.AddReport(event, {});
  IssueRecord out;
  for (const auto& [key, record] : aggregate.issues()) out = record;
  return out;
}

TEST(ReportAttributeTest, TheIssuesAssociationNotTheCommentsOrTheActors) {
  EXPECT_EQ(RecordOf(CommentLine("2019-03-02T08:09:10Z", "open", "NONE")).attributes[Attribute::kAssociation], "NONE");
  // Before 2017 the archive gives none; nor does an opened event's actor stand in for it.
  EXPECT_EQ(RecordOf(CommentLine("2016-03-02T08:09:10Z", "open", "")).attributes[Attribute::kAssociation], "");
}

TEST(ReportAttributeTest, TheLatestSnapshotsAssociationInEitherOrder) {
  const IssueRecord early = RecordOf(CommentLine("2019-03-02T08:09:10Z", "open", "NONE"));
  const IssueRecord late = RecordOf(CommentLine("2019-05-02T08:09:10Z", "open", "CONTRIBUTOR"));
  IssueRecord early_first = early, late_first = late;
  early_first.Merge(late);
  late_first.Merge(early);
  EXPECT_EQ(early_first.attributes[Attribute::kAssociation], "CONTRIBUTOR");
  EXPECT_EQ(late_first, early_first);
  // Two snapshots of one second that differ only in it: the same record whatever the order.
  const IssueRecord a = RecordOf(CommentLine("2019-03-02T08:09:10Z", "open", "MEMBER"));
  const IssueRecord b = RecordOf(CommentLine("2019-03-02T08:09:10Z", "open", "COLLABORATOR"));
  IssueRecord ab = a, ba = b;
  ab.Merge(b);
  ba.Merge(a);
  EXPECT_EQ(ab, ba);
  EXPECT_EQ(ab.attributes[Attribute::kAssociation], "MEMBER");
  // The author is not a snapshot's: a later snapshot without one keeps it.
  EXPECT_EQ(ab.attributes[Attribute::kAuthor], "dave");
}

TEST(ReportAttributeTest, EachUnderItsOwnTagAndUnknownTagsSkipped) {
  IssueRecord r = RecordOf(CommentLine("2019-03-02T08:09:10Z", "open", "OWNER"));
  auto decoded = IssueRecord::Decode(r.Encode());
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, r);
  // The record's last bytes are its tagged fields: count 2, (1, "dave"), (2, "OWNER"). A newer
  // ghsift's tag 9 after them is skipped, the known ones still read.
  const std::string encoded = r.Encode();
  const std::string fields = std::string("\x02\x01\x04") + "dave" + "\x02\x05" + "OWNER";
  ASSERT_EQ(encoded.substr(encoded.size() - fields.size()), fields);
  std::string newer = encoded.substr(0, encoded.size() - fields.size());
  newer += std::string("\x03\x01\x04") + "dave" + "\x09\x01" + "x" + "\x02\x05" + "OWNER";
  auto with_unknown = IssueRecord::Decode(newer);
  ASSERT_TRUE(with_unknown.ok()) << with_unknown.status().message();
  EXPECT_EQ(*with_unknown, r);
}

TEST(AuthorTest, TheUserOfTheIssueNotTheActorOrTheCommenter) {
  const std::string closed =
      R"({"id":"1","type":"IssuesEvent","actor":{"id":1,"login":"alice"},"repo":{"id":123,"name":"o/r"},)"
      R"("payload":{"action":"closed","issue":{"number":42,"title":"Slow","user":{"login":"Bob","id":2},)"
      R"("state":"closed","created_at":"2015-01-01T10:00:00Z"}},"public":true,"created_at":"2015-01-02T11:00:01Z"})";
  PerAttribute<std::string> extracted;
  EXPECT_EQ(RecordOf(closed, &extracted).attributes[Attribute::kAuthor], "Bob");
  EXPECT_EQ(extracted[Attribute::kAuthor], "Bob");
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
