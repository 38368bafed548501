#include "aggregate/latest_text_record.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "aggregate/file_aggregate.hpp"

namespace ghsift {
namespace {

LatestTextRecord Text(int64_t time, std::string title, std::string body, std::vector<std::string> labels,
                      std::vector<std::pair<int64_t, std::string>> comments = {}) {
  LatestTextRecord r;
  r.time = time;
  r.snapshot.Add(Field::kTitle, title);
  r.snapshot.Add(Field::kBody, body);
  r.snapshot[Field::kLabel] = std::move(labels);
  r.events[Field::kComment] = std::move(comments);
  return r;
}

TEST(LatestTextRecordTest, TheLatestSnapshotWinsInEveryOrder) {
  const std::vector<LatestTextRecord> parts = {
      Text(100, "Slow fit", "first body", {"bug"}, {{100, "same here"}}),
      Text(300, "Slow fit (edited)", "edited body\n```\nslow()\n```\n", {"bug", "performance"}, {{300, "fixed?"}}),
      Text(200, "Slow fit", "first body", {"bug"}, {{200, "+1, very slow"}}),
      // A later event without text (a blind spot of the archive) never hides the text.
      Text(400, "", "", {}, {{400, "closing"}}),
  };
  std::vector<size_t> order = {0, 1, 2, 3};
  std::optional<LatestTextRecord> first;
  do {
    LatestTextRecord merged;
    for (size_t i : order) merged.Merge(parts[i]);
    EXPECT_EQ(merged.time, 300);
    EXPECT_EQ(merged.snapshot.First(Field::kTitle), "Slow fit (edited)");
    EXPECT_EQ(merged.snapshot.First(Field::kBody), "edited body\n```\nslow()\n```\n");
    EXPECT_EQ(merged.snapshot[Field::kLabel], (std::vector<std::string>{"bug", "performance"}));
    EXPECT_EQ(merged.events[Field::kComment], (std::vector<std::pair<int64_t, std::string>>{
                                   {100, "same here"}, {200, "+1, very slow"}, {300, "fixed?"}, {400, "closing"}}));
    if (!first) first = merged;
    EXPECT_EQ(merged, *first);
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST(LatestTextRecordTest, MergingTheSameRecordTwiceChangesNothing) {
  LatestTextRecord a = Text(100, "Slow", "body", {"x"}, {{100, "c"}});
  const LatestTextRecord copy = a;
  a.Merge(copy);
  EXPECT_EQ(a, copy);
}

TEST(LatestTextRecordTest, CommentsAreCappedAtTheEarliest) {
  LatestTextRecord late, early;
  for (int64_t t = 0; t < 50; ++t) late.events[Field::kComment].emplace_back(1000 + t, "late " + std::to_string(t));
  for (int64_t t = 0; t < 50; ++t) early.events[Field::kComment].emplace_back(t, "early " + std::to_string(t));
  LatestTextRecord a = late, b = early;
  a.Merge(early);
  b.Merge(late);
  ASSERT_EQ(a.events[Field::kComment].size(), LatestTextRecord::kMaxComments);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.events[Field::kComment].front(), (std::pair<int64_t, std::string>{0, "early 0"}));
  EXPECT_EQ(a.events[Field::kComment].back(), (std::pair<int64_t, std::string>{1000 + 13, "late 13"}));
}

TEST(LatestTextRecordTest, EncodeDecodeRoundTrip) {
  const LatestTextRecord r = Text(-5, "t\n", std::string("b\0c", 3), {"a b", ""}, {{7, "x"}, {8, ""}});
  auto back = LatestTextRecord::Decode(r.Encode());
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, r);
  const std::string bytes = r.Encode();
  EXPECT_FALSE(LatestTextRecord::Decode(bytes.substr(0, bytes.size() - 1)).ok());
  EXPECT_FALSE(LatestTextRecord::Decode(bytes + "x").ok());
  EXPECT_FALSE(LatestTextRecord::Decode("").ok());
}

TEST(LatestTextRecordTest, FileAggregatesCombineTexts) {
  FileAggregate a, b, c;
  a.AddLatestText(1, 2, Text(100, "old", "old body", {}, {{100, "c1"}}));
  b.AddLatestText(1, 2, Text(200, "new", "new body", {"l"}, {{200, "c2"}}));
  b.AddLatestText(1, 3, Text(200, "other", "", {}));
  c.AddLatestText(1, 2, Text(150, "mid", "mid body", {}));
  a.Combine(std::move(b));
  a.Combine(std::move(c));
  ASSERT_EQ(a.latest_texts().size(), 2u);
  const LatestTextRecord& t = a.latest_texts().at(IssueKey{1, 2});
  EXPECT_EQ(t.snapshot.First(Field::kTitle), "new");
  EXPECT_EQ(t.snapshot.First(Field::kBody), "new body");
  EXPECT_EQ(t.events[Field::kComment], (std::vector<std::pair<int64_t, std::string>>{{100, "c1"}, {200, "c2"}}));
  EXPECT_EQ(a.latest_texts().at(IssueKey{1, 3}).snapshot.First(Field::kTitle), "other");
}

}  // namespace
}  // namespace ghsift
