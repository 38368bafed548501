#include "json/event_extractor.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/time_util.hpp"
#include "io/decoder.hpp"
#include "io/line_splitter.hpp"

namespace ghsift {
namespace {

//! Holds a line followed by SIMDJSON_PADDING readable bytes, as the extractor requires.
class PaddedLine {
 public:
  explicit PaddedLine(std::string line) : size_(line.size()) {
    storage_ = std::move(line);
    storage_.append(simdjson::SIMDJSON_PADDING, ' ');
  }
  std::string_view view() const { return std::string_view(storage_.data(), size_); }

 private:
  std::string storage_;
  size_t size_;
};

int64_t Time(const char* iso) { return *ParseIsoTime(iso); }

const std::string kPushLine =
    R"({"id":"2489651045","type":"PushEvent","actor":{"id":665991,"login":"petroav","gravatar_id":"",)"
    R"("url":"https://api.github.com/users/petroav","avatar_url":"https://avatars.githubusercontent.com/u/665991?"},)"
    R"("repo":{"id":28688495,"name":"petroav/6.828","url":"https://api.github.com/repos/petroav/6.828"},)"
    R"("payload":{"push_id":536752122,"size":1,"distinct_size":1,"ref":"refs/heads/master",)"
    R"("commits":[{"sha":"6b9c","message":"Solution to \"ex\" {x}","distinct":true}]},)"
    R"("public":true,"created_at":"2015-01-01T15:00:00Z"})";

const std::string kIssuesLine =
    R"({"id":"2489651050","type":"IssuesEvent","actor":{"id":1,"login":"alice"},)"
    R"("repo":{"id":123,"name":"owner/repo","url":"https://api.github.com/repos/owner/repo"},)"
    R"("payload":{"action":"closed","issue":{"url":"https://api.github.com/repos/owner/repo/issues/42",)"
    R"("id":55,"number":42,"title":"Training is very slow","user":{"login":"bob","id":2},)"
    R"("labels":[{"url":"https://x","name":"bug","color":"fc2929"},{"name":"performance"}],)"
    R"("state":"closed","locked":false,"assignee":null,"milestone":null,"comments":3,)"
    R"("created_at":"2015-01-01T10:00:00Z","updated_at":"2015-01-02T11:00:00Z",)"
    R"("closed_at":"2015-01-02T11:00:00Z","body":null}},)"
    R"("public":true,"created_at":"2015-01-02T11:00:01Z"})";

std::string IssueCommentLine(const std::string& pull_request_member) {
  return R"({"id":"9","type":"IssueCommentEvent","actor":{"id":1,"login":"alice"},)"
         R"("repo":{"id":77,"name":"org/proj","url":"https://api.github.com/repos/org/proj"},)"
         R"("payload":{"action":"created","issue":{"number":7,"title":"Fix the loader",)" +
         pull_request_member +
         R"("labels":[],"state":"open","comments":1,"created_at":"2016-03-01T00:00:00Z","closed_at":null,)"
         R"("body":"Body text\n```\ncode\n```"},)"
         R"("comment":{"id":100,"body":"LGTM, but it is slow","user":{"login":"carol"}}},)"
         R"("public":true,"created_at":"2016-03-02T08:09:10Z","org":{"id":5,"login":"org"}})";
}

TEST(EventExtractorTest, PushEventEnvelope) {
  EventExtractor extractor;
  Event event;
  PaddedLine line(kPushLine);
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.kind, EventKind::kOther);
  EXPECT_EQ(event.type, "PushEvent");
  EXPECT_EQ(event.repo_id, 28688495);
  EXPECT_EQ(event.repo_name, "petroav/6.828");
  EXPECT_EQ(event.created_at, Time("2015-01-01T15:00:00Z"));
  EXPECT_FALSE(event.has_report);
  // The fast path reads straight from the line's bytes.
  EXPECT_GE(event.type.data(), line.view().data());
  EXPECT_LT(event.type.data(), line.view().data() + line.view().size());
}

TEST(EventExtractorTest, PushEventWithOrgTail) {
  std::string text = kPushLine;
  text.pop_back();
  text += R"(,"org":{"id":9,"login":"acme","url":"https://api.github.com/orgs/acme"}})";
  EventExtractor extractor;
  Event event;
  PaddedLine line(text);
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.type, "PushEvent");
  EXPECT_EQ(event.repo_id, 28688495);
  EXPECT_EQ(event.repo_name, "petroav/6.828");
  EXPECT_EQ(event.created_at, Time("2015-01-01T15:00:00Z"));
}

TEST(EventExtractorTest, OtherKeyOrderFallsBackToFullParse) {
  const std::string text =
      R"({"created_at":"2014-06-01T12:00:00-07:00","type":"WatchEvent","payload":{"action":"started"},)"
      R"("repo":{"name":"a/b","id":"31"},"public":true})";
  EventExtractor extractor;
  Event event;
  PaddedLine line(text);
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.type, "WatchEvent");
  EXPECT_EQ(event.kind, EventKind::kOther);
  EXPECT_EQ(event.repo_id, 31);  // string ids are accepted
  EXPECT_EQ(event.repo_name, "a/b");
  EXPECT_EQ(event.created_at, Time("2014-06-01T19:00:00Z"));
}

TEST(EventExtractorTest, EscapedRepoNameIsUnescaped) {
  const std::string text =
      R"({"id":"1","type":"ForkEvent","actor":{},"repo":{"id":5,"name":"a\/b","url":""},"payload":{},)"
      R"("public":true,"created_at":"2015-01-01T00:00:00Z"})";
  EventExtractor extractor;
  Event event;
  PaddedLine line(text);
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.repo_name, "a/b");
  EXPECT_EQ(event.repo_id, 5);
}

TEST(EventExtractorTest, EscapedTypeIsUnescaped) {
  const std::string text =
      R"({"id":"1","type":"Odd\u001bEvent","actor":{},"repo":{"id":5,"name":"a/b","url":""},"payload":{},)"
      R"("public":true,"created_at":"2015-01-01T00:00:00Z"})";
  EventExtractor extractor;
  Event event;
  PaddedLine line(text);
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.type, "Odd\x1b" "Event");  // decoded, not the six bytes of the escape
}

TEST(EventExtractorTest, IssuesEventReport) {
  EventExtractor extractor;
  Event event;
  PaddedLine line(kIssuesLine);
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.kind, EventKind::kIssues);
  EXPECT_EQ(event.type, "IssuesEvent");
  EXPECT_EQ(event.repo_id, 123);
  EXPECT_EQ(event.repo_name, "owner/repo");
  EXPECT_EQ(event.created_at, Time("2015-01-02T11:00:01Z"));
  ASSERT_TRUE(event.has_report);
  const ReportFields& r = event.report;
  EXPECT_EQ(r.kind, ReportKind::kIssue);
  EXPECT_EQ(r.number, 42);
  EXPECT_EQ(r.action, "closed");
  EXPECT_EQ(r.text[Field::kTitle], "Training is very slow");
  EXPECT_EQ(r.text[Field::kBody], "");
  EXPECT_EQ(r.text[Field::kComment], "");
  EXPECT_EQ(r.labels, (std::vector<std::string_view>{"bug", "performance"}));
  EXPECT_EQ(r.state, "closed");
  EXPECT_EQ(r.created_at, Time("2015-01-01T10:00:00Z"));
  EXPECT_EQ(r.closed_at, Time("2015-01-02T11:00:00Z"));
  EXPECT_EQ(r.comments, 3);
  EXPECT_FALSE(r.merged);
}

TEST(EventExtractorTest, UnkeptReportReadFromTheBytes) {
  EventExtractor extractor;
  std::vector<std::string> asked;
  extractor.SetKeptReports([&](std::string_view name, int64_t id) {
    asked.push_back(std::string(name) + "#" + std::to_string(id));
    return name == "kept/repo";
  });
  Event event;
  PaddedLine line(kIssuesLine);
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(asked, std::vector<std::string>{"owner/repo#123"});
  EXPECT_EQ(event.kind, EventKind::kIssues);
  EXPECT_EQ(event.type, "IssuesEvent");
  EXPECT_EQ(event.id, 2489651050u);
  EXPECT_EQ(event.repo_id, 123);
  EXPECT_EQ(event.repo_name, "owner/repo");
  EXPECT_EQ(event.created_at, Time("2015-01-02T11:00:01Z"));
  EXPECT_TRUE(event.has_report);
  EXPECT_TRUE(event.no_report_reason.empty());
  EXPECT_EQ(event.report.number, 42);
  EXPECT_EQ(event.report.text[Field::kTitle], "Training is very slow");
  EXPECT_TRUE(event.report.HasText());
  // What counts of an unkept report is all that is read: no labels, state or action.
  EXPECT_TRUE(event.report.labels.empty());
  EXPECT_EQ(event.report.state, "");
  EXPECT_EQ(event.report.action, "");
  EXPECT_EQ(extractor.consumed(), kIssuesLine.size());
}

TEST(EventExtractorTest, KeptReportParsedWhole) {
  EventExtractor extractor;
  extractor.SetKeptReports([](std::string_view name, int64_t) { return name == "owner/repo"; });
  Event event;
  PaddedLine line(kIssuesLine);
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.report.number, 42);
  EXPECT_EQ(event.report.action, "closed");
  EXPECT_EQ(event.report.state, "closed");
  EXPECT_EQ(event.report.labels, (std::vector<std::string_view>{"bug", "performance"}));
  EXPECT_EQ(event.id, 2489651050u);
  EXPECT_EQ(event.repo_id, 123);
}

TEST(EventExtractorTest, UnkeptReportTheBytesDoNotSettleIsParsed) {
  // The comment's report number comes after a nested object: the parser reads it, and says why
  // a report event without a number makes no report, in every scope.
  EventExtractor extractor;
  extractor.SetKeptReports([](std::string_view, int64_t) { return false; });
  Event event;
  const std::string nested_first =
      R"({"id":"9","type":"IssueCommentEvent","actor":{"id":1,"login":"alice"},)"
      R"("repo":{"id":77,"name":"org/proj","url":"https://api.github.com/repos/org/proj"},)"
      R"("payload":{"action":"created","issue":{"user":{"login":"bob"},"number":7,"title":"Fix the loader",)"
      R"("labels":[{"name":"bug"}]},"comment":{"id":100,"body":"LGTM, but it is slow"}},)"
      R"("public":true,"created_at":"2016-03-02T08:09:10Z"})";
  PaddedLine line(nested_first);
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.kind, EventKind::kIssueComment);
  EXPECT_EQ(event.report.number, 7);
  EXPECT_EQ(event.report.text[Field::kComment], "LGTM, but it is slow");
  EXPECT_EQ(event.report.labels, (std::vector<std::string_view>{"bug"}));
  EXPECT_EQ(event.repo_id, 77);
  EXPECT_EQ(event.id, 9u);
  EXPECT_EQ(event.created_at, Time("2016-03-02T08:09:10Z"));
  const std::string without_number =
      R"({"id":"5","type":"IssuesEvent","actor":{"id":1,"login":"a"},)"
      R"("repo":{"id":123,"name":"owner/repo","url":"https://api.github.com/repos/owner/repo"},)"
      R"("payload":{"action":"opened","issue":{"id":55,"number":null,"title":"T"}},)"
      R"("public":true,"created_at":"2015-01-02T11:00:01Z"})";
  PaddedLine bad(without_number);
  ASSERT_EQ(extractor.Extract(bad.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_FALSE(event.has_report);
  EXPECT_EQ(event.no_report_reason, "`payload.issue.number` is null");
  EXPECT_EQ(event.created_at, Time("2015-01-02T11:00:01Z"));
}

TEST(EventExtractorTest, IssueCommentOnPullRequest) {
  EventExtractor extractor;
  Event event;
  PaddedLine line(IssueCommentLine(R"("pull_request":{"url":"https://api.github.com/repos/org/proj/pulls/7",)"
                                   R"("html_url":"https://github.com/org/proj/pull/7"},)"));
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.kind, EventKind::kIssueComment);
  EXPECT_EQ(event.repo_id, 77);
  EXPECT_EQ(event.created_at, Time("2016-03-02T08:09:10Z"));
  ASSERT_TRUE(event.has_report);
  EXPECT_EQ(event.report.kind, ReportKind::kPullRequest);
  EXPECT_EQ(event.report.number, 7);
  EXPECT_EQ(event.report.action, "created");
  EXPECT_EQ(event.report.text[Field::kTitle], "Fix the loader");
  EXPECT_EQ(event.report.text[Field::kBody], "Body text\n```\ncode\n```");
  EXPECT_EQ(event.report.text[Field::kComment], "LGTM, but it is slow");
  EXPECT_TRUE(event.report.labels.empty());
  EXPECT_EQ(event.report.state, "open");
  EXPECT_EQ(event.report.closed_at, 0);
  EXPECT_EQ(event.report.comments, 1);
}

TEST(EventExtractorTest, IssueCommentOnPlainIssue) {
  EventExtractor extractor;
  Event event;
  PaddedLine line(IssueCommentLine(""));
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.kind, EventKind::kIssueComment);
  ASSERT_TRUE(event.has_report);
  EXPECT_EQ(event.report.kind, ReportKind::kIssue);
  EXPECT_EQ(event.report.number, 7);
  EXPECT_EQ(event.report.text[Field::kComment], "LGTM, but it is slow");
}

TEST(EventExtractorTest, OldStyleNullPullRequestIsNotAPullRequest) {
  EventExtractor extractor;
  Event event;
  PaddedLine line(IssueCommentLine(R"("pull_request":{"html_url":null,"diff_url":null,"patch_url":null},)"));
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  ASSERT_TRUE(event.has_report);
  EXPECT_EQ(event.report.kind, ReportKind::kIssue);
  EXPECT_EQ(event.report.number, 7);
}

TEST(EventExtractorTest, PullRequestEvent) {
  const std::string text =
      R"({"id":"3","type":"PullRequestEvent","actor":{"id":1},"repo":{"id":99,"name":"x/y","url":""},)"
      R"("payload":{"action":"closed","number":15,"pull_request":{"url":"https://api.github.com/repos/x/y/pulls/15",)"
      R"("id":1,"number":15,"state":"closed","title":"Speed up the parser","body":"It was 10x slower",)"
      R"("labels":["perf"],"created_at":"2017-05-05T05:05:05Z","closed_at":"2017-05-06T06:06:06Z",)"
      R"("merged":true,"comments":2,"head":{"repo":{"id":1,"name":"fork"}}}},)"
      R"("public":true,"created_at":"2017-05-06T06:06:07Z"})";
  EventExtractor extractor;
  Event event;
  PaddedLine line(text);
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.kind, EventKind::kPullRequest);
  EXPECT_EQ(event.repo_id, 99);
  EXPECT_EQ(event.repo_name, "x/y");
  ASSERT_TRUE(event.has_report);
  EXPECT_EQ(event.report.kind, ReportKind::kPullRequest);
  EXPECT_EQ(event.report.number, 15);
  EXPECT_EQ(event.report.text[Field::kTitle], "Speed up the parser");
  EXPECT_EQ(event.report.text[Field::kBody], "It was 10x slower");
  EXPECT_EQ(event.report.labels, (std::vector<std::string_view>{"perf"}));
  EXPECT_EQ(event.report.state, "closed");
  EXPECT_TRUE(event.report.merged);
  EXPECT_EQ(event.report.comments, 2);
  EXPECT_EQ(event.report.created_at, Time("2017-05-05T05:05:05Z"));
  EXPECT_EQ(event.report.closed_at, Time("2017-05-06T06:06:06Z"));
  EXPECT_EQ(event.created_at, Time("2017-05-06T06:06:07Z"));
}

TEST(EventExtractorTest, PreviousEventIsCleared) {
  EventExtractor extractor;
  Event event;
  PaddedLine issues(kIssuesLine);
  ASSERT_EQ(extractor.Extract(issues.view(), event), ExtractOutcome::kEvent);
  ASSERT_TRUE(event.has_report);
  PaddedLine push(kPushLine);
  ASSERT_EQ(extractor.Extract(push.view(), event), ExtractOutcome::kEvent);
  EXPECT_FALSE(event.has_report);
  EXPECT_EQ(event.kind, EventKind::kOther);
  EXPECT_EQ(event.report.number, 0);
  EXPECT_EQ(event.report.text[Field::kTitle], "");
  EXPECT_TRUE(event.report.labels.empty());
  PaddedLine bad("not json");
  ASSERT_EQ(extractor.Extract(bad.view(), event), ExtractOutcome::kBadLine);
  EXPECT_EQ(event.type, "");
  EXPECT_EQ(event.repo_id, 0);
}

TEST(EventExtractorTest, TrailingCarriageReturnAndSpacesAreIgnored) {
  EventExtractor extractor;
  Event event;
  PaddedLine line(kIssuesLine + " \r");
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.report.number, 42);
}

TEST(EventExtractorTest, EventKindOf) {
  EXPECT_EQ(EventKindOf("IssuesEvent"), EventKind::kIssues);
  EXPECT_EQ(EventKindOf("IssueCommentEvent"), EventKind::kIssueComment);
  EXPECT_EQ(EventKindOf("PullRequestEvent"), EventKind::kPullRequest);
  // Events a text field names as its source (the `review` field): reports for their text.
  EXPECT_EQ(EventKindOf("PullRequestReviewCommentEvent"), EventKind::kReportText);
  EXPECT_EQ(EventKindOf("PullRequestReviewEvent"), EventKind::kReportText);
  EXPECT_EQ(EventKindOf("CommitCommentEvent"), EventKind::kOther);
  EXPECT_EQ(EventKindOf(""), EventKind::kOther);
}

// ---------------------------------------------------------------- review texts

const std::string kReviewCommentLine =
    R"({"id":"101","type":"PullRequestReviewCommentEvent","actor":{"id":5,"login":"reviewer"},)"
    R"("repo":{"id":77,"name":"org/proj"},"payload":{"action":"created","comment":{"id":9,"path":"a.py",)"
    R"("body":"Too slow here","user":{"login":"reviewer"}},"pull_request":{"number":12,"state":"open",)"
    R"("title":"Rewrite the loader","body":"A new loader.","labels":[{"name":"perf"}],"user":{"login":"alice"}}},)"
    R"("public":true,"created_at":"2016-01-01T01:00:00Z"})";

TEST(EventExtractorTest, AReviewCommentIsTheReviewTextOfItsPullRequest) {
  EventExtractor extractor;
  Event event;
  PaddedLine line(kReviewCommentLine);
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.kind, EventKind::kReportText);
  ASSERT_TRUE(event.has_report);
  EXPECT_EQ(event.report.kind, ReportKind::kPullRequest);
  EXPECT_EQ(event.report.number, 12);
  EXPECT_EQ(event.report.text[Field::kReview], "Too slow here");
  EXPECT_EQ(event.report.text[Field::kComment], "") << "a review comment is no issue comment";
  EXPECT_EQ(event.report.text[Field::kTitle], "Rewrite the loader");
  EXPECT_EQ(event.report.text[Field::kBody], "A new loader.");
  EXPECT_EQ(event.report.labels, (std::vector<std::string_view>{"perf"}));
  EXPECT_EQ(event.report.attributes[Attribute::kAuthor], "alice");
}

TEST(EventExtractorTest, AReviewBodyIsReviewTextAndAReviewWithoutOneIsNoReport) {
  const auto review_line = [](const std::string& body) {
    return R"({"id":"102","type":"PullRequestReviewEvent","actor":{"id":6,"login":"approver"},)"
           R"("repo":{"id":77,"name":"org/proj"},"payload":{"action":"created","review":{"id":3,"body":)" +
           body + R"(,"state":"commented"},"pull_request":{"number":13,"state":"open","title":"T"}},)"
           R"("public":true,"created_at":"2016-01-01T01:05:00Z"})";
  };
  EventExtractor extractor;
  Event event;
  PaddedLine with_body(review_line(R"("Please profile this first")"));
  ASSERT_EQ(extractor.Extract(with_body.view(), event), ExtractOutcome::kEvent) << extractor.error();
  ASSERT_TRUE(event.has_report);
  EXPECT_EQ(event.report.number, 13);
  EXPECT_EQ(event.report.text[Field::kReview], "Please profile this first");
  for (const std::string body : {"null", R"("")"}) {
    PaddedLine without(review_line(body));
    ASSERT_EQ(extractor.Extract(without.view(), event), ExtractOutcome::kEvent) << extractor.error();
    EXPECT_EQ(event.kind, EventKind::kReportText);
    EXPECT_FALSE(event.has_report) << body;
  }
}

TEST(EventExtractorTest, AReviewCommentOfTheTimelineNamesItsPullRequestInItsPage) {
  // 2012-2014: the payload holds the comment alone; `type` comes after it.
  PaddedLine line(R"({"created_at":"2013-02-15T00:05:49-08:00","payload":{"comment":{"id":4,"body":"Slow loop",)"
                  R"("path":"x.c","position":3}},"public":true,"type":"PullRequestReviewCommentEvent",)"
                  R"("url":"https://github.com/org/proj/pull/45#discussion_r977","actor":"bob",)"
                  R"("repository":{"id":5,"name":"proj","owner":"org"}})");
  EventExtractor extractor;
  Event event;
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  ASSERT_TRUE(event.has_report);
  EXPECT_EQ(event.report.kind, ReportKind::kPullRequest);
  EXPECT_EQ(event.report.number, 45);
  EXPECT_EQ(event.report.text[Field::kReview], "Slow loop");
  EXPECT_EQ(event.report.text[Field::kComment], "");
}

// The real records (../shared/data/gharchive-real/events.json.gz, read in place): every review
// comment carries its text and names its pull request; 2 of the 9 reviews have a body.
TEST(EventExtractorTest, RealReviewEventsBecomeReportsByTheirText) {
  const std::string path = std::string(GHSIFT_SOURCE_DIR) + "/../shared/data/gharchive-real/events.json.gz";
  auto decoder = OpenDecoder(path);
  if (!decoder.ok()) GTEST_SKIP() << "no real data at " << path;
  LineSplitter splitter(std::move(decoder).value(), LineSplitterOptions());
  EventExtractor extractor;
  Event event;
  Chunk chunk;
  std::map<std::string, std::pair<int, int>> by_type;  // type -> (events, report events with review text)
  for (;;) {
    auto more = splitter.Next(chunk);
    ASSERT_TRUE(more.ok()) << more.status().message();
    if (!*more) break;
    std::string_view rest(chunk.data(), chunk.size);
    while (!rest.empty()) {
      const size_t newline = rest.find('\n');
      const std::string_view one = rest.substr(0, newline);
      rest.remove_prefix(newline == std::string_view::npos ? rest.size() : newline + 1);
      if (one.empty() || extractor.Extract(one, event) != ExtractOutcome::kEvent) continue;
      if (event.kind != EventKind::kReportText) continue;
      auto& [events, reports] = by_type[std::string(event.type)];
      ++events;
      reports += event.has_report && event.report.number > 0 && !event.report.text[Field::kReview].empty();
    }
  }
  EXPECT_EQ(by_type, (std::map<std::string, std::pair<int, int>>{{"PullRequestReviewCommentEvent", {281, 281}},
                                                                  {"PullRequestReviewEvent", {9, 2}}}));
}

// ---------------------------------------------------------------- bad input

ExtractOutcome ExtractText(EventExtractor& extractor, const std::string& text, Event& event) {
  PaddedLine line(text);
  return extractor.Extract(line.view(), event);
}

TEST(EventExtractorTest, InvalidJsonIsABadLine) {
  EventExtractor extractor;
  Event event;
  EXPECT_EQ(ExtractText(extractor, R"({"type":"IssuesEvent",)", event), ExtractOutcome::kBadLine);
  EXPECT_EQ(ExtractText(extractor, R"({"type":"IssuesEvent" "created_at":"2015-01-01T00:00:00Z"})", event),
            ExtractOutcome::kBadLine);
  EXPECT_EQ(ExtractText(extractor, R"({type:IssuesEvent})", event), ExtractOutcome::kBadLine);
  EXPECT_STRNE(extractor.error(), "");
}

TEST(EventExtractorTest, TruncatedLinesAreBad) {
  for (const std::string* full : {&kIssuesLine, &kPushLine}) {
    for (size_t keep : {full->size() / 2, full->size() - 1, full->size() - 2, size_t{10}}) {
      EventExtractor extractor;
      Event event;
      EXPECT_EQ(ExtractText(extractor, full->substr(0, keep), event), ExtractOutcome::kBadLine)
          << full->substr(0, keep);
    }
  }
}

// Two records on one line with no newline between them (an archive quirk): the extractor reads
// the first and says how far it got, so the caller can read the second.
TEST(EventExtractorTest, TwoObjectsOnOneLineAreReadOneAfterTheOther) {
  {
    EventExtractor extractor;
    Event event;
    PaddedLine line(kIssuesLine + kIssuesLine);
    ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent);
    EXPECT_EQ(event.type, "IssuesEvent");
    EXPECT_EQ(extractor.consumed(), kIssuesLine.size());
    ASSERT_EQ(extractor.Extract(line.view().substr(extractor.consumed()), event), ExtractOutcome::kEvent);
    EXPECT_EQ(extractor.consumed(), kIssuesLine.size());
  }
  {
    // The fast envelope path must read the first record's time, not the second's.
    EventExtractor extractor;
    Event event;
    std::string second = kPushLine;
    const size_t at = second.find("2015-01-01T15:00:00Z");
    second.replace(at, 20, "2016-06-06T06:06:06Z");
    PaddedLine line(kPushLine + second);
    ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent);
    EXPECT_EQ(FormatIsoTime(event.created_at), "2015-01-01T15:00:00Z");
    EXPECT_EQ(extractor.consumed(), kPushLine.size());
    ASSERT_EQ(extractor.Extract(line.view().substr(extractor.consumed()), event), ExtractOutcome::kEvent);
    EXPECT_EQ(FormatIsoTime(event.created_at), "2016-06-06T06:06:06Z");
  }
  {
    // Anything else after the object is still a bad line.
    EventExtractor extractor;
    Event event;
    PaddedLine line(kIssuesLine + " [1]");
    EXPECT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kBadLine);
    EXPECT_STREQ(extractor.error(), "invalid JSON: brackets that do not pair up (a record cut short, or more after it)");
  }
}

TEST(EventExtractorTest, NotAnObjectIsBad) {
  for (const char* text : {"", "[1,2,3]", "\"PushEvent\"", "42", "null", "   ", "\r"}) {
    EventExtractor extractor;
    Event event;
    EXPECT_EQ(ExtractText(extractor, text, event), ExtractOutcome::kBadLine) << "'" << text << "'";
    EXPECT_STREQ(extractor.error(), "not a JSON object") << "'" << text << "'";
  }
}

TEST(EventExtractorTest, MissingTypeOrTimeIsBad) {
  EventExtractor extractor;
  Event event;
  EXPECT_EQ(ExtractText(extractor, R"({"created_at":"2015-01-01T00:00:00Z"})", event), ExtractOutcome::kBadLine);
  EXPECT_STREQ(extractor.error(), "no `type`");
  EXPECT_EQ(ExtractText(extractor, R"({"type":"PushEvent"})", event), ExtractOutcome::kBadLine);
  EXPECT_STREQ(extractor.error(), "no `created_at`");
  EXPECT_EQ(ExtractText(extractor, R"({"type":5,"created_at":"2015-01-01T00:00:00Z"})", event),
            ExtractOutcome::kBadLine);
  EXPECT_EQ(ExtractText(extractor, R"({"type":"PushEvent","created_at":"yesterday"})", event),
            ExtractOutcome::kBadLine);
  EXPECT_EQ(ExtractText(extractor, R"({"type":"PushEvent","created_at":1420070400})", event),
            ExtractOutcome::kBadLine);
}

//! A time outside GitHub's years is a damaged record: the event is a bad line (both through the
//! envelope read of the bytes and the full parse), a report's own time is unknown.
TEST(EventExtractorTest, TimesOutsideGitHubsYearsAreDamage) {
  auto with_time = [](std::string line, const std::string& from, const std::string& to) {
    const size_t at = line.rfind(from);
    return line.replace(at, from.size(), to);
  };
  for (const char* time : {"0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2007-09-30T23:59:59Z", "2100-01-01T00:00:00Z"}) {
    for (const std::string* line : {&kPushLine, &kIssuesLine}) {
      EventExtractor extractor;
      Event event;
      const std::string event_time = line == &kPushLine ? "2015-01-01T15:00:00Z" : "2015-01-02T11:00:01Z";
      EXPECT_EQ(ExtractText(extractor, with_time(*line, event_time, time), event), ExtractOutcome::kBadLine) << time;
      EXPECT_STREQ(extractor.error(), "`created_at` is outside GitHub's years (2007-10-01 to 2099)") << time;
    }
  }
  EventExtractor extractor;
  Event event;
  const std::string first_and_last = with_time(kPushLine, "2015-01-01T15:00:00Z", "2007-10-01T00:00:00Z");
  ASSERT_EQ(ExtractText(extractor, first_and_last, event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.created_at, Time("2007-10-01T00:00:00Z"));
  ASSERT_EQ(ExtractText(extractor, with_time(kPushLine, "2015-01-01T15:00:00Z", "2099-12-31T23:59:59Z"), event),
            ExtractOutcome::kEvent);
  const std::string report_from_year_one = with_time(kIssuesLine, "\"created_at\":\"2015-01-01T10:00:00Z\"",
                                                     "\"created_at\":\"0001-01-01T10:00:00Z\"");
  PaddedLine line(report_from_year_one);
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.report.created_at, 0);
  EXPECT_EQ(event.report.closed_at, Time("2015-01-02T11:00:00Z"));
}

TEST(EventExtractorTest, NumbersWhereStringsAreExpected) {
  const std::string text =
      R"({"type":"IssuesEvent","repo":{"id":1,"name":2},"payload":{"action":3,"issue":{"number":"12",)"
      R"("title":123,"body":[1,2],"state":5,"labels":[1,2.5,true],"comments":"x","created_at":7,)"
      R"("closed_at":false}},"created_at":"2015-01-01T00:00:00Z"})";
  EventExtractor extractor;
  Event event;
  ASSERT_EQ(ExtractText(extractor, text, event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.repo_id, 1);
  EXPECT_EQ(event.repo_name, "");
  ASSERT_TRUE(event.has_report);
  EXPECT_EQ(event.report.number, 12);  // numeric strings are accepted for numbers
  EXPECT_EQ(event.report.action, "");
  EXPECT_EQ(event.report.text[Field::kTitle], "");
  EXPECT_EQ(event.report.text[Field::kBody], "");
  EXPECT_EQ(event.report.state, "");
  EXPECT_TRUE(event.report.labels.empty());
  EXPECT_EQ(event.report.comments, 0);
  EXPECT_EQ(event.report.created_at, 0);
  EXPECT_EQ(event.report.closed_at, 0);
}

TEST(EventExtractorTest, PayloadThatIsAStringHasNoReport) {
  const std::string text =
      R"({"type":"IssuesEvent","repo":{"id":4,"name":"a/b"},"payload":"oops","created_at":"2015-01-01T00:00:00Z"})";
  EventExtractor extractor;
  Event event;
  ASSERT_EQ(ExtractText(extractor, text, event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.kind, EventKind::kIssues);
  EXPECT_FALSE(event.has_report);
  EXPECT_EQ(event.repo_id, 4);
}

TEST(EventExtractorTest, IssueThatIsNotAnObject) {
  const std::string text =
      R"({"type":"IssuesEvent","repo":{"id":4,"name":"a/b"},"payload":{"action":"opened","issue":17},)"
      R"("created_at":"2015-01-01T00:00:00Z"})";
  EventExtractor extractor;
  Event event;
  ASSERT_EQ(ExtractText(extractor, text, event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.report.action, "opened");
  EXPECT_EQ(event.report.number, 0);
  EXPECT_EQ(event.report.text[Field::kTitle], "");
}

// A report event whose number is not a positive whole number yields no report, and says why: the
// ingest prints the reason with the record's file and line (the audit found such events dropped
// without a word).
TEST(EventExtractorTest, AReportEventWithoutAUsableNumberSaysWhy) {
  const auto issues = [](const std::string& payload) {
    return R"({"id":"5","type":"IssuesEvent","repo":{"id":4,"name":"a/b"},"payload":)" + payload +
           R"(,"created_at":"2015-01-01T00:00:00Z"})";
  };
  const auto issue = [&](const std::string& number_member) {
    return issues(R"({"action":"opened","issue":{)" + number_member + R"("title":"Slow","state":"open"}})");
  };
  const auto pull = [](const std::string& payload_number, const std::string& pr_number) {
    return R"({"id":"6","type":"PullRequestEvent","repo":{"id":4,"name":"a/b"},"payload":{"action":"opened",)" +
           payload_number + R"("pull_request":{)" + pr_number + R"("title":"T","state":"open"}},)"
           R"("created_at":"2015-01-01T00:00:00Z"})";
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {issue(R"("number":"abc",)"), "`payload.issue.number` is a string that is not a number"},
      {issue(R"("number":null,)"), "`payload.issue.number` is null"},
      {issue(""), "`payload.issue.number` is missing"},
      {issue(R"("number":-3,)"), "`payload.issue.number` is negative"},
      {issue(R"("number":"-3",)"), "`payload.issue.number` is negative"},
      {issue(R"("number":0,)"), "`payload.issue.number` is 0"},
      {issue(R"("number":1.5,)"), "`payload.issue.number` is not a whole number"},
      {issue(R"("number":[1],)"), "`payload.issue.number` is not a number"},
      {issues(R"("oops")"), "no `payload` object"},
      {issues(R"({"action":"opened","issue":17})"), "`payload.number` is missing"},
      {issues(R"({"action":"opened"})"), "no `issue` in the payload"},
      {pull("", R"("number":null,)"), "`payload.pull_request.number` is null"},
      {pull(R"("number":"x",)", ""), "`payload.number` is a string that is not a number"},
      {R"({"type":"IssueCommentEvent","payload":{"issue_id":3,"comment_id":4},"url":"https://github.com/a/b/wiki",)"
       R"("repository":{"id":4,"name":"b","owner":"a"},"created_at":"2013-01-01T00:00:00Z"})",
       "no `issue` or `pull_request` in the payload, and `url` names no issue or pull request page"},
  };
  EventExtractor extractor;
  Event event;
  for (const auto& [line, reason] : cases) {
    ASSERT_EQ(ExtractText(extractor, line, event), ExtractOutcome::kEvent) << line << ": " << extractor.error();
    EXPECT_FALSE(event.has_report) << line;
    EXPECT_EQ(event.no_report_reason, reason) << line;
  }
  // A usable number anywhere is enough; the reason is cleared with the next event.
  for (const std::string& line : {pull(R"("number":5,)", R"("number":null,)"), issue(R"("number":"12",)")}) {
    ASSERT_EQ(ExtractText(extractor, line, event), ExtractOutcome::kEvent) << extractor.error();
    EXPECT_TRUE(event.has_report) << line;
    EXPECT_GT(event.report.number, 0) << line;
    EXPECT_EQ(event.no_report_reason, "") << line;
  }
  // An event of no report kind has no reason to give.
  ASSERT_EQ(ExtractText(extractor, kPushLine, event), ExtractOutcome::kEvent);
  EXPECT_EQ(event.no_report_reason, "");
}

TEST(EventExtractorTest, DeeplyNestedPayloadDoesNotCrash) {
  const std::string open(10000, '[');
  const std::string close(10000, ']');
  {
    // Unbalanced: invalid JSON.
    EventExtractor extractor;
    Event event;
    const std::string text = R"({"type":"IssuesEvent","repo":{"id":1,"name":"a/b"},"payload":{"x":)" + open +
                             R"(},"created_at":"2015-01-01T00:00:00Z"})";
    EXPECT_EQ(ExtractText(extractor, text, event), ExtractOutcome::kBadLine);
  }
  {
    // Balanced but deeper than any parser's limit: a bad line, or an event without the nested
    // part; never a crash.
    EventExtractor extractor;
    Event event;
    const std::string text = R"({"type":"IssuesEvent","repo":{"id":1,"name":"a/b"},"payload":{"x":)" + open +
                             close + R"(,"issue":{"number":3}},"created_at":"2015-01-01T00:00:00Z"})";
    const ExtractOutcome outcome = ExtractText(extractor, text, event);
    if (outcome == ExtractOutcome::kEvent) {
      EXPECT_EQ(event.kind, EventKind::kIssues);
      EXPECT_EQ(event.repo_id, 1);
    } else {
      EXPECT_STRNE(extractor.error(), "");
    }
    // The extractor stays usable.
    PaddedLine line(kIssuesLine);
    ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
    EXPECT_EQ(event.report.number, 42);
  }
  {
    EventExtractor extractor;
    Event event;
    const std::string text = open + close;
    EXPECT_EQ(ExtractText(extractor, text, event), ExtractOutcome::kBadLine);
  }
}

}  // namespace
}  // namespace ghsift

namespace ghsift {
namespace {

// The 2011-2014 Timeline API layout: created_at first with a local offset, `type` after the
// payload, `actor` a plain string, the repository as {id, name, owner}.
TEST(EventExtractorTest, LegacyTimelineLayout) {
  EventExtractor extractor;
  Event event;
  const std::string legacy =
      R"({"created_at":"2014-06-01T01:05:30-07:00","payload":{"action":"opened","issue":{"number":7,)"
      R"("title":"Slow training","body":null,"labels":[{"url":"u","name":"bug","color":"f00"}],"state":"open",)"
      R"("comments":0,"created_at":"2014-06-01T01:05:29-07:00","closed_at":null,)"
      R"("pull_request":{"html_url":null,"diff_url":null,"patch_url":null}}},"public":true,"type":"IssuesEvent",)"
      R"("url":"https://github.com/BVLC/caffe/issues/7","actor":"someone","actor_attributes":{"login":"someone"},)"
      R"("repository":{"id":6146,"name":"caffe","owner":"BVLC","url":"https://github.com/BVLC/caffe"}})";
  PaddedLine line(legacy);
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.type, "IssuesEvent");
  EXPECT_EQ(event.id, 0u);
  EXPECT_EQ(FormatIsoTime(event.created_at), "2014-06-01T08:05:30Z");
  EXPECT_EQ(event.repo_id, 6146);
  EXPECT_EQ(event.repo_name, "BVLC/caffe");
  ASSERT_TRUE(event.has_report);
  EXPECT_EQ(event.report.kind, ReportKind::kIssue);
  EXPECT_EQ(event.report.number, 7);
  EXPECT_EQ(event.report.text[Field::kTitle], "Slow training");
  ASSERT_EQ(event.report.labels.size(), 1u);
  EXPECT_EQ(event.report.labels[0], "bug");
}

TEST(EventExtractorTest, ModernIdIsRead) {
  EventExtractor extractor;
  Event event;
  PaddedLine line(kPushLine);
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent);
  EXPECT_GT(event.id, 0u);
  PaddedLine issues(kIssuesLine);
  ASSERT_EQ(extractor.Extract(issues.view(), event), ExtractOutcome::kEvent);
  EXPECT_GT(event.id, 0u);
}

}  // namespace
}  // namespace ghsift

namespace ghsift {
namespace {

// Found by fuzz_event_extractor: a 19-digit repo id overflowed the envelope reader. The fast
// path now gives up on it and the full parser reads the line without overflow.
TEST(EventExtractorTest, HugeRepoIdDoesNotOverflow) {
  EventExtractor extractor;
  Event event;
  PaddedLine line(R"({"id":"1","type":"WatchEvent","actor":{"id":1,"login":"a"},"repo":{"id":9500470000000000000,)"
                  R"("name":"o/r","url":"u"},"payload":{},"public":true,"created_at":"2024-01-01T00:00:00Z"})");
  ASSERT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  // Out of range: no id rather than a wrapped one, so numbered by its name.
  EXPECT_EQ(event.repo_id, RepoIdFromName("o/r"));
  EXPECT_EQ(event.repo_name, "o/r");
}

}  // namespace
}  // namespace ghsift

namespace ghsift {
namespace {

//! A Timeline record of mid-2012: `repository` without `id`, as in the real hour 2012-06-14-15.
std::string Mid2012Line(const std::string& repository) {
  return R"({"repository":)" + repository +
         R"(,"created_at":"2012-06-14T15:01:42-07:00","public":true,"actor":"someone",)"
         R"("payload":{"number":294,"action":"opened","issue":5082481},)"
         R"("url":"https://github.com/x/y/issues/294","type":"IssuesEvent"})";
}

int64_t RepoIdOf(const std::string& record) {
  EventExtractor extractor;
  Event event;
  PaddedLine line(record);
  EXPECT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  return event.repo_id;
}

// Without an id the repository is numbered by its name: every repository apart (they all went
// to id 0 before, merging different repositories' issues of one number), the same number for
// every case of the name, never a GitHub id nor the untracked row (-1).
TEST(EventExtractorTest, RepositoryWithoutIdIsNumberedByItsName) {
  const int64_t id = RepoIdOf(Mid2012Line(R"({"url":"https://github.com/Plex/Services","name":"Services","owner":"Plex"})"));
  EXPECT_EQ(id, RepoIdFromName("Plex/Services"));
  EXPECT_LT(id, -1);
  EXPECT_EQ(RepoIdFromName("plex/services"), id);
  EXPECT_NE(RepoIdOf(Mid2012Line(R"({"name":"Other","owner":"Plex"})")), id);
  // An empty owner: the page's address names the repository.
  EXPECT_EQ(RepoIdOf(Mid2012Line(R"({"url":"https://github.com/Plex/Services","name":"Services","owner":""})")), id);
  // Nothing that names one: no repository (0).
  EXPECT_EQ(RepoIdOf(Mid2012Line(R"({"url":"https://github.com//Services","name":"Services","owner":""})")), 0);
  EXPECT_EQ(RepoIdFromName("/"), 0);
  EXPECT_EQ(RepoIdFromName("a/b/c"), 0);
  EXPECT_EQ(RepoIdFromName("noslash"), 0);
  // An id, where the record has one, wins.
  EXPECT_EQ(RepoIdOf(Mid2012Line(R"({"id":6146,"name":"Services","owner":"Plex"})")), 6146);
}

}  // namespace
}  // namespace ghsift

namespace ghsift {
namespace {

//! One record extracted; holds the line and the extractor, whose buffers the event's views use.
struct Extracted {
  explicit Extracted(std::string record) : line(std::move(record)) {
    EXPECT_EQ(extractor.Extract(line.view(), event), ExtractOutcome::kEvent) << extractor.error();
  }
  PaddedLine line;
  EventExtractor extractor;
  Event event;
};

// A line that is not of the 2015+ layout but names a non-report type within the first bytes goes
// to the envelope read from the bytes first, which takes the first `"repo":{"id":` it finds, here
// one nested in the payload, and then gives up (a Timeline time has an offset, not `Z`). The full
// parse must not start from what it read: it used to keep the nested repository (id 5,
// "nested/one") and so skip the record's own `repository`, which it reads only while no id is set.
TEST(EventExtractorTest, AFallbackFromTheBytesStartsFromAFreshEvent) {
  const std::string payload = R"("payload":{"forkee":{"repo":{"id":5,"name":"nested/one","url":"u"}}},)";
  const Extracted nameless(R"({"type":"ForkEvent",)" + payload +
                           R"("created_at":"2013-02-15T00:00:01-08:00","actor":"someone",)"
                           R"("repository":{"name":"caffe","owner":"BVLC","url":"https://github.com/BVLC/caffe"}})");
  const Event& event = nameless.event;
  EXPECT_EQ(event.type, "ForkEvent");
  EXPECT_EQ(event.id, 0u);
  EXPECT_EQ(FormatIsoTime(event.created_at), "2013-02-15T08:00:01Z");
  EXPECT_EQ(event.repo_id, RepoIdFromName("BVLC/caffe"));
  EXPECT_EQ(event.repo_name, "BVLC/caffe");
  // With an id, the record's own.
  const Extracted numbered(R"({"type":"ForkEvent",)" + payload +
                           R"("created_at":"2013-02-15T00:00:01-08:00","actor":"someone",)"
                           R"("repository":{"id":6146,"name":"caffe","owner":"BVLC"}})");
  EXPECT_EQ(numbered.event.repo_id, 6146);
  EXPECT_EQ(numbered.event.repo_name, "BVLC/caffe");
  // The early Events API's `repo` without a name (`{"name":"/"}`): the payload's `repo` names it,
  // which the full parse reads only while no id is set.
  const Extracted early(R"({"type":"WatchEvent","repo":{"name":"/"},"created_at":"2011-02-15T00:00:01Z",)"
                        R"("payload":{"repo":"real/one","target":{"repo":{"id":9,"name":"x/y"}}}})");
  EXPECT_EQ(early.event.type, "WatchEvent");
  EXPECT_EQ(FormatIsoTime(early.event.created_at), "2011-02-15T00:00:01Z");
  EXPECT_EQ(early.event.repo_id, RepoIdFromName("real/one"));
  EXPECT_EQ(early.event.repo_name, "real/one");
}

// `"repo":{"id":0,...}` on a 2015+ line: the record gives no id, so the repository is numbered by
// its name (or named by the payload's `repo`) as the full parse does, not counted under id 0.
TEST(EventExtractorTest, ARepoIdOfZeroIsNumberedByItsNameAsTheFullParseDoes) {
  const Extracted named(R"({"id":"7","type":"WatchEvent","actor":{"id":1,"login":"a"},)"
                        R"("repo":{"id":0,"name":"Owner/Repo","url":"u"},"payload":{"action":"started"},)"
                        R"("public":true,"created_at":"2016-01-01T00:00:00Z"})");
  const Event& event = named.event;
  EXPECT_EQ(event.type, "WatchEvent");
  EXPECT_EQ(event.id, 7u);
  EXPECT_EQ(FormatIsoTime(event.created_at), "2016-01-01T00:00:00Z");
  EXPECT_EQ(event.repo_id, RepoIdFromName("owner/repo"));
  EXPECT_EQ(event.repo_name, "Owner/Repo");
  const Extracted unnamed(R"({"id":"8","type":"WatchEvent","actor":{"id":1,"login":"a"},)"
                          R"("repo":{"id":0,"name":"/","url":"u"},"payload":{"repo":"real/one"},)"
                          R"("public":true,"created_at":"2016-01-01T00:00:00Z"})");
  EXPECT_EQ(unnamed.event.id, 8u);
  EXPECT_EQ(unnamed.event.repo_id, RepoIdFromName("real/one"));
  EXPECT_EQ(unnamed.event.repo_name, "real/one");
}

// The envelope read from the bytes takes `"repo":{"id":` only where it is a member of the record
// itself (nesting depth 1, outside every string); anywhere else the full parse decides, and the
// event is the one it gives: the record's own repository, or none.
TEST(EventExtractorTest, TheEnvelopeReadTakesOnlyTheRecordsOwnRepo) {
  const std::string actor = R"("actor":{"id":1,"login":"a"},)";
  const std::string nested = R"("payload":{"target":{"repo":{"id":5,"name":"nested/one","url":"u"}}},)";
  const std::string tail = R"("public":true,"created_at":"2016-01-01T00:00:00Z"})";
  // The record's own `repo` names its name before its id: the nested one is not it.
  const Extracted name_first(R"({"id":"1","type":"WatchEvent",)" + actor +
                             R"("repo":{"name":"own/repo","id":7,"url":"u"},)" + nested + tail);
  EXPECT_EQ(name_first.event.type, "WatchEvent");
  EXPECT_EQ(name_first.event.repo_id, 7);
  EXPECT_EQ(name_first.event.repo_name, "own/repo");
  EXPECT_EQ(name_first.event.created_at, Time("2016-01-01T00:00:00Z"));
  // No `repo` of its own: no repository (the payload's object `repo` names none either).
  const Extracted missing(R"({"id":"2","type":"WatchEvent",)" + actor + nested + tail);
  EXPECT_EQ(missing.event.type, "WatchEvent");
  EXPECT_EQ(missing.event.id, 2u);
  EXPECT_EQ(missing.event.repo_id, 0);
  EXPECT_EQ(missing.event.repo_name, "");
  // A nested `repo` before the record's own, after strings that hold braces, quotes and
  // backslashes: a reader that mistook where a string ends would count it at depth 1.
  for (const std::string note : {R"("}")", R"("\"}")", R"("\\")", R"("\\\"}}")", R"("{\"repo\":{\"id\":5")"}) {
    const Extracted before(R"({"id":"3","type":"WatchEvent","actor":{"login":"a","note":)" + note +
                           R"(,"target":{"repo":{"id":5,"name":"nested/one"}}},"repo":{"name":"own/repo","id":7},)"
                           R"("payload":{},)" + tail);
    EXPECT_EQ(before.event.repo_id, 7) << note;
    EXPECT_EQ(before.event.repo_name, "own/repo") << note;
  }
  // A string value that spells `"repo":{"id":5` (escaped, as JSON must): not a member at all.
  const Extracted in_string(R"({"id":"4","type":"WatchEvent","actor":{"login":"\"repo\":{\"id\":5,\"name\":\"x/y\""},)"
                            R"("repo":{"name":"own/repo","id":7},"payload":{},)" + tail);
  EXPECT_EQ(in_string.event.repo_id, 7);
  EXPECT_EQ(in_string.event.repo_name, "own/repo");
  // The same for an unkept report event, whose payload is then read from the bytes too.
  EventExtractor extractor;
  extractor.SetKeptReports([](std::string_view, int64_t) { return false; });
  Event event;
  const std::string issue = R"("payload":{"action":"opened","issue":{"number":3,"title":"T","repo":{"id":5,"name":"nested/one"}}},)";
  const PaddedLine without(R"({"id":"5","type":"IssuesEvent",)" + actor + issue + tail);
  ASSERT_EQ(extractor.Extract(without.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.repo_id, 0);
  EXPECT_EQ(event.repo_name, "");
  EXPECT_EQ(event.report.number, 3);
  const PaddedLine own(R"({"id":"6","type":"IssuesEvent",)" + actor + R"("repo":{"name":"own/repo","id":7},)" + issue + tail);
  ASSERT_EQ(extractor.Extract(own.view(), event), ExtractOutcome::kEvent) << extractor.error();
  EXPECT_EQ(event.repo_id, 7);
  EXPECT_EQ(event.repo_name, "own/repo");
}

// The same for `type` (the first in the line's first bytes, nested in `actor` on a made-up line)
// and for `created_at` (the last on the line, nested in the payload when an `org` with brackets
// follows it): the record's own, as the full parse reads them.
TEST(EventExtractorTest, TheEnvelopeReadTakesOnlyTheRecordsOwnTypeAndTime) {
  const Extracted nested_type(R"({"actor":{"type":"User"},"id":"1","type":"WatchEvent",)"
                              R"("repo":{"id":7,"name":"own/repo","url":"u"},"payload":{},)"
                              R"("public":true,"created_at":"2016-01-01T00:00:00Z"})");
  EXPECT_EQ(nested_type.event.type, "WatchEvent");
  EXPECT_EQ(nested_type.event.repo_id, 7);
  const Extracted nested_time(R"({"id":"2","type":"WatchEvent","actor":{"id":1,"login":"a"},)"
                              R"("repo":{"id":7,"name":"own/repo","url":"u"},"created_at":"2016-01-01T00:00:00Z",)"
                              R"("payload":{"created_at":"2016-02-02T00:00:00Z","org":{"id":1,"tags":[]}}})");
  EXPECT_EQ(nested_time.event.type, "WatchEvent");
  EXPECT_EQ(nested_time.event.created_at, Time("2016-01-01T00:00:00Z"));
  // A flat `org` after the record's own time is read from the bytes, as before.
  const Extracted org(R"({"id":"3","type":"WatchEvent","actor":{"id":1,"login":"a"},)"
                      R"("repo":{"id":7,"name":"own/repo","url":"u"},"payload":{},"public":true,)"
                      R"("created_at":"2016-01-01T00:00:00Z","org":{"id":1,"login":"o"}})");
  EXPECT_EQ(org.event.created_at, Time("2016-01-01T00:00:00Z"));
  EXPECT_GE(org.event.repo_name.data(), org.line.view().data());
  EXPECT_LT(org.event.repo_name.data(), org.line.view().data() + org.line.view().size());
}

}  // namespace
}  // namespace ghsift
