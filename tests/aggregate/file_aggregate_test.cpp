#include "aggregate/file_aggregate.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aggregate/event_type_table.hpp"
#include "common/time_util.hpp"

namespace ghsift {
namespace {

int64_t Time(const char* iso) { return *ParseIsoTime(iso); }
int32_t Day(const char* iso) { return DayOf(Time(iso)); }

Event MakeEvent(std::string_view type, int64_t repo_id, std::string_view repo_name, const char* time) {
  Event e;
  e.type = type;
  e.kind = EventKind::kOther;
  e.repo_id = repo_id;
  e.repo_name = repo_name;
  e.created_at = Time(time);
  return e;
}

Event MakeReport(int64_t repo_id, int64_t number, const char* time, std::string_view title, std::string_view state,
                 std::vector<std::string_view> labels) {
  Event e = MakeEvent("IssuesEvent", repo_id, "o/r", time);
  e.kind = EventKind::kIssues;
  e.has_report = true;
  e.report.number = number;
  e.report.text[Field::kTitle] = title;
  e.report.state = state;
  e.report.labels = std::move(labels);
  e.report.created_at = Time("2015-01-01T00:00:00Z");
  return e;
}

TEST(FileAggregateTest, EventTypeTable) {
  EXPECT_EQ(EventTypeName(EventTypeId("PushEvent")), "PushEvent");
  EXPECT_EQ(EventTypeName(EventTypeId("IssuesEvent")), "IssuesEvent");
  EXPECT_EQ(EventTypeId("NoSuchEvent"), kUnknownEventType);
  EXPECT_EQ(EventTypeName(kUnknownEventType), "");
}

TEST(FileAggregateTest, CountEvent) {
  FileAggregate agg;
  agg.CountEvent(MakeEvent("PushEvent", 1, "a/one", "2015-01-01T10:00:00Z"));
  agg.CountEvent(MakeEvent("PushEvent", 1, "a/one", "2015-01-01T23:59:59Z"));
  agg.CountEvent(MakeEvent("PushEvent", 1, "a/one", "2015-01-02T00:00:00Z"));
  agg.CountEvent(MakeEvent("WatchEvent", 2, "b/two", "2015-01-01T10:00:00Z"));
  agg.CountEvent(MakeEvent("MysteryEvent", 2, "b/two", "2015-01-01T10:00:00Z"));
  agg.CountEvent(MakeEvent("MysteryEvent", 2, "b/two", "2015-01-01T11:00:00Z"));
  EXPECT_EQ(agg.events(), 6u);
  const auto& c = agg.counters();
  EXPECT_EQ(c.size(), 3u);
  EXPECT_EQ(c.at(CounterKey{1, Day("2015-01-01T00:00:00Z"), EventTypeId("PushEvent")}), 2u);
  EXPECT_EQ(c.at(CounterKey{1, Day("2015-01-02T00:00:00Z"), EventTypeId("PushEvent")}), 1u);
  EXPECT_EQ(c.at(CounterKey{2, Day("2015-01-01T00:00:00Z"), EventTypeId("WatchEvent")}), 1u);
  ASSERT_EQ(agg.unknown_types().size(), 1u);
  const auto& mystery = agg.unknown_types().at("MysteryEvent");
  ASSERT_EQ(mystery.size(), 1u);
  EXPECT_EQ(mystery.begin()->second, 2u);
  EXPECT_EQ(mystery.begin()->first.repo_id, 2);
  EXPECT_EQ(mystery.begin()->first.type_id, kUnknownEventType);
  EXPECT_EQ(agg.reports(), 0u);
}

TEST(FileAggregateTest, LatestRepoNameByEventTime) {
  FileAggregate agg;
  agg.CountEvent(MakeEvent("PushEvent", 7, "old/name", "2015-01-01T10:00:00Z"));
  agg.CountEvent(MakeEvent("PushEvent", 7, "new/name", "2015-01-01T12:00:00Z"));
  agg.CountEvent(MakeEvent("PushEvent", 7, "older/name", "2015-01-01T09:00:00Z"));
  agg.CountEvent(MakeEvent("PushEvent", 8, "b/tie", "2015-01-01T09:00:00Z"));
  agg.CountEvent(MakeEvent("PushEvent", 8, "a/tie", "2015-01-01T09:00:00Z"));
  agg.CountEvent(MakeEvent("PushEvent", 0, "zero/id", "2015-01-01T09:00:00Z"));
  agg.CountEvent(MakeEvent("PushEvent", 9, "", "2015-01-01T09:00:00Z"));
  ASSERT_EQ(agg.repo_names().size(), 2u);
  EXPECT_EQ(agg.repo_names().at(7).name, "new/name");
  EXPECT_EQ(agg.repo_names().at(7).time, Time("2015-01-01T12:00:00Z"));
  EXPECT_EQ(agg.repo_names().at(8).name, "b/tie");
}

TEST(FileAggregateTest, AddReportFoldsSnapshots) {
  FileAggregate agg;
  agg.AddReport(MakeReport(1, 5, "2015-01-02T00:00:00Z", "Slow", "open", {"z", "a"}), {"r2", "r1", "r2"});
  agg.AddReport(MakeReport(1, 5, "2015-01-03T00:00:00Z", "Slow!", "closed", {"b"}), {"r3"});
  agg.AddReport(MakeReport(2, 5, "2015-01-01T00:00:00Z", "Other repo", "open", {}), {});
  EXPECT_EQ(agg.reports(), 3u);
  ASSERT_EQ(agg.issues().size(), 2u);
  const IssueRecord& r = agg.issues().at(IssueKey{1, 5});
  EXPECT_EQ(r.title, "Slow!");
  EXPECT_EQ(r.state, "closed");
  EXPECT_EQ(r.labels, (std::vector<std::string>{"b"}));
  EXPECT_EQ(r.rules, (std::vector<std::string>{"r1", "r2", "r3"}));
  EXPECT_EQ(r.events, 2u);
  EXPECT_EQ(r.first_seen, Time("2015-01-02T00:00:00Z"));
  EXPECT_EQ(r.last_seen, Time("2015-01-03T00:00:00Z"));
  EXPECT_EQ(r.created_at, Time("2015-01-01T00:00:00Z"));
  EXPECT_EQ(r.kind, 0);
  const IssueRecord& other = agg.issues().at(IssueKey{2, 5});
  EXPECT_EQ(other.title, "Other repo");
  EXPECT_TRUE(other.rules.empty());
  // Labels of a single snapshot are sorted.
  FileAggregate one;
  one.AddReport(MakeReport(1, 1, "2015-01-02T00:00:00Z", "t", "open", {"z", "a", "m"}), {});
  EXPECT_EQ(one.issues().at(IssueKey{1, 1}).labels, (std::vector<std::string>{"a", "m", "z"}));
}

TEST(FileAggregateTest, CombineEqualsFeedingOneAggregate) {
  std::vector<Event> events = {
      MakeEvent("PushEvent", 1, "a/one", "2015-01-01T10:00:00Z"),
      MakeEvent("PushEvent", 1, "a/renamed", "2015-01-01T11:00:00Z"),
      MakeEvent("OddEvent", 3, "c/three", "2015-01-01T11:00:00Z"),
      MakeEvent("WatchEvent", 2, "b/two", "2015-01-01T10:00:00Z"),
  };
  std::vector<Event> reports = {
      MakeReport(1, 1, "2015-01-01T10:00:00Z", "A", "open", {"x"}),
      MakeReport(1, 1, "2015-01-01T12:00:00Z", "A2", "closed", {}),
      MakeReport(2, 9, "2015-01-01T12:00:00Z", "B", "open", {}),
  };
  FileAggregate whole;
  for (const auto& e : events) whole.CountEvent(e);
  for (size_t i = 0; i < reports.size(); ++i) whole.AddReport(reports[i], {"rule" + std::to_string(i)});
  whole.AddBadLine(0, 3, "invalid JSON");
  whole.AddBytes(100);
  whole.AddBytes(50);

  FileAggregate first, second, third;
  first.CountEvent(events[1]);
  first.AddReport(reports[1], {"rule1"});
  first.AddBytes(100);
  second.CountEvent(events[0]);
  second.CountEvent(events[2]);
  second.AddReport(reports[0], {"rule0"});
  second.AddBadLine(0, 3, "invalid JSON");
  third.CountEvent(events[3]);
  third.AddReport(reports[2], {"rule2"});
  third.AddBytes(50);
  FileAggregate combined;
  combined.Combine(std::move(third));
  combined.Combine(std::move(first));
  combined.Combine(std::move(second));

  EXPECT_EQ(combined.counters(), whole.counters());
  EXPECT_EQ(combined.unknown_types(), whole.unknown_types());
  EXPECT_EQ(combined.issues(), whole.issues());
  ASSERT_EQ(combined.repo_names().size(), whole.repo_names().size());
  for (const auto& [id, name] : whole.repo_names()) {
    EXPECT_EQ(combined.repo_names().at(id).name, name.name);
    EXPECT_EQ(combined.repo_names().at(id).time, name.time);
  }
  EXPECT_EQ(combined.repo_names().at(1).name, "a/renamed");
  EXPECT_EQ(combined.events(), 4u);
  EXPECT_EQ(combined.reports(), 3u);
  EXPECT_EQ(combined.bad_lines(), 1u);
  EXPECT_EQ(combined.bytes(), 150u);
  EXPECT_EQ(combined.issues().at(IssueKey{1, 1}).rules, (std::vector<std::string>{"rule0", "rule1"}));
}

TEST(FileAggregateTest, ResolveLineNumbersAcrossChunks) {
  // Chunks of 5, 3 and 4 lines, folded out of order as the pipeline may do.
  FileAggregate c0, c1, c2;
  c0.AddChunkLines(0, 5);
  c0.AddBadLine(0, 2, "invalid JSON");
  c1.AddChunkLines(1, 3);
  c1.AddBadLine(1, 0, "line longer than 16 bytes");
  c2.AddChunkLines(2, 4);
  c2.AddBadLine(2, 3, "no `type`");
  c2.AddBadLine(2, 1, "not a JSON object");
  FileAggregate file;
  file.Combine(std::move(c2));
  file.Combine(std::move(c0));
  file.Combine(std::move(c1));
  EXPECT_EQ(file.lines(), 12u);
  file.ResolveLineNumbers();
  ASSERT_EQ(file.bad_line_samples().size(), 4u);
  EXPECT_EQ(file.bad_lines(), 4u);
  const auto& b = file.bad_line_samples();
  EXPECT_EQ(b[0].line, 3u);
  EXPECT_EQ(b[0].reason, "invalid JSON");
  EXPECT_EQ(b[1].line, 6u);
  EXPECT_EQ(b[1].reason, "line longer than 16 bytes");
  EXPECT_EQ(b[2].line, 10u);
  EXPECT_EQ(b[2].reason, "not a JSON object");
  EXPECT_EQ(b[3].line, 12u);
  EXPECT_EQ(b[3].chunk, 2u);
  EXPECT_EQ(b[3].line_in_chunk, 3u);
}

TEST(FileAggregateTest, KeepsTheEarliestBadLineSamples) {
  // 30 chunks of 10 lines, each with 3 bad lines (lines 2, 5, 9 of the chunk), folded in reverse.
  FileAggregate file;
  for (int chunk = 29; chunk >= 0; --chunk) {
    FileAggregate part;
    part.AddChunkLines(static_cast<uint64_t>(chunk), 10);
    for (uint64_t line : {9, 1, 4}) part.AddBadLine(static_cast<uint64_t>(chunk), line, "bad");
    file.Combine(std::move(part));
  }
  file.ResolveLineNumbers();
  EXPECT_EQ(file.bad_lines(), 90u);
  EXPECT_EQ(file.lines(), 300u);
  ASSERT_EQ(file.bad_line_samples().size(), FileAggregate::kBadLineSamples);
  const std::vector<uint64_t> expected = {2, 5, 10, 12, 15, 20, 22, 25, 30, 32};
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(file.bad_line_samples()[i].line, expected[i]) << i;
}

TEST(FileAggregateTest, ManyBadLinesInOneChunk) {
  FileAggregate agg;
  agg.AddChunkLines(0, 100);
  for (uint64_t line = 100; line-- > 0;) agg.AddBadLine(0, line, "bad " + std::to_string(line));
  agg.ResolveLineNumbers();
  EXPECT_EQ(agg.bad_lines(), 100u);
  ASSERT_EQ(agg.bad_line_samples().size(), FileAggregate::kBadLineSamples);
  for (size_t i = 0; i < FileAggregate::kBadLineSamples; ++i) {
    EXPECT_EQ(agg.bad_line_samples()[i].line, i + 1);
    EXPECT_EQ(agg.bad_line_samples()[i].reason, "bad " + std::to_string(i));
  }
}

}  // namespace
}  // namespace ghsift

namespace ghsift {
namespace {

// The archive holds some events twice (same id): they count once, in whichever chunks the two
// copies fall.
TEST(FileAggregateTest, DuplicateEventIdsCountOnce) {
  FileAggregate first, second;
  Event push = MakeEvent("PushEvent", 1, "a/one", "2015-01-01T10:00:00Z");
  push.id = 100;
  Event odd = MakeEvent("MysteryEvent", 1, "a/one", "2015-01-01T10:00:00Z");
  odd.id = 101;
  Event report = MakeReport(1, 9, "2015-01-01T10:00:01Z", "title", "open", {});
  report.id = 102;
  first.CountEvent(push);
  first.CountEvent(odd);
  first.CountEvent(report);
  first.AddReport(report, {"r1"});
  second.CountEvent(push);  // the copies land in another chunk
  second.CountEvent(odd);
  second.CountEvent(report);
  second.AddReport(report, {"r1"});
  Event other = MakeEvent("PushEvent", 1, "a/one", "2015-01-01T10:00:02Z");
  other.id = 103;
  second.CountEvent(other);
  first.Combine(std::move(second));
  EXPECT_EQ(first.RemoveDuplicateEvents(), 3u);
  EXPECT_EQ(first.events(), 4u);
  EXPECT_EQ(first.duplicate_events(), 3u);
  EXPECT_EQ(first.reports(), 1u);
  EXPECT_EQ(first.counters().at(CounterKey{1, DayOf(Time("2015-01-01T00:00:00Z")), EventTypeId("PushEvent")}), 2u);
  EXPECT_EQ(first.unknown_types().at("MysteryEvent").begin()->second, 1u);
  EXPECT_EQ(first.issues().at(IssueKey{1, 9}).events, 1u);
}

// A report event without a usable number counts as an event and apart, with its place and reason;
// a duplicate of it counts once in both.
TEST(FileAggregateTest, ReportEventsWithoutNumberAreCountedWithTheirPlace) {
  FileAggregate first, second;
  Event event = MakeEvent("IssuesEvent", 1, "a/one", "2015-01-01T10:00:00Z");
  event.kind = EventKind::kIssues;
  event.id = 7;
  event.no_report_reason = "`payload.issue.number` is null";
  first.AddChunkLines(0, 10);
  first.CountEvent(event);
  first.AddReportEventWithoutNumber(event, 0, 4);
  second.AddChunkLines(1, 10);
  second.CountEvent(event);  // the archive's duplicate, in the next chunk
  second.AddReportEventWithoutNumber(event, 1, 2, 3);
  first.Combine(std::move(second));
  first.ResolveLineNumbers();
  ASSERT_EQ(first.without_number_samples().size(), 2u);
  EXPECT_EQ(first.without_number_samples()[0].line, 5u);
  EXPECT_EQ(first.without_number_samples()[0].column, 1u);
  EXPECT_EQ(first.without_number_samples()[0].reason, "IssuesEvent: `payload.issue.number` is null");
  EXPECT_EQ(first.without_number_samples()[1].line, 13u);
  EXPECT_EQ(first.without_number_samples()[1].column, 3u);
  EXPECT_EQ(first.report_events_without_number(), 2u);
  EXPECT_EQ(first.RemoveDuplicateEvents(), 1u);
  EXPECT_EQ(first.events(), 1u);
  EXPECT_EQ(first.report_events_without_number(), 1u);
  EXPECT_EQ(first.bad_lines(), 0u);
  EXPECT_EQ(first.reports(), 0u);
}

}  // namespace
}  // namespace ghsift
