// Records of every earlier format decode, and records carry fields a later ghsift adds without
// breaking this one: the store can grow (tagged_fields.hpp).
#include <gtest/gtest.h>

#include <string>

#include "aggregate/issue_record.hpp"
#include "aggregate/latest_text_record.hpp"
#include "aggregate/report_text_record.hpp"
#include "common/byte_codec.hpp"

namespace ghsift {
namespace {

IssueRecord Sample() {
  IssueRecord r;
  r.kind = 1;
  r.created_at = 1700000000;
  r.first_seen = 1700000005;
  r.last_seen = 1700009000;
  r.snapshot_time = 1700008000;
  r.title = "Slow training";
  r.state = "closed";
  r.closed_at = 1700008000;
  r.labels = {"bug", "performance"};
  r.comments = 3;
  r.events = 4;
  r.rules = {"perf.a", "perf.b"};
  r.first_comment_at = 1700001000;
  r.commenters = {11, 42};
  r.labels_ever = {"bug", "performance", "triage"};
  r.reopened = 1;
  r.closing_prs = {17};
  return r;
}

//! Format 2 of an issue record, as ghsift wrote it up to 1d94a39: frozen here, never to change.
std::string EncodeFormat2(const IssueRecord& r) {
  std::string out;
  out.push_back(2);
  out.push_back(static_cast<char>(r.kind));
  for (int64_t v : {r.created_at, r.first_seen, r.last_seen, r.snapshot_time}) PutSignedVarint(out, v);
  PutLengthPrefixed(out, r.title);
  PutLengthPrefixed(out, r.state);
  PutSignedVarint(out, r.closed_at);
  PutVarint(out, r.labels.size());
  for (const auto& l : r.labels) PutLengthPrefixed(out, l);
  PutSignedVarint(out, r.comments);
  PutVarint(out, r.events);
  PutVarint(out, r.rules.size());
  for (const auto& id : r.rules) PutLengthPrefixed(out, id);
  PutSignedVarint(out, r.first_comment_at);
  PutVarint(out, r.commenters.size());
  for (uint64_t c : r.commenters) PutVarint(out, c);
  PutVarint(out, r.labels_ever.size());
  for (const auto& l : r.labels_ever) PutLengthPrefixed(out, l);
  PutVarint(out, r.reopened);
  PutVarint(out, r.closing_prs.size());
  for (int64_t pr : r.closing_prs) PutSignedVarint(out, pr);
  return out;
}

TEST(RecordFormatTest, AnIssueRecordOfFormat2Decodes) {
  const IssueRecord r = Sample();
  auto decoded = IssueRecord::Decode(EncodeFormat2(r));
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, r);
  // Encoded again, it is of the current format, and the same record.
  const std::string again = decoded->Encode();
  EXPECT_EQ(static_cast<uint8_t>(again[0]), kIssueRecordFormat);
  EXPECT_EQ(IssueRecord::Decode(again).value(), r);
}

TEST(RecordFormatTest, FieldsOfANewerGhsiftAreSkipped) {
  const IssueRecord r = Sample();
  std::string bytes = r.Encode();
  // The record as a later ghsift might write it: one more field, of a tag this one does not know.
  // Its tagged fields start at the end of format 2's fixed part.
  std::string newer = bytes.substr(0, EncodeFormat2(r).size());
  newer[0] = static_cast<char>(kIssueRecordFormat);
  std::string tail = bytes.substr(EncodeFormat2(r).size());
  ByteReader in(tail);
  const uint64_t count = in.Varint();
  PutVarint(newer, count + 1);
  newer += tail.substr(1);  // the known fields (their count took one byte)
  PutVarint(newer, 1000);   // the unknown tag
  PutLengthPrefixed(newer, "later");
  auto decoded = IssueRecord::Decode(newer);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, r);
  EXPECT_FALSE(IssueRecord::Decode(newer + "x").ok()) << "bytes after the last field are damage";
  newer[0] = static_cast<char>(kIssueRecordFormat + 1);
  EXPECT_FALSE(IssueRecord::Decode(newer).ok()) << "a format of a newer ghsift is refused";
}

TEST(RecordFormatTest, ALatestTextOfFormat1Decodes) {
  LatestTextRecord r;
  r.time = 1700000000;
  r.snapshot[Field::kTitle] = {"Slow"};
  r.snapshot[Field::kBody] = {"body\n```\ncode\n```"};
  r.snapshot[Field::kLabel] = {"bug"};
  r.events[Field::kComment] = {{1700000100, "me too"}};
  std::string format1;
  format1.push_back(1);
  PutSignedVarint(format1, r.time);
  PutLengthPrefixed(format1, "Slow");
  PutLengthPrefixed(format1, "body\n```\ncode\n```");
  PutVarint(format1, 1);
  PutLengthPrefixed(format1, "bug");
  PutVarint(format1, 1);
  PutSignedVarint(format1, 1700000100);
  PutLengthPrefixed(format1, "me too");
  auto decoded = LatestTextRecord::Decode(format1);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, r);
  EXPECT_FALSE(LatestTextRecord::Decode(format1 + "x").ok());
  EXPECT_EQ(static_cast<uint8_t>(decoded->Encode()[0]), kLatestTextFormat);
}

//! A report text record (`ingest --keep-text`) as ghsift wrote it before records could grow:
//! frozen here, never to change. Its key is its hash, so a record of the same text must still be
//! these bytes.
std::string EncodeFirstReportText(const std::string& title, const std::string& body, const std::string& comment,
                                  const std::vector<std::string>& labels) {
  std::string out;
  PutLengthPrefixed(out, title);
  PutLengthPrefixed(out, body);
  PutLengthPrefixed(out, comment);
  PutVarint(out, labels.size());
  for (const auto& l : labels) PutLengthPrefixed(out, l);
  return out;
}

TEST(RecordFormatTest, AReportTextRecordOfTheFirstFieldsIsTheFirstFormat) {
  ReportText text;
  text[Field::kTitle] = {"Slow"};
  text[Field::kBody] = {"body\n```\ncode\n```"};
  text[Field::kComment] = {"me too"};
  text[Field::kLabel] = {"bug", ""};
  const std::string first = EncodeFirstReportText("Slow", "body\n```\ncode\n```", "me too", {"bug", ""});
  EXPECT_EQ(EncodeReportTextRecord(text), first);
  auto decoded = DecodeReportTextRecord(first);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, text);
  // Without a comment, as an issue event wrote it.
  text[Field::kComment].clear();
  EXPECT_EQ(EncodeReportTextRecord(text), EncodeFirstReportText("Slow", "body\n```\ncode\n```", "", {"bug", ""}));
  EXPECT_FALSE(DecodeReportTextRecord(first.substr(0, first.size() - 1)).ok());
}

TEST(RecordFormatTest, AReviewFollowsTheFirstFieldsAsATaggedField) {
  ReportText text;
  text[Field::kTitle] = {"Slow"};
  text[Field::kReview] = {"this loop is slow"};
  const std::string bytes = EncodeReportTextRecord(text);
  // The first format's fields, then one tagged field (tag 1: count 1, then the review).
  std::string expected = EncodeFirstReportText("Slow", "", "", {});
  PutVarint(expected, 1);
  PutVarint(expected, 1);
  std::string review;
  PutVarint(review, 1);
  PutLengthPrefixed(review, "this loop is slow");
  PutLengthPrefixed(expected, review);
  EXPECT_EQ(bytes, expected);
  auto decoded = DecodeReportTextRecord(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, text);
}

TEST(RecordFormatTest, ALatestTextKeepsReviewsAsATaggedField) {
  LatestTextRecord r;
  r.time = 1700000000;
  r.snapshot[Field::kTitle] = {"Slow"};
  r.events[Field::kComment] = {{1700000100, "me too"}};
  r.events[Field::kReview] = {{1700000200, "slow loop"}, {1700000300, "still slow"}};
  const std::string bytes = r.Encode();
  auto decoded = LatestTextRecord::Decode(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, r);
  // Without reviews the record is what format 2 always was: no tagged field.
  r.events[Field::kReview].clear();
  const std::string plain = r.Encode();
  EXPECT_EQ(plain.back(), '\0') << "a tagged-field count of 0 ends it";
  EXPECT_EQ(bytes.substr(0, plain.size() - 1), plain.substr(0, plain.size() - 1));
  // Reviews merge as comments do: united, by time.
  LatestTextRecord other;
  other.events[Field::kReview] = {{1700000250, "why slow?"}};
  decoded->Merge(other);
  EXPECT_EQ(decoded->events[Field::kReview],
            (std::vector<LatestTextRecord::TimedText>{
                {1700000200, "slow loop"}, {1700000250, "why slow?"}, {1700000300, "still slow"}}));
}

}  // namespace
}  // namespace ghsift
