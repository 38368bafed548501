// The `review` field (pull request review comments and review bodies, json/text_field.hpp) end to
// end: a rule with `fields: [review]` flags a report from a review comment at ingest and at
// rescan, `rules explain` shows the field, `rules eval` reads a `review` key, `rules suggest`
// mines it, the labeling export carries it, and a store written before it existed still reads.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include "aggregate/latest_text_record.hpp"
#include "store/store.hpp"
#include "eval/labeled_report.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;
using testing::WithExportedColumns;

// One rule per field on the same word: which one matches says which field the text reached.
constexpr const char* kRules = R"(rules:
  - id: r.review
    tag: performance/low-speed
    pattern: '\bsluggish\b'
    fields: [review]
    flags: [caseless]
  - id: r.comment
    tag: accuracy/wrong-result
    pattern: '\bsluggish\b'
    fields: [comment, body, title]
    flags: [caseless]
  - id: r.code
    tag: info/reproduction-code
    pattern: 'sluggish\(\)'
    fields: [code]
)";

// A review comment on pull request 12 (its fenced code goes to `code`, its prose to `review`),
// and an approval of pull request 13 without a body: no text, so no report event.
const std::string kHour =
    R"({"id":"101","type":"PullRequestReviewCommentEvent","actor":{"id":5,"login":"reviewer"},)"
    R"("repo":{"id":77,"name":"org/proj"},"payload":{"action":"created","comment":{"id":9,"path":"src/a.py",)"
    R"("diff_hunk":"@@ -1 +1 @@","body":"This loop is sluggish:\n```\nsluggish()\n```","user":{"login":"reviewer"}},)"
    R"("pull_request":{"url":"https://api.github.com/repos/org/proj/pulls/12","number":12,"state":"open",)"
    R"("title":"Rewrite the loader","body":"A new loader.","labels":[],"user":{"login":"alice"},)"
    R"("created_at":"2016-01-01T00:00:00Z","closed_at":null}},"public":true,"created_at":"2016-01-01T01:00:00Z"})"
    "\n"
    R"({"id":"102","type":"PullRequestReviewEvent","actor":{"id":6,"login":"approver"},)"
    R"("repo":{"id":77,"name":"org/proj"},"payload":{"action":"created","review":{"id":3,"body":null,)"
    R"("state":"approved","user":{"login":"approver"}},"pull_request":{"number":13,"state":"open",)"
    R"("title":"Unrelated","body":"","labels":[],"user":{"login":"bob"}}},"public":true,)"
    R"("created_at":"2016-01-01T01:05:00Z"})"
    "\n";

const std::string kReviewText = "This loop is sluggish:\\n```\\nsluggish()\\n```";  // as JSON writes it

void Write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

//! stdout alone (notes on stderr are no part of the answer).
std::string Stdout(const std::string& args) {
  const auto r = RunCommand("( " + Ghsift() + " " + args + " 2>/dev/null )");
  return r.output;
}

class ReviewFieldTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Write(dir_ / "rules.yaml", kRules);
    Write(dir_ / "2016-01-01-1.json", kHour);
  }
  void Ingest(const std::string& store, const std::string& rules, const std::string& extra = "") {
    const auto r = RunCommand(Ghsift() + " ingest --all-repos --quiet " + extra + " --rules " + rules + " --store " +
                              store + " " + (dir_ / "2016-01-01-1.json"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  TempDir dir_;
};

TEST_F(ReviewFieldTest, AReviewCommentFlagsItsPullRequestByTheReviewRuleAlone) {
  Ingest(dir_ / "store", dir_ / "rules.yaml");
  // Only pull request 12 is a report: the approval without a body carries no text.
  EXPECT_EQ(Stdout("query --store " + (dir_ / "store") + " --by kind --kind all --format csv"), "kind,issues\npr,1\n");
  // The labeling columns exactly; the exported dimensions' columns after them are the dimension
  // table's (tests/query/dimensions_test pins their values), here only counted.
  const std::vector<std::string> head = {"Repository", "Number", "State", "Title", "Body", "Labels", "Comments",
                                         "Codes", "Review", "class", "url", "kind", "created", "updated",
                                         "categories", "subcategories", "facets", "verdict", "score", "rules"};
  const auto records = ParseCsv(Stdout("issues --store " + (dir_ / "store") + " --kind all --format csv"));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0], WithExportedColumns(head));
  ASSERT_EQ(records[1].size(), records[0].size());
  EXPECT_EQ(std::vector<std::string>(records[1].begin(), records[1].begin() + static_cast<std::ptrdiff_t>(head.size())),
            std::vector<std::string>({"org/proj", "12", "open", "Rewrite the loader", "A new loader.", "[]", "[]", "[]",
                                      "['" + kReviewText + "']", "", "https://github.com/org/proj/pull/12", "pr",
                                      "2016-01-01", "2016-01-01", "info;performance",
                                      "info/reproduction-code;performance/low-speed", "", "unclassified", "2.00",
                                      "r.code;r.review"}));
  const std::string jsonl = Stdout("issues --store " + (dir_ / "store") + " --kind all --format jsonl");
  EXPECT_NE(jsonl.find(R"("title": "Rewrite the loader", "body": "A new loader.", "labels": [], "comments": [], )"
                       R"("review": [")" + kReviewText + R"("], "url": )"),
            std::string::npos)
      << jsonl;

  // The kept text holds the review, and `rules explain` shows it as its own field.
  auto store = Store::Open(dir_ / "store", StoreMode::kRead);
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto kept = (*store)->GetLatestText(77, 12);
  ASSERT_TRUE(kept.ok() && kept->has_value());
  EXPECT_EQ((*kept)->events[Field::kReview],
            (std::vector<LatestTextRecord::TimedText>{{1451610000, "This loop is sluggish:\n```\nsluggish()\n```"}}));
  EXPECT_TRUE((*kept)->events[Field::kComment].empty());
  store->reset();
  const std::string explained = Stdout("rules explain --no-color --rules " + (dir_ / "rules.yaml") + " --store " +
                                       (dir_ / "store") + " --issue 'org/proj#12'");
  EXPECT_NE(explained.find("title: (no match)\nbody: (no match)\nreview:\n"
                           "  1: This loop is [[sluggish]]:\n     rules: r.review\ncode:\n  1: [[sluggish()]]\n"
                           "     rules: r.code\n"),
            std::string::npos)
      << explained;
  EXPECT_NE(explained.find("  r.review +1.00  performance/low-speed   review: \"sluggish\"\n"), std::string::npos)
      << explained;
}

TEST_F(ReviewFieldTest, RescanAppliesAReviewRuleToKeptTexts) {
  // Every text kept: a review rule added after ingest flags the pull request at rescan.
  Write(dir_ / "comment_only.yaml", "rules:\n  - {id: r.comment, tag: accuracy/wrong-result, pattern: 'sluggish', "
                                    "fields: [comment]}\n");
  Ingest(dir_ / "exact", dir_ / "comment_only.yaml", "--keep-text");
  EXPECT_EQ(Stdout("issues --store " + (dir_ / "exact") + " --kind all --format csv").find("org/proj"), std::string::npos);
  auto r = RunCommand(Ghsift() + " rescan --store " + (dir_ / "exact") + " --rules " + (dir_ / "rules.yaml"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("rescanned 1 reports (1 texts); 1 changed their matched rules"), std::string::npos)
      << r.output;
  EXPECT_NE(Stdout("issues --store " + (dir_ / "exact") + " --kind all --format csv").find(",r.code;r.review,"),
            std::string::npos);

  // Latest texts only: the review kept with a flagged report is scanned again with the new rules.
  Write(dir_ / "title.yaml", "rules:\n  - {id: r.title, tag: performance/low-speed, pattern: 'loader', fields: [title]}\n"
                             "  - {id: r.review, tag: performance/low-speed, pattern: 'nowhere', fields: [review]}\n");
  Write(dir_ / "title_review.yaml",
        "rules:\n  - {id: r.title, tag: performance/low-speed, pattern: 'loader', fields: [title]}\n"
        "  - {id: r.review, tag: performance/low-speed, pattern: 'sluggish', fields: [review]}\n");
  Ingest(dir_ / "latest", dir_ / "title.yaml");
  EXPECT_NE(Stdout("issues --store " + (dir_ / "latest") + " --kind all --format csv").find(",r.title,"),
            std::string::npos);
  r = RunCommand(Ghsift() + " rescan --store " + (dir_ / "latest") + " --rules " + (dir_ / "title_review.yaml"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(Stdout("issues --store " + (dir_ / "latest") + " --kind all --format csv").find(",r.review;r.title,"),
            std::string::npos);
}

TEST_F(ReviewFieldTest, ExplainShowsTheReviewOfAFile) {
  Write(dir_ / "report.json", R"({"title": "Loader", "review": ["Still sluggish here"]})");
  const std::string out =
      Stdout("rules explain --no-color --rules " + (dir_ / "rules.yaml") + " --file " + (dir_ / "report.json"));
  EXPECT_NE(out.find("title: (no match)\nreview:\n  1: Still [[sluggish]] here\n     rules: r.review\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("  performance    1.00 / 1.00  FLAGGED\n"), std::string::npos) << out;
  EXPECT_NE(out.find("  accuracy       0.00 / 1.00  -\n"), std::string::npos) << out;
}

TEST_F(ReviewFieldTest, EvalReadsAReviewKeyAndColumn) {
  // Reviews reach the review rule (performance) only; the comment reaches the comment rule.
  Write(dir_ / "l.jsonl", R"({"id": "a#1", "title": "Loader", "review": ["It is sluggish"], "class": 1})" "\n"
                          R"({"id": "a#2", "title": "Loader", "comments": ["sluggish too"], "class": 0})" "\n"
                          R"({"id": "a#3", "title": "Other", "review": "sluggish, as one string", "class": 1})" "\n");
  const std::string eval = "rules eval --rules " + (dir_ / "rules.yaml") + " --positive performance --format json --labels ";
  const std::string jsonl = Stdout(eval + (dir_ / "l.jsonl"));
  EXPECT_NE(jsonl.find("\"tp\": 2,\n  \"fp\": 0,\n  \"fn\": 0,\n  \"tn\": 1,\n"), std::string::npos) << jsonl;
  EXPECT_NE(jsonl.find("\"r.comment\": {\"hits\": 1, \"positive_hits\": 0, \"precision\": 0.000},\n"
                       "    \"r.review\": {\"hits\": 2, \"positive_hits\": 2, \"precision\": 1.000}\n"),
            std::string::npos)
      << jsonl;
  Write(dir_ / "l.csv", "Repository,Number,Title,Body,Comments,Review,class\n"
                        "a,1,Loader,,[],['It is sluggish'],1\n"
                        "a,2,Loader,,['sluggish too'],[],0\n");
  const std::string csv = Stdout(eval + (dir_ / "l.csv"));
  EXPECT_NE(csv.find("\"tp\": 1,\n  \"fp\": 0,\n  \"fn\": 0,\n  \"tn\": 1,\n"), std::string::npos) << csv;

  // `rules suggest` mines the field and writes rules for it.
  Write(dir_ / "s.jsonl", R"({"title": "A", "review": ["this is sluggish"], "class": 1})" "\n"
                          R"({"title": "B", "review": ["sluggish again"], "class": 1})" "\n"
                          R"({"title": "C", "review": ["very sluggish"], "class": 1})" "\n"
                          R"({"title": "D", "review": ["looks fine"], "class": 0})" "\n"
                          R"({"title": "E", "review": ["fine by me"], "class": 0})" "\n"
                          R"({"title": "F", "review": ["nice work"], "class": 0})" "\n");
  const std::string suggested = Stdout("rules suggest --rules " + (dir_ / "rules.yaml") + " --labels " +
                                       (dir_ / "s.jsonl") + " --positive performance --field review --min-positive 2");
  EXPECT_NE(suggested.find("1  sluggish  1.434     2.734    3    0          0\n"), std::string::npos) << suggested;
  EXPECT_NE(suggested.find("  - {id: perf.suggested.sluggish, tag: performance, pattern: '\\bsluggish\\b', "
                           "fields: [review], flags: [caseless]}"),
            std::string::npos)
      << suggested;
}

TEST_F(ReviewFieldTest, AStoreOfTheFormerFormatReadsAndKeepsReviewsFromItsNextIngest) {
  const auto untar = RunCommand("tar -C '" + dir_.path() + "' -xzf '" + GHSIFT_SOURCE_DIR +
                                "/tests/data/store_format2/store.tar.gz'");
  ASSERT_EQ(untar.exit_code, 0) << untar.output;
  const std::string store = dir_ / "store";
  // Its kept texts (latest texts of format 1) read, with no review.
  size_t kept = 0;
  {
    auto opened = Store::Open(store, StoreMode::kRead);
    ASSERT_TRUE(opened.ok()) << opened.status().message();
    const Status s = (*opened)->ScanIssues(std::nullopt, [&](int64_t repo, int64_t number, const IssueRecord&) -> Status {
      GHSIFT_ASSIGN_OR_RETURN(const std::optional<LatestTextRecord> text, (*opened)->GetLatestText(repo, number));
      if (!text) return Status::Ok();
      ++kept;
      EXPECT_TRUE(text->events[Field::kReview].empty());
      return Status::Ok();
    });
    ASSERT_TRUE(s.ok()) << s.message();
  }
  EXPECT_GT(kept, 0u);
  const std::string before = Stdout("issues --store " + store + " --kind all --format jsonl");
  ASSERT_FALSE(before.empty());
  EXPECT_NE(before.find("\"comments\": [], \"review\": [], \"url\": "), std::string::npos) << before.substr(0, 600);

  // Its next ingest (with the rules it was built with) keeps the review of a flagged report.
  std::string hour = kHour;
  hour.replace(hour.find("Rewrite the loader"), 18, "Rewrite the loader ghsiftprobetitle");
  Write(dir_ / "2016-01-01-1.json", hour);
  Ingest(store, testing::ProbeRules());
  {
    auto opened = Store::Open(store, StoreMode::kRead);
    ASSERT_TRUE(opened.ok()) << opened.status().message();
    auto text = (*opened)->GetLatestText(77, 12);
    ASSERT_TRUE(text.ok() && text->has_value());
    EXPECT_EQ((*text)->events[Field::kReview],
              (std::vector<LatestTextRecord::TimedText>{{1451610000, "This loop is sluggish:\n```\nsluggish()\n```"}}));
    auto issue = (*opened)->GetIssue(77, 12);
    ASSERT_TRUE(issue.ok() && issue->has_value());
    EXPECT_EQ((*issue)->rules, (std::vector<std::string>{"probe.title"}));
  }
  // A review rule added to them reaches the kept review at rescan.
  std::ifstream probe_in(testing::ProbeRules());
  std::string rules((std::istreambuf_iterator<char>(probe_in)), std::istreambuf_iterator<char>());
  rules += "  - {id: probe.review, tag: probe_review, pattern: 'sluggish', fields: [review]}\n";
  Write(dir_ / "probe_review.yaml", rules);
  const auto r = RunCommand(Ghsift() + " rescan --store " + store + " --rules " + (dir_ / "probe_review.yaml"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto opened = Store::Open(store, StoreMode::kRead);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  auto issue = (*opened)->GetIssue(77, 12);
  ASSERT_TRUE(issue.ok() && issue->has_value());
  EXPECT_EQ((*issue)->rules, (std::vector<std::string>{"probe.review", "probe.title"}));
}

}  // namespace
}  // namespace ghsift
