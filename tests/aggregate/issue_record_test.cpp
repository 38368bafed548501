#include "aggregate/issue_record.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <vector>

namespace ghsift {
namespace {

IssueRecord Record(int64_t time, std::string title, std::string state, std::vector<std::string> labels,
                   std::vector<std::string> rules) {
  IssueRecord r;
  r.created_at = time - 100;
  r.first_seen = r.last_seen = r.snapshot_time = time;
  r.title = std::move(title);
  r.state = std::move(state);
  r.labels = std::move(labels);
  r.rules = std::move(rules);
  r.events = 1;
  return r;
}

IssueRecord Merged(IssueRecord a, const IssueRecord& b) {
  a.Merge(b);
  return a;
}

std::vector<IssueRecord> Samples() {
  IssueRecord a = Record(1000, "Slow training", "open", {"bug"}, {"perf.a"});
  a.comments = 2;
  IssueRecord b = Record(2000, "Slow training on GPU", "closed", {"bug", "performance"}, {"perf.b"});
  b.closed_at = 2000;
  b.comments = 5;
  // Same snapshot time as b, other content: the tie is broken by content.
  IssueRecord c = Record(2000, "Slow training (dup)", "open", {"question"}, {"acc.c", "perf.a"});
  c.kind = 1;
  c.created_at = 0;  // unknown creation time
  IssueRecord d = Record(500, "First title", "open", {}, {});
  d.events = 3;
  d.comments = 1;
  IssueRecord e = Record(2000, "Slow training on GPU", "closed", {"bug"}, {"z.rule"});
  e.closed_at = 2000;
  return {a, b, c, d, e};
}

TEST(IssueRecordTest, MergeIsCommutative) {
  const auto s = Samples();
  for (size_t i = 0; i < s.size(); ++i) {
    for (size_t j = 0; j < s.size(); ++j) {
      EXPECT_EQ(Merged(s[i], s[j]), Merged(s[j], s[i])) << i << " with " << j;
    }
  }
}

TEST(IssueRecordTest, MergeIsAssociative) {
  const auto s = Samples();
  for (size_t i = 0; i < s.size(); ++i) {
    for (size_t j = 0; j < s.size(); ++j) {
      for (size_t k = 0; k < s.size(); ++k) {
        EXPECT_EQ(Merged(Merged(s[i], s[j]), s[k]), Merged(s[i], Merged(s[j], s[k])))
            << i << ", " << j << ", " << k;
      }
    }
  }
}

TEST(IssueRecordTest, EveryOrderGivesTheSameRecord) {
  auto s = Samples();
  std::vector<size_t> order(s.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  IssueRecord reference;
  for (size_t i : order) reference.Merge(s[i]);
  int permutations = 0;
  while (std::next_permutation(order.begin(), order.end())) {
    IssueRecord r;
    for (size_t i : order) r.Merge(s[i]);
    ASSERT_EQ(r, reference);
    ++permutations;
  }
  EXPECT_EQ(permutations, 119);
}

TEST(IssueRecordTest, MergeResult) {
  const auto s = Samples();
  IssueRecord r;
  for (const auto& x : s) r.Merge(x);
  EXPECT_EQ(r.kind, 1);                  // a pull-request sighting wins
  EXPECT_EQ(r.created_at, 400);          // earliest non-zero
  EXPECT_EQ(r.first_seen, 500);
  EXPECT_EQ(r.last_seen, 2000);
  EXPECT_EQ(r.snapshot_time, 2000);
  // At 2000 a snapshot closed in that second and an open one: the close came last (a comment and
  // the close of "Close with comment" share their second).
  EXPECT_EQ(r.state, "closed");
  EXPECT_EQ(r.title, "Slow training on GPU");
  EXPECT_EQ(r.labels, (std::vector<std::string>{"bug", "performance"}));
  EXPECT_EQ(r.closed_at, 2000);
  EXPECT_EQ(r.comments, 5);
  EXPECT_EQ(r.events, 7u);
  EXPECT_EQ(r.rules, (std::vector<std::string>{"acc.c", "perf.a", "perf.b", "z.rule"}));
}

// Snapshots of one second, in either order: a close with a comment ends closed; a reopen with a
// comment (the comment's snapshot still closed from before) ends open.
TEST(IssueRecordTest, SameSecondSnapshotsEndAsGitHubLeftThem) {
  IssueRecord comment = Record(300, "t", "open", {}, {});
  IssueRecord close = Record(300, "t", "closed", {}, {});
  close.closed_at = 300;
  EXPECT_EQ(Merged(comment, close).state, "closed");
  EXPECT_EQ(Merged(close, comment).state, "closed");
  IssueRecord before_reopen = Record(400, "t", "closed", {}, {});
  before_reopen.closed_at = 300;
  IssueRecord reopen = Record(400, "t", "open", {}, {});
  EXPECT_EQ(Merged(before_reopen, reopen).state, "open");
  EXPECT_EQ(Merged(reopen, before_reopen).state, "open");
}

TEST(IssueRecordTest, LaterSnapshotWins) {
  IssueRecord open = Record(100, "t", "open", {"a"}, {});
  IssueRecord closed = Record(200, "t2", "closed", {}, {});
  closed.closed_at = 200;
  const IssueRecord r = Merged(closed, open);
  EXPECT_EQ(r.state, "closed");
  EXPECT_EQ(r.title, "t2");
  EXPECT_TRUE(r.labels.empty());
  EXPECT_EQ(r.closed_at, 200);
  EXPECT_EQ(r.first_seen, 100);
}

TEST(IssueRecordTest, DefaultRecordIsTheIdentity) {
  for (const auto& x : Samples()) {
    EXPECT_EQ(Merged(IssueRecord(), x), x);
    EXPECT_EQ(Merged(x, IssueRecord()), x);
  }
}

TEST(IssueRecordTest, EncodeDecodeRoundTrip) {
  std::vector<IssueRecord> records = Samples();
  records.push_back(IssueRecord());
  IssueRecord extreme = Record(-5, std::string(300, 't'), "closed", {"", "x y", std::string(200, 'l')},
                               {"a", "b"});
  extreme.created_at = std::numeric_limits<int64_t>::min();
  extreme.comments = -1;
  extreme.events = std::numeric_limits<uint64_t>::max();
  extreme.title.push_back('\0');
  records.push_back(extreme);
  for (const auto& r : records) {
    auto decoded = IssueRecord::Decode(r.Encode());
    ASSERT_TRUE(decoded.ok()) << decoded.status().message();
    EXPECT_EQ(*decoded, r);
  }
}

TEST(IssueRecordTest, DecodeOfATruncatedValueFails) {
  const std::string bytes = Samples()[2].Encode();
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto decoded = IssueRecord::Decode(std::string_view(bytes).substr(0, n));
    ASSERT_FALSE(decoded.ok()) << "prefix of " << n << " of " << bytes.size() << " bytes decoded";
    EXPECT_EQ(decoded.status().code(), StatusCode::kStoreError);
  }
}

TEST(IssueRecordTest, DecodeOfAnUnknownVersionFails) {
  std::string bytes = Samples()[0].Encode();
  bytes[0] = 99;
  auto decoded = IssueRecord::Decode(bytes);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kStoreError);
}

TEST(IssueRecordTest, MergeSortedIds) {
  std::vector<std::string> ids = {"b", "d"};
  MergeSortedIds(ids, {"a", "b", "c"});
  EXPECT_EQ(ids, (std::vector<std::string>{"a", "b", "c", "d"}));
  MergeSortedIds(ids, {});
  EXPECT_EQ(ids, (std::vector<std::string>{"a", "b", "c", "d"}));
  std::vector<std::string> empty;
  MergeSortedIds(empty, {"x"});
  EXPECT_EQ(empty, (std::vector<std::string>{"x"}));
}

}  // namespace
}  // namespace ghsift

namespace ghsift {
namespace {

TEST(IssueRecordTest, LifecycleFieldsMergeAndRoundTrip) {
  IssueRecord a, b;
  a.events = b.events = 1;
  a.first_comment_at = 200;
  b.first_comment_at = 100;
  a.commenters = {3, 7};
  b.commenters = {1, 7};
  a.labels_ever = {"bug"};
  b.labels_ever = {"perf", "z"};
  a.reopened = 1;
  b.reopened = 2;
  b.closing_prs = {42};
  IssueRecord ab = a, ba = b;
  ab.Merge(b);
  ba.Merge(a);
  EXPECT_EQ(ab, ba);
  EXPECT_EQ(ab.first_comment_at, 100);
  EXPECT_EQ(ab.commenters, (std::vector<uint64_t>{1, 3, 7}));
  EXPECT_EQ(ab.labels_ever, (std::vector<std::string>{"bug", "perf", "z"}));
  EXPECT_EQ(ab.reopened, 3u);
  EXPECT_EQ(ab.closing_prs, (std::vector<int64_t>{42}));
  auto decoded = IssueRecord::Decode(ab.Encode());
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, ab);
  IssueRecord reference;  // a closing reference alone
  reference.closing_prs = {5};
  EXPECT_TRUE(reference.reference_only());
  EXPECT_FALSE(ab.reference_only());
}

}  // namespace
}  // namespace ghsift
