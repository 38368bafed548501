// The report attributes table at work on a row that is nothing but its row: `association`, the
// opener's tie to the repository (author_association), which goes with the latest snapshot.
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

IssueRecord RecordOf(const std::string& line) {
  std::string padded = line + std::string(simdjson::SIMDJSON_PADDING, ' ');
  EventExtractor extractor;
  Event event;
  EXPECT_EQ(extractor.Extract(std::string_view(padded.data(), line.size()), event), ExtractOutcome::kEvent)
      << extractor.error();
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

}  // namespace
}  // namespace ghsift
