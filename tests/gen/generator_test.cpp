// Tests of the synthetic GH Archive generator: determinism, file naming, compression,
// the event schema, and truth.json against an independent recount of the written files.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "gen/generator.hpp"
#include "gen/gen_test_support.hpp"

namespace ghsift::gen {
namespace {

namespace fs = std::filesystem;
using namespace ghsift::gen::testing;

// ---- helpers -------------------------------------------------------------------------------

fs::path FreshDir(const std::string& name) { return FreshTestDir("ghsift_gen_test_", name); }

GenOptions Options(const fs::path& dir) {
  GenOptions o;
  o.out_dir = dir.string();
  o.hours = 3;
  o.events_per_hour = 300;
  o.seed = 7;
  o.compress = "none";
  return o;
}

// The engine's `body`/`code` split: CommonMark fenced blocks (``` or ~~~, indented at most
// three spaces, closed by the same character at least as long, or by the end of the text).
struct FenceSplit {
  std::string prose;
  std::string code;
};

FenceSplit SplitFences(std::string_view text) {
  FenceSplit out;
  bool in_fence = false;
  char fence_char = 0;
  size_t fence_len = 0;
  for (std::string_view line : [&] {
         std::vector<std::string_view> v;
         size_t start = 0;
         for (;;) {
           const size_t end = text.find('\n', start);
           v.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
           if (end == std::string_view::npos) break;
           start = end + 1;
         }
         return v;
       }()) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t indent = 0;
    while (indent < line.size() && indent < 4 && line[indent] == ' ') ++indent;
    const bool candidate = indent <= 3 && indent < line.size() && (line[indent] == '`' || line[indent] == '~');
    size_t run = 0;
    while (candidate && indent + run < line.size() && line[indent + run] == line[indent]) ++run;
    const std::string_view rest = candidate ? line.substr(indent + run) : std::string_view();
    if (!in_fence) {
      if (candidate && run >= 3 && !(line[indent] == '`' && rest.find('`') != std::string_view::npos)) {
        in_fence = true;
        fence_char = line[indent];
        fence_len = run;
        continue;
      }
      out.prose.append(line);
      out.prose.push_back('\n');
    } else {
      if (candidate && line[indent] == fence_char && run >= fence_len &&
          rest.find_first_not_of(" \t") == std::string_view::npos) {
        in_fence = false;
        continue;
      }
      out.code.append(line);
      out.code.push_back('\n');
    }
  }
  return out;
}

TEST(FenceSplitTest, FollowsCommonMark) {
  const FenceSplit s = SplitFences("a\r\n   ```py\r\nb\r\n```\r\nc\n````md\n```\nd\n````\n    ```\ne\n~~~\nf");
  EXPECT_EQ(s.prose, "a\nc\n    ```\ne\n");
  EXPECT_EQ(s.code, "b\n```\nd\nf\n");
}

// ---- basic properties ----------------------------------------------------------------------

TEST(GeneratorTest, FileNamesFollowStartHour) {
  const fs::path dir = FreshDir("names");
  GenOptions o = Options(dir);
  o.start_hour = "2024-01-31T22";
  o.events_per_hour = 20;
  o.compress = "gz";
  GenSummary summary;
  GenerateOk(o, &summary);
  EXPECT_EQ(SortedFileNames(dir), (std::vector<std::string>{"2024-01-31-22.json.gz", "2024-01-31-23.json.gz",
                                                              "2024-02-01-0.json.gz", "truth.json"}));
  EXPECT_EQ(summary.files, 3);
  EXPECT_EQ(summary.events, 60u);
  simdjson::dom::parser parser;
  simdjson::dom::element truth = parser.load((dir / "truth.json").string());
  std::vector<std::string> files;
  for (auto f : truth["files"].get_array()) files.emplace_back(Str(f));
  EXPECT_EQ(files, (std::vector<std::string>{"2024-01-31-22.json.gz", "2024-01-31-23.json.gz", "2024-02-01-0.json.gz"}));
}

TEST(GeneratorTest, SameSeedSameBytesWhateverThreads) {
  std::vector<fs::path> dirs;
  for (const int threads : {1, 3, 1}) {
    dirs.push_back(FreshDir("det" + std::to_string(dirs.size())));
    GenOptions o = Options(dirs.back());
    o.hours = 4;
    o.compress = "gz";
    o.bad_lines_per_file = 4;
    o.threads = threads;
    GenerateOk(o);
  }
  const auto names = SortedFileNames(dirs[0]);
  ASSERT_EQ(names.size(), 5u);
  for (size_t d = 1; d < dirs.size(); ++d) {
    ASSERT_EQ(SortedFileNames(dirs[d]), names);
    for (const auto& name : names) EXPECT_TRUE(ReadFile(dirs[0] / name) == ReadFile(dirs[d] / name)) << name;
  }
}

TEST(GeneratorTest, DifferentSeedDifferentBytes) {
  const fs::path a = FreshDir("seed_a"), b = FreshDir("seed_b");
  GenOptions o = Options(a);
  o.hours = 1;
  GenerateOk(o);
  o.out_dir = b.string();
  o.seed = 8;
  GenerateOk(o);
  EXPECT_NE(ReadFile(a / "2024-01-01-0.json"), ReadFile(b / "2024-01-01-0.json"));
}

TEST(GeneratorTest, CompressionsHoldTheSameLines) {
  std::map<std::string, fs::path> dirs;
  for (const char* kind : {"none", "gz", "zst"}) {
    dirs[kind] = FreshDir(std::string("codec_") + kind);
    GenOptions o = Options(dirs[kind]);
    o.compress = kind;
    o.bad_lines_per_file = 3;
    o.level = kind == std::string("zst") ? 3 : 6;
    GenSummary summary;
    GenerateOk(o, &summary);
    if (std::string(kind) != "none") {
      EXPECT_LT(summary.bytes_written, summary.bytes_uncompressed);
    }
  }
  for (const std::string stem : {"2024-01-01-0", "2024-01-01-1", "2024-01-01-2"}) {
    const std::string plain = ReadFile(dirs["none"] / (stem + ".json"));
    ASSERT_FALSE(plain.empty());
    EXPECT_TRUE(Decompressed(dirs["gz"] / (stem + ".json.gz")) == plain) << stem;
    EXPECT_TRUE(Decompressed(dirs["zst"] / (stem + ".json.zst")) == plain) << stem;
  }
}

TEST(GeneratorTest, RejectsBadOptions) {
  const fs::path dir = FreshDir("bad_options");
  GenOptions o = Options(dir);
  o.compress = "bz2";
  EXPECT_EQ(Generate(o, nullptr).code(), StatusCode::kInvalidArgument);
  o = Options(dir);
  o.start_hour = "2024-13-01T00";
  EXPECT_EQ(Generate(o, nullptr).code(), StatusCode::kInvalidArgument);
  o = Options(dir);
  o.hours = 0;
  EXPECT_EQ(Generate(o, nullptr).code(), StatusCode::kInvalidArgument);
  o = Options(dir);
  o.compress = "gz";
  o.level = 12;
  EXPECT_EQ(Generate(o, nullptr).code(), StatusCode::kInvalidArgument);
}

// ---- schema and truth against a recount --------------------------------------------------

constexpr int kHours = 4;
constexpr int kEventsPerHour = 1500;
constexpr int kBadLines = 6;
constexpr uint64_t kMxnetId = 34864402;

const std::vector<std::string> kEnvelopeKeys = {"id", "type", "actor", "repo", "payload", "public", "created_at"};
const std::vector<std::string> kActorKeys = {"id", "login", "display_login", "gravatar_id", "url", "avatar_url"};
const std::vector<std::string> kRepoKeys = {"id", "name", "url"};
const std::vector<std::string> kIssueKeys = {
    "url", "repository_url", "labels_url", "comments_url", "events_url", "html_url", "id", "node_id", "number",
    "title", "user", "labels", "state", "locked", "assignee", "assignees", "milestone", "comments", "created_at",
    "updated_at", "closed_at", "author_association", "active_lock_reason", "body", "reactions", "timeline_url",
    "performed_via_github_app", "state_reason"};
const std::vector<std::string> kCommentKeys = {"url", "html_url", "issue_url", "id", "node_id", "user", "created_at",
                                               "updated_at", "author_association", "body", "reactions",
                                               "performed_via_github_app"};
const std::vector<std::string> kPullRequestKeys = {
    "url", "id", "node_id", "html_url", "diff_url", "patch_url", "issue_url", "number", "state", "locked", "title",
    "user", "body", "created_at", "updated_at", "closed_at", "merged_at", "merge_commit_sha", "assignee",
    "assignees", "requested_reviewers", "requested_teams", "labels", "milestone", "draft", "commits_url",
    "review_comments_url", "review_comment_url", "comments_url", "statuses_url", "head", "base", "_links",
    "author_association", "auto_merge", "active_lock_reason", "merged", "mergeable", "rebaseable",
    "mergeable_state", "merged_by", "comments", "review_comments", "maintainer_can_modify", "commits", "additions",
    "deletions", "changed_files"};
const std::vector<std::string> kLabelKeys = {"id", "node_id", "url", "name", "color", "default", "description"};

std::vector<std::string> PrIssueKeys() {
  std::vector<std::string> keys = kIssueKeys;
  const auto at = std::find(keys.begin(), keys.end(), "body");
  keys.insert(at, {"draft", "pull_request"});
  return keys;
}

// What a correct engine extracts from the corpus, recounted here independently of the plan.
struct Recount {
  uint64_t events = 0;
  uint64_t bad_lines = 0;
  Counts by_type;
  std::vector<uint64_t> events_per_file;
  std::vector<uint64_t> bad_per_file;
  std::map<uint64_t, std::vector<std::string>> names_of_repo;  // distinct, in order of appearance
  struct Report {
    std::string month;
    std::string last_time;
    std::string state;
    std::set<std::string> probes;
  };
  std::map<std::tuple<uint64_t, uint64_t, bool>, Report> reports;  // (repo id, number, is_pr)
  // Review events: the pull requests each repository's reviews name, the created_at each of
  // those shows, and the reviews with and without a text (only these are report events).
  std::map<uint64_t, std::set<uint64_t>> reviewed_numbers;
  std::map<std::pair<uint64_t, uint64_t>, std::set<std::string>> reviewed_created;
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> review_events;
  uint64_t reviews_with_text = 0, reviews_without_text = 0;
};

class GeneratorCorpusTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(FreshDir("corpus"));
    GenOptions o;
    o.out_dir = dir_->string();
    o.hours = kHours;
    o.events_per_hour = kEventsPerHour;
    o.seed = 11;
    o.compress = "gz";
    o.bad_lines_per_file = kBadLines;
    o.tracked_share = 0.5;  // enough tracked activity for per-repo checks in a small corpus
    const Status s = Generate(o, nullptr);
    ASSERT_TRUE(s.ok()) << s.message();
    recount_ = new Recount(RecountCorpus(*dir_));
  }
  static void TearDownTestSuite() {
    delete recount_;
    delete dir_;
  }

  static void CheckMarkers(std::string_view line, bool lifecycle, std::string_view title, std::string_view body,
                           std::string_view comment, size_t probe_labels, std::set<std::string>* probes) {
    const FenceSplit b = SplitFences(body), c = SplitFences(comment);
    if (!lifecycle) {
      EXPECT_EQ(Count(line, "ghsiftprobe"), 0u) << "marker outside issue/PR events";
      return;
    }
    const size_t in_title = Count(title, "ghsiftprobetitle");
    const size_t in_body = Count(b.prose, "ghsiftprobebody");
    const size_t in_code = Count(b.code, "ghsiftprobecode") + Count(c.code, "ghsiftprobecode");
    const size_t in_comment = Count(c.prose, "ghsiftprobecomment");
    // Each marker only in its own field: every occurrence on the line is accounted for.
    EXPECT_EQ(Count(line, "ghsiftprobetitle"), in_title);
    EXPECT_EQ(Count(line, "ghsiftprobebody"), in_body);
    EXPECT_EQ(Count(line, "ghsiftprobecode"), in_code);
    EXPECT_EQ(Count(line, "ghsiftprobecomment"), in_comment);
    EXPECT_EQ(Count(line, "ghsiftprobelabel"), 2 * probe_labels);  // label name + label url
    if (in_title > 0) probes->insert("probe_title");
    if (in_body > 0) probes->insert("probe_body");
    if (in_code > 0) probes->insert("probe_code");
    if (in_comment > 0) probes->insert("probe_comment");
    if (probe_labels > 0) probes->insert("probe_label");
  }

  static size_t ProbeLabels(simdjson::dom::element labels) {
    size_t n = 0;
    for (auto label : labels.get_array()) {
      EXPECT_EQ(Keys(Obj(label)), kLabelKeys);
      if (Str(label["name"]) == "ghsiftprobelabel") ++n;
    }
    return n;
  }

  static Recount RecountCorpus(const fs::path& dir) {
    Recount rc;
    simdjson::dom::parser parser;
    const std::vector<std::string> pr_issue_keys = PrIssueKeys();
    uint64_t last_id = 0;
    for (int h = 0; h < kHours; ++h) {
      const std::string text = Decompressed(dir / ("2024-01-01-" + std::to_string(h) + ".json.gz"));
      const std::string hour_prefix = "2024-01-01T0" + std::to_string(h) + ":";
      uint64_t valid = 0, bad = 0;
      std::string last_time;
      for (const std::string_view line : Lines(text)) {
        simdjson::dom::element doc;
        if (parser.parse(line.data(), line.size()).get(doc) != simdjson::SUCCESS) {
          ++bad;
          EXPECT_FALSE(line.empty());
          EXPECT_EQ(Count(line, "ghsiftprobe"), 0u) << "a bad line carries a marker";
          continue;
        }
        ++valid;
        const simdjson::dom::object obj = Obj(doc);
        std::vector<std::string> keys = Keys(obj);
        if (keys.size() == 8) {
          EXPECT_EQ(keys.back(), "org");
          keys.pop_back();
        }
        EXPECT_EQ(keys, kEnvelopeKeys);
        EXPECT_EQ(Keys(Obj(doc["actor"])), kActorKeys);
        EXPECT_EQ(Keys(Obj(doc["repo"])), kRepoKeys);
        const uint64_t id = std::stoull(std::string(Str(doc["id"])));
        EXPECT_GT(id, last_id);
        last_id = id;
        const std::string created(Str(doc["created_at"]));
        EXPECT_EQ(created.substr(0, hour_prefix.size()), hour_prefix);
        EXPECT_GE(created, last_time) << "events sorted by created_at";
        last_time = created;
        const std::string type(Str(doc["type"]));
        ++rc.by_type[type];
        const uint64_t repo_id = Uint(doc["repo"]["id"]);
        const std::string repo_name(Str(doc["repo"]["name"]));
        auto& names = rc.names_of_repo[repo_id];
        if (names.empty() || names.back() != repo_name) names.push_back(repo_name);
        if (repo_id == kMxnetId) {
          EXPECT_EQ(repo_name, h < kHours / 2 ? "apache/incubator-mxnet" : "apache/mxnet");
        }

        const simdjson::dom::element payload = doc["payload"];
        simdjson::dom::element report;
        std::string_view comment;
        size_t probe_labels = 0;
        bool is_pr = false;
        const bool lifecycle = type == "IssuesEvent" || type == "IssueCommentEvent" || type == "PullRequestEvent";
        if (type == "PullRequestEvent") {
          report = payload["pull_request"];
          is_pr = true;
          EXPECT_EQ(Keys(Obj(report)), kPullRequestKeys);
          EXPECT_EQ(Uint(payload["number"]), Uint(report["number"]));
        } else if (lifecycle) {
          report = payload["issue"];
          simdjson::dom::element pull;
          is_pr = report["pull_request"].get(pull) == simdjson::SUCCESS;
          EXPECT_EQ(Keys(Obj(report)), is_pr ? pr_issue_keys : kIssueKeys);
          if (type == "IssueCommentEvent") {
            EXPECT_EQ(Keys(Obj(payload["comment"])), kCommentKeys);
            comment = Str(payload["comment"]["body"]);
          }
        }
        simdjson::dom::element label;
        if (lifecycle && payload["label"].get(label) == simdjson::SUCCESS && Str(label["name"]) == "ghsiftprobelabel") {
          ++probe_labels;
        }
        if (!lifecycle) {
          CheckMarkers(line, false, {}, {}, {}, 0, nullptr);
          // A review comment, or a review with a body, is a report event of its pull request:
          // the engine reads its text as the `review` field.
          const bool review_comment = type == "PullRequestReviewCommentEvent";
          if (review_comment || type == "PullRequestReviewEvent") {
            const simdjson::dom::element text = payload[review_comment ? "comment" : "review"]["body"];
            const bool has_text = !text.is_null() && !Str(text).empty();
            ++(has_text ? rc.reviews_with_text : rc.reviews_without_text);
            const simdjson::dom::element pull = payload["pull_request"];
            const uint64_t number = Uint(pull["number"]);
            const std::string pull_created(Str(pull["created_at"]));
            rc.reviewed_numbers[repo_id].insert(number);
            rc.reviewed_created[{repo_id, number}].insert(pull_created);
            ++rc.review_events[{repo_id, number}];
            if (!has_text) continue;
            auto& r = rc.reports[{repo_id, number, true}];
            if (r.month.empty()) r.month = pull_created.substr(0, 7);
            EXPECT_EQ(r.month, pull_created.substr(0, 7));
          }
          continue;
        }
        probe_labels += ProbeLabels(report["labels"]);
        auto& r = rc.reports[{repo_id, Uint(report["number"]), is_pr}];
        const std::string report_created(Str(report["created_at"]));
        if (r.month.empty()) r.month = report_created.substr(0, 7);
        EXPECT_EQ(r.month, report_created.substr(0, 7));
        EXPECT_GT(created, r.last_time) << "events of one report have distinct times";
        r.last_time = created;
        r.state = std::string(Str(report["state"]));
        CheckMarkers(line, true, Str(report["title"]), Str(report["body"]), comment, probe_labels, &r.probes);
      }
      rc.events += valid;
      rc.bad_lines += bad;
      rc.events_per_file.push_back(valid);
      rc.bad_per_file.push_back(bad);
    }
    return rc;
  }

  static std::string LatestName(uint64_t repo_id) { return recount_->names_of_repo.at(repo_id).back(); }

  static fs::path* dir_;
  static Recount* recount_;
};

fs::path* GeneratorCorpusTest::dir_ = nullptr;
Recount* GeneratorCorpusTest::recount_ = nullptr;

TEST_F(GeneratorCorpusTest, EveryFileHasTheRequestedLines) {
  ASSERT_EQ(recount_->events_per_file.size(), static_cast<size_t>(kHours));
  for (int h = 0; h < kHours; ++h) {
    EXPECT_EQ(recount_->events_per_file[h], static_cast<uint64_t>(kEventsPerHour)) << h;
    EXPECT_EQ(recount_->bad_per_file[h], static_cast<uint64_t>(kBadLines)) << h;
  }
}

TEST_F(GeneratorCorpusTest, TruthCountsMatchRecount) {
  simdjson::dom::parser parser;
  simdjson::dom::element truth = parser.load((*dir_ / "truth.json").string());
  EXPECT_EQ(Uint(truth["events"]), recount_->events);
  EXPECT_EQ(Uint(truth["bad_lines"]), recount_->bad_lines);
  EXPECT_EQ(ToCounts(truth["events_by_type"]), recount_->by_type);
  EXPECT_EQ(recount_->by_type.size(), 15u) << "every event type shows up";
  std::vector<std::string> top = Keys(Obj(truth));
  EXPECT_TRUE(std::is_sorted(top.begin(), top.end()));
}

TEST_F(GeneratorCorpusTest, TruthReportsMatchRecount) {
  Nested issues, prs;
  Counts states = {{"closed", 0}, {"open", 0}};
  std::map<std::string, Nested> probes;
  for (const auto& [key, r] : recount_->reports) {
    const auto& [repo_id, number, is_pr] = key;
    const std::string repo = LatestName(repo_id);
    ++(is_pr ? prs : issues)[repo][r.month];
    if (!is_pr) ++states[r.state];
    for (const auto& p : r.probes) ++probes[p][is_pr ? "pr" : "issue"][repo];
  }
  simdjson::dom::parser parser;
  simdjson::dom::element truth = parser.load((*dir_ / "truth.json").string());
  EXPECT_EQ(ToNested(truth["issues_by_repo_month"]), issues);
  EXPECT_EQ(ToNested(truth["prs_by_repo_month"]), prs);
  EXPECT_EQ(ToCounts(truth["issues_by_state"]), states);
  for (const char* field : {"probe_title", "probe_body", "probe_code", "probe_comment", "probe_label"}) {
    Nested expected = ToNested(truth["probe"][field]);
    Nested& got = probes[field];
    for (const char* kind : {"issue", "pr"}) got[kind];  // truth lists both kinds, even when empty
    EXPECT_EQ(expected, got) << field;
    uint64_t total = 0;
    for (const auto& [kind, per_repo] : expected) {
      for (const auto& [repo, n] : per_repo) total += n;
    }
    EXPECT_GT(total, 0u) << field << " planted nowhere";
  }
  // Issues created before the corpus are first seen through later events.
  bool older_month = false;
  for (const auto& [repo, months] : issues) older_month |= months.begin()->first < "2024-01";
  EXPECT_TRUE(older_month);
}

// Each repository's background review events name one pull request, with one creation time
// from before the corpus, whatever the hour: the truth counts it once, in that month.
TEST_F(GeneratorCorpusTest, BackgroundReviewsNameOnePullRequestPerRepository) {
  EXPECT_GT(recount_->reviews_with_text, 0u);
  EXPECT_GT(recount_->reviews_without_text, 0u) << "approvals without a body are no report";
  for (const auto& [repo_id, numbers] : recount_->reviewed_numbers) {
    ASSERT_EQ(numbers.size(), 1u) << repo_id;
    const uint64_t number = *numbers.begin();
    EXPECT_GE(number, 500000u);
    EXPECT_LT(number, 600000u);
    const auto& created = recount_->reviewed_created.at({repo_id, number});
    ASSERT_EQ(created.size(), 1u) << repo_id;
    EXPECT_LT(*created.begin(), "2024-01-01T00:00:00Z");
  }
  uint64_t most = 0;
  for (const auto& [pr, n] : recount_->review_events) most = std::max(most, n);
  EXPECT_GT(most, 1u) << "some pull request is reviewed more than once";
}

TEST_F(GeneratorCorpusTest, RenameAndTrackedRepos) {
  simdjson::dom::parser parser;
  simdjson::dom::element truth = parser.load((*dir_ / "truth.json").string());
  std::map<std::string, std::pair<std::string, std::string>> renamed_truth, renamed_seen;
  for (auto field : Obj(truth["repos_renamed"])) {
    renamed_truth[std::string(field.key)] = {std::string(Str(field.value["from"])), std::string(Str(field.value["to"]))};
  }
  for (const auto& [id, names] : recount_->names_of_repo) {
    if (names.size() > 1) renamed_seen[std::to_string(id)] = {names.front(), names.back()};
  }
  EXPECT_EQ(renamed_truth, renamed_seen);
  ASSERT_EQ(renamed_truth.count(std::to_string(kMxnetId)), 1u);
  std::vector<std::string> tracked;
  for (auto t : truth["tracked_repos"].get_array()) tracked.emplace_back(Str(t));
  EXPECT_NE(std::find(tracked.begin(), tracked.end(), "apache/mxnet"), tracked.end());
  EXPECT_NE(std::find(tracked.begin(), tracked.end(), "pytorch/pytorch"), tracked.end());
}

TEST(GeneratorTest, OneHourHasNoRename) {
  const fs::path dir = FreshDir("one_hour");
  GenOptions o = Options(dir);
  o.hours = 1;
  GenerateOk(o);
  simdjson::dom::parser parser;
  simdjson::dom::element truth = parser.load((dir / "truth.json").string());
  EXPECT_EQ(Obj(truth["repos_renamed"]).size(), 0u);
  std::vector<std::string> tracked;
  for (auto t : truth["tracked_repos"].get_array()) tracked.emplace_back(Str(t));
  EXPECT_NE(std::find(tracked.begin(), tracked.end(), "apache/incubator-mxnet"), tracked.end());
  EXPECT_EQ(ReadFile(dir / "2024-01-01-0.json").find("\"apache/mxnet\""), std::string::npos);
}

}  // namespace
}  // namespace ghsift::gen
