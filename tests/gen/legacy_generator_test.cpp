// Tests of the generator's legacy (2011-2014 Timeline API) and mixed schemas and of the
// archive quirks it plants: layout of legacy lines, and truth.json against an independent
// recount of the written files (joined records split, duplicates counted once, NUL lines).
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "gen/generator.hpp"
#include "gen/gen_test_support.hpp"

namespace ghsift::gen {
namespace {

namespace fs = std::filesystem;
using namespace ghsift::gen::testing;

// ---- helpers -------------------------------------------------------------------------------

fs::path FreshDir(const std::string& name) { return FreshTestDir("ghsift_legacy_gen_test_", name); }

bool Has(simdjson::dom::element e, std::string_view key) {
  simdjson::dom::element v;
  return e[key].get(v) == simdjson::SUCCESS;
}

std::vector<std::string> Strings(simdjson::dom::element e) {
  std::vector<std::string> out;
  for (auto s : e.get_array()) out.emplace_back(Str(s));
  return out;
}

// Top-level objects of a line made only of complete, directly concatenated objects ("{..}{..}");
// empty when the line is anything else (truncated, NUL bytes, garbage).
std::vector<std::string_view> SplitObjects(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  int depth = 0;
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (depth == 0 && c != '{') return {};
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) {
        out.push_back(line.substr(start, i + 1 - start));
        start = i + 1;
      }
    }
  }
  if (depth != 0 || in_string) return {};
  return out;
}

// "2013-05-31T17:00:02-07:00" or "...Z" to unix seconds; `offset` gets the suffix.
int64_t ParseTime(std::string_view text, std::string* offset) {
  EXPECT_GE(text.size(), 20u) << text;
  if (text.size() < 20) return 0;
  auto num = [&](size_t at, size_t n) { return std::stoi(std::string(text.substr(at, n))); };
  using namespace std::chrono;
  const year_month_day ymd{year{num(0, 4)}, month{static_cast<unsigned>(num(5, 2))},
                           day{static_cast<unsigned>(num(8, 2))}};
  int64_t t = sys_days{ymd}.time_since_epoch().count() * int64_t{86400} + num(11, 2) * 3600 + num(14, 2) * 60 +
              num(17, 2);
  *offset = std::string(text.substr(19));
  if (*offset != "Z") {
    EXPECT_EQ(offset->size(), 6u) << text;
    const int minutes = num(20, 2) * 60 + num(23, 2);
    t -= (text[19] == '-' ? -1 : 1) * int64_t{60} * minutes;
  }
  return t;
}

// ---- expected layouts --------------------------------------------------------------------------

const std::vector<std::string> kModernEnvelope = {"id", "type", "actor", "repo", "payload", "public", "created_at"};
const std::vector<std::string> kLegacyEnvelope = {"created_at", "payload", "public", "type",
                                                  "url", "actor", "actor_attributes", "repository"};
const std::vector<std::string> kLegacyRepository = {
    "id", "name", "url", "description", "watchers", "stargazers", "forks", "fork", "size", "owner", "private",
    "open_issues", "has_issues", "has_downloads", "has_wiki", "language", "created_at", "pushed_at", "master_branch"};
const std::vector<std::string> kLegacyIssue = {"url", "labels_url", "comments_url", "events_url", "html_url", "id",
                                               "number", "title", "user", "labels", "state", "assignee", "milestone",
                                               "comments", "created_at", "updated_at", "closed_at", "pull_request",
                                               "body"};
const std::vector<std::string> kLegacyComment = {"url", "html_url", "issue_url", "id", "user",
                                                 "created_at", "updated_at", "body"};
const std::vector<std::string> kLegacyPullRequest = {
    "url", "id", "html_url", "diff_url", "patch_url", "issue_url", "number", "state", "title", "user", "body",
    "created_at", "updated_at", "closed_at", "merged_at", "merge_commit_sha", "assignee", "milestone", "labels",
    "commits_url", "review_comments_url", "review_comment_url", "comments_url", "head", "base", "_links", "merged",
    "mergeable", "mergeable_state", "merged_by", "comments", "review_comments", "commits", "additions", "deletions",
    "changed_files"};
const std::vector<std::string> kLegacyLabel = {"url", "name", "color"};
const std::set<std::string> kLegacyOffsets = {"-07:00", "-04:00", "+02:00", "+05:30"};
constexpr uint64_t kMxnetId = 34864402;

// ---- the recount ---------------------------------------------------------------------------

struct Recount {
  uint64_t events = 0, bad_lines = 0, nul_lines = 0, joined_records = 0, duplicate_events = 0;
  Counts by_type;
  Counts schema = {{"legacy", 0}, {"modern", 0}};
  std::set<std::string> offsets;
  std::vector<std::string> files;
  std::map<std::string, uint64_t> lines_per_file, events_per_file;
  std::map<uint64_t, std::vector<std::string>> names_of_repo;  // distinct, in order of appearance
  struct Report {
    std::string month, state;  //!< month: of the created_at the events show ("" = none shows one)
    int64_t first_time = 0;    //!< the earliest event's time
    std::set<std::string> probes;
  };
  std::map<std::tuple<uint64_t, uint64_t, bool>, Report> reports;  // (repo id, number, is_pr)
};

// "YYYY-MM" of a unix time, in UTC.
std::string MonthOf(int64_t t) {
  using namespace std::chrono;
  const year_month_day ymd{sys_days{days{t / 86400}}};
  char out[16];  // room for any int year and month the format could print
  std::snprintf(out, sizeof out, "%04d-%02u", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()));
  return out;
}

// A review comment, or a review with a body, is a report event of its pull request (the
// engine reads its text as the `review` field); one without a text is none. A 2012-2014 review
// comment names its pull request only in its page address and shows no creation time.
void CountReview(simdjson::dom::element doc, bool legacy, const std::string& type, int64_t t, uint64_t repo_id,
                 Recount* rc) {
  const simdjson::dom::element payload = doc["payload"];
  const simdjson::dom::element text = payload[type == "PullRequestReviewEvent" ? "review" : "comment"]["body"];
  if (text.is_null() || Str(text).empty()) return;
  uint64_t number = 0;
  std::string created;
  if (legacy) {
    const std::string_view url = Str(doc["url"]);
    const size_t at = url.find("/pull/");
    ASSERT_NE(at, std::string_view::npos) << url;
    number = std::stoull(std::string(url.substr(at + 6, url.find('#', at) - at - 6)));
    EXPECT_FALSE(Has(payload, "pull_request"));
  } else {
    number = Uint(payload["pull_request"]["number"]);
    created = std::string(Str(payload["pull_request"]["created_at"]));
  }
  auto& r = rc->reports[{repo_id, number, true}];
  if (r.first_time == 0 || t < r.first_time) r.first_time = t;
  if (created.empty()) return;
  if (r.month.empty()) r.month = created.substr(0, 7);
  EXPECT_EQ(r.month, created.substr(0, 7));
}

// Checks one record's layout and adds it to the recount. `hour_start` is the file's UTC hour.
void CountRecord(simdjson::dom::element doc, int64_t hour_start, Recount* rc) {
  const simdjson::dom::object obj = Obj(doc);
  std::vector<std::string> keys = Keys(obj);
  ASSERT_FALSE(keys.empty());
  const bool legacy = keys.front() == "created_at";
  std::string offset;
  const int64_t t = ParseTime(Str(doc["created_at"]), &offset);
  EXPECT_GE(t, hour_start);
  EXPECT_LT(t, hour_start + 3600) << "created_at " << Str(doc["created_at"]) << " outside the file's UTC hour";
  const std::string type(Str(doc["type"]));
  uint64_t repo_id = 0;
  std::string repo_name;
  if (legacy) {
    ++rc->schema["legacy"];
    EXPECT_EQ(keys, kLegacyEnvelope);
    EXPECT_EQ(kLegacyOffsets.count(offset), 1u) << offset;
    rc->offsets.insert(offset);
    EXPECT_EQ(Str(doc["actor"]), Str(doc["actor_attributes"]["login"]));
    const std::vector<std::string> attrs = Keys(Obj(doc["actor_attributes"]));
    ASSERT_GE(attrs.size(), 3u);
    EXPECT_EQ(std::vector<std::string>(attrs.begin(), attrs.begin() + 3),
              (std::vector<std::string>{"login", "type", "gravatar_id"}));
    std::vector<std::string> repo_keys = Keys(Obj(doc["repository"]));
    if (repo_keys.back() == "organization") repo_keys.pop_back();
    EXPECT_EQ(repo_keys, kLegacyRepository);
    EXPECT_TRUE(Str(doc["url"]).starts_with("https://github.com/")) << Str(doc["url"]);
    repo_id = Uint(doc["repository"]["id"]);
    repo_name = std::string(Str(doc["repository"]["owner"])) + "/" + std::string(Str(doc["repository"]["name"]));
    EXPECT_EQ(Str(doc["repository"]["url"]), "https://github.com/" + repo_name);
    EXPECT_NE(type, "PullRequestReviewEvent") << "not in the 2011-2014 archive";
    if (type == "PushEvent") {
      EXPECT_FALSE(Has(doc["payload"], "before"));
      EXPECT_FALSE(Has(doc["payload"], "commits"));
      for (auto sha : doc["payload"]["shas"].get_array()) {
        simdjson::dom::array row;
        ASSERT_EQ(sha.get_array().get(row), simdjson::SUCCESS);
        EXPECT_EQ(row.size(), 5u);
        EXPECT_EQ(Str(row.at(0)).size(), 40u);
      }
    }
  } else {
    ++rc->schema["modern"];
    if (keys.size() == 8) {
      EXPECT_EQ(keys.back(), "org");
      keys.pop_back();
    }
    EXPECT_EQ(keys, kModernEnvelope);
    EXPECT_EQ(offset, "Z");
    repo_id = Uint(doc["repo"]["id"]);
    repo_name = std::string(Str(doc["repo"]["name"]));
  }
  ++rc->events;
  ++rc->by_type[type];
  auto& names = rc->names_of_repo[repo_id];
  if (names.empty() || names.back() != repo_name) names.push_back(repo_name);

  const bool lifecycle = type == "IssuesEvent" || type == "IssueCommentEvent" || type == "PullRequestEvent";
  const simdjson::dom::element payload = doc["payload"];
  if (type == "PullRequestReviewCommentEvent" || type == "PullRequestReviewEvent") {
    CountReview(doc, legacy, type, t, repo_id, rc);
    return;
  }
  if (!lifecycle) return;
  simdjson::dom::element report;
  std::string_view comment;
  bool is_pr = false;
  if (type == "PullRequestEvent") {
    report = payload["pull_request"];
    is_pr = true;
    EXPECT_EQ(Uint(payload["number"]), Uint(report["number"]));
    if (legacy) {
      EXPECT_EQ(Keys(Obj(report)), kLegacyPullRequest);
    }
  } else {
    report = payload["issue"];
    if (legacy) {
      EXPECT_EQ(Keys(Obj(report)), kLegacyIssue);
      // Plain issues carry a pull_request member whose links are all null.
      const simdjson::dom::element pull = report["pull_request"];
      EXPECT_EQ(Keys(Obj(pull)), (std::vector<std::string>{"html_url", "diff_url", "patch_url"}));
      is_pr = !pull["html_url"].is_null();
      for (const char* link : {"diff_url", "patch_url"}) EXPECT_EQ(pull[link].is_null(), !is_pr);
    } else {
      is_pr = Has(report, "pull_request");
    }
    if (type == "IssueCommentEvent") {
      if (legacy) {
        EXPECT_EQ(Keys(Obj(payload["comment"])), kLegacyComment);
      }
      comment = Str(payload["comment"]["body"]);
    }
  }
  bool probe_label = false;
  for (auto label : report["labels"].get_array()) {
    if (legacy) {
      EXPECT_EQ(Keys(Obj(label)), kLegacyLabel);
    }
    probe_label |= Str(label["name"]) == "ghsiftprobelabel";
  }
  auto& r = rc->reports[{repo_id, Uint(report["number"]), is_pr}];
  if (r.first_time == 0 || t < r.first_time) r.first_time = t;
  const std::string created(Str(report["created_at"]));
  if (r.month.empty()) r.month = created.substr(0, 7);
  EXPECT_EQ(r.month, created.substr(0, 7));
  r.state = std::string(Str(report["state"]));
  const std::string_view title = Str(report["title"]), body = Str(report["body"]);
  if (Count(title, "ghsiftprobetitle") > 0) r.probes.insert("probe_title");
  if (Count(body, "ghsiftprobebody") > 0) r.probes.insert("probe_body");
  if (Count(body, "ghsiftprobecode") + Count(comment, "ghsiftprobecode") > 0) r.probes.insert("probe_code");
  if (Count(comment, "ghsiftprobecomment") > 0) r.probes.insert("probe_comment");
  if (probe_label) r.probes.insert("probe_label");
}

// Reads every hourly file of `dir` in hour order (names from truth.json's "files").
Recount RecountCorpus(const fs::path& dir, const std::vector<std::string>& files) {
  Recount rc;
  rc.files = files;
  simdjson::dom::parser parsers[2];  // a line holds at most two records
  for (const std::string& file : files) {
    const std::string text = Decompressed(dir / file);
    // "2024-01-01-3.json" -> the hour's UTC start.
    const std::string stem = file.substr(0, file.find(".json"));
    std::string offset;
    const int64_t hour_start =
        ParseTime(stem.substr(0, 10) + "T" + (stem.size() - 11 == 1 ? "0" : "") + stem.substr(11) + ":00:00Z",
                  &offset);
    std::set<std::string> ids;
    std::map<std::string, std::string> line_of_id;
    uint64_t lines = 0, events = 0;
    for (const std::string_view line : Lines(text)) {
      ++lines;
      const std::vector<std::string_view> objects = SplitObjects(line);
      std::vector<simdjson::dom::element> docs;
      std::vector<std::string> copies;
      bool valid = !objects.empty() && objects.size() <= 2;
      for (size_t i = 0; valid && i < objects.size(); ++i) {
        copies.emplace_back(objects[i]);
        simdjson::dom::element doc;
        valid = parsers[i].parse(copies[i]).get(doc) == simdjson::SUCCESS;
        docs.push_back(doc);
      }
      if (!valid) {
        ++rc.bad_lines;
        if (!line.empty() && line[0] == '\0') ++rc.nul_lines;
        EXPECT_EQ(Count(line, "ghsiftprobe"), 0u) << "a bad line carries a marker";
        continue;
      }
      if (docs.size() == 2) ++rc.joined_records;
      for (size_t i = 0; i < docs.size(); ++i) {
        if (Has(docs[i], "id")) {
          const std::string id(Str(docs[i]["id"]));
          if (!ids.insert(id).second) {
            ++rc.duplicate_events;
            EXPECT_EQ(docs.size(), 1u) << "a duplicate sits on a line of its own";
            EXPECT_EQ(line_of_id[id], copies[i]) << "a duplicate repeats the same bytes";
            continue;
          }
          line_of_id[id] = copies[i];
        }
        ++events;
        CountRecord(docs[i], hour_start, &rc);
      }
    }
    rc.lines_per_file[file] = lines;
    rc.events_per_file[file] = events;
  }
  return rc;
}

// Compares truth.json with the recount of the files it names.
void ExpectTruthMatchesRecount(const fs::path& dir, const Recount& rc, simdjson::dom::element truth) {
  EXPECT_EQ(Uint(truth["events"]), rc.events);
  EXPECT_EQ(Uint(truth["bad_lines"]), rc.bad_lines);
  EXPECT_EQ(Uint(truth["nul_lines"]), rc.nul_lines);
  EXPECT_EQ(Uint(truth["joined_records"]), rc.joined_records);
  EXPECT_EQ(Uint(truth["duplicate_events"]), rc.duplicate_events);
  EXPECT_EQ(ToCounts(truth["events_by_type"]), rc.by_type);
  EXPECT_EQ(ToCounts(truth["schema_counts"]), rc.schema);
  std::vector<std::string> top = Keys(Obj(truth));
  EXPECT_TRUE(std::is_sorted(top.begin(), top.end()));

  auto latest = [&](uint64_t repo_id) { return rc.names_of_repo.at(repo_id).back(); };
  Nested issues, prs;
  Counts states = {{"closed", 0}, {"open", 0}};
  std::map<std::string, Nested> probes;
  for (const char* field : {"probe_title", "probe_body", "probe_code", "probe_comment", "probe_label"}) {
    probes[field] = {{"issue", {}}, {"pr", {}}};
  }
  for (const auto& [key, r] : rc.reports) {
    const auto& [repo_id, number, is_pr] = key;
    const std::string repo = latest(repo_id);
    ++(is_pr ? prs : issues)[repo][r.month.empty() ? MonthOf(r.first_time) : r.month];
    if (!is_pr) ++states[r.state];
    for (const auto& p : r.probes) ++probes[p][is_pr ? "pr" : "issue"][repo];
  }
  EXPECT_EQ(ToNested(truth["issues_by_repo_month"]), issues);
  EXPECT_EQ(ToNested(truth["prs_by_repo_month"]), prs);
  EXPECT_EQ(ToCounts(truth["issues_by_state"]), states);
  for (const auto& [field, kinds] : probes) EXPECT_EQ(ToNested(truth["probe"][field]), kinds) << field;

  std::map<std::string, std::pair<std::string, std::string>> renamed_truth, renamed_seen;
  for (auto field : Obj(truth["repos_renamed"])) {
    renamed_truth[std::string(field.key)] = {std::string(Str(field.value["from"])), std::string(Str(field.value["to"]))};
  }
  for (const auto& [id, names] : rc.names_of_repo) {
    if (names.size() > 1) renamed_seen[std::to_string(id)] = {names.front(), names.back()};
  }
  EXPECT_EQ(renamed_truth, renamed_seen);
  (void)dir;
}

GenOptions BaseOptions(const fs::path& dir) {
  GenOptions o;
  o.out_dir = dir.string();
  o.hours = 4;
  o.events_per_hour = 1200;
  o.seed = 23;
  o.compress = "gz";
  o.level = 1;
  o.tracked_share = 0.5;
  return o;
}

// ---- legacy layout -------------------------------------------------------------------------

// A corpus generated once for all the tests of a suite, with the files its truth.json lists and
// the independent recount of them. `Suite` names its directory (kName) and gives its Options.
template <class Suite>
class GeneratedCorpusTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(FreshDir(Suite::kName));
    const Status s = Generate(Suite::Options(*dir_), nullptr);
    ASSERT_TRUE(s.ok()) << s.message();
    simdjson::dom::parser parser;
    files_ = new std::vector<std::string>(Strings(parser.load((*dir_ / "truth.json").string())["files"]));
    recount_ = new Recount(RecountCorpus(*dir_, *files_));
  }
  static void TearDownTestSuite() {
    delete recount_;
    delete files_;
    delete dir_;
  }
  static inline fs::path* dir_ = nullptr;
  static inline std::vector<std::string>* files_ = nullptr;
  static inline Recount* recount_ = nullptr;
};

class LegacyCorpusTest : public GeneratedCorpusTest<LegacyCorpusTest> {
 public:
  static constexpr const char* kName = "legacy";
  static GenOptions Options(const fs::path& dir) {
    GenOptions o = BaseOptions(dir);
    o.schema = "legacy";
    o.bad_lines_per_file = 3;
    return o;
  }
};

TEST_F(LegacyCorpusTest, DefaultStartIsJune2013) {
  EXPECT_EQ(SortedFileNames(*dir_), (std::vector<std::string>{"2013-06-01-0.json.gz", "2013-06-01-1.json.gz",
                                                                "2013-06-01-2.json.gz", "2013-06-01-3.json.gz",
                                                                "truth.json"}));
}

TEST_F(LegacyCorpusTest, EveryLineIsLegacyWithOffsetsInTheFileHour) {
  // CountRecord checked the key order, offsets and UTC hour of every record.
  EXPECT_EQ(recount_->schema, (Counts{{"legacy", 4 * 1200}, {"modern", 0}}));
  EXPECT_EQ(recount_->offsets, kLegacyOffsets) << "every offset shows up";
  for (const auto& [file, n] : recount_->events_per_file) EXPECT_EQ(n, 1200u) << file;
  EXPECT_EQ(recount_->bad_lines, 4u * 3);
  EXPECT_EQ(recount_->by_type.count("PullRequestReviewEvent"), 0u);
  EXPECT_EQ(recount_->by_type.size(), 14u) << "every other event type shows up";
}

TEST_F(LegacyCorpusTest, FirstLineLayout) {
  const std::string text = Decompressed(*dir_ / "2013-06-01-0.json.gz");
  const std::string_view first = Lines(text).front();
  ASSERT_TRUE(first.starts_with("{\"created_at\":\"")) << first.substr(0, 40);
  // Local time: 2013-05-31T17:.. at -07:00 or 2013-06-01T02:.. at +02:00 are both 00:xx UTC.
  std::string offset;
  const int64_t t = ParseTime(first.substr(15, 25), &offset);
  EXPECT_NE(offset, "Z");
  EXPECT_EQ(t / 3600 * 3600, int64_t{1370044800}) << first.substr(0, 40);  // 2013-06-01T00:00:00Z
  EXPECT_EQ(first.find("\"id\":\"3"), std::string_view::npos) << "legacy events have no event id";
}

TEST_F(LegacyCorpusTest, TruthMatchesRecount) {
  simdjson::dom::parser parser;
  simdjson::dom::element truth = parser.load((*dir_ / "truth.json").string());
  ExpectTruthMatchesRecount(*dir_, *recount_, truth);
  EXPECT_EQ(Obj(truth["repos_renamed"]).size(), 1u);
  // Legacy names: repository.owner + "/" + repository.name.
  EXPECT_EQ(recount_->names_of_repo.at(kMxnetId),
            (std::vector<std::string>{"apache/incubator-mxnet", "apache/mxnet"}));
  uint64_t reports = 0;
  for (const auto& [repo, months] : ToNested(truth["issues_by_repo_month"])) {
    for (const auto& [month, n] : months) reports += n;
  }
  EXPECT_GT(reports, 100u);
  for (const char* field : {"probe_title", "probe_body", "probe_code", "probe_comment", "probe_label"}) {
    uint64_t total = 0;
    for (const auto& [kind, per_repo] : ToNested(truth["probe"][field])) {
      for (const auto& [repo, n] : per_repo) total += n;
    }
    EXPECT_GT(total, 0u) << field << " planted nowhere";
  }
  const Counts states = ToCounts(truth["issues_by_state"]);
  EXPECT_GT(states.at("open"), 0u);
  EXPECT_GT(states.at("closed"), 0u);
}

// ---- mixed schema with every quirk ---------------------------------------------------------

constexpr int kJoined = 5, kNul = 4, kDuplicates = 6, kBad = 2;

GenOptions MixedQuirkOptions(const fs::path& dir) {
  GenOptions o = BaseOptions(dir);
  o.hours = 5;
  o.schema = "mixed";
  o.bad_lines_per_file = kBad;
  o.quirk_joined = kJoined;
  o.quirk_nul = kNul;
  o.quirk_duplicates = kDuplicates;
  o.quirk_missing_hours = {1};
  o.quirk_single_event_hours = {3};
  return o;
}

class MixedQuirkCorpusTest : public GeneratedCorpusTest<MixedQuirkCorpusTest> {
 public:
  static constexpr const char* kName = "mixed";
  static GenOptions Options(const fs::path& dir) { return MixedQuirkOptions(dir); }
};

TEST_F(MixedQuirkCorpusTest, MissingAndSingleEventHours) {
  EXPECT_EQ(*files_, (std::vector<std::string>{"2024-01-01-0.json.gz", "2024-01-01-2.json.gz",
                                               "2024-01-01-3.json.gz", "2024-01-01-4.json.gz"}));
  EXPECT_EQ(SortedFileNames(*dir_), (std::vector<std::string>{"2024-01-01-0.json.gz", "2024-01-01-2.json.gz",
                                                                "2024-01-01-3.json.gz", "2024-01-01-4.json.gz",
                                                                "truth.json"}));
  simdjson::dom::parser parser;
  simdjson::dom::element truth = parser.load((*dir_ / "truth.json").string());
  EXPECT_EQ(Strings(truth["missing_hours"]), (std::vector<std::string>{"2024-01-01-1"}));
  EXPECT_EQ(Strings(truth["single_event_hours"]), (std::vector<std::string>{"2024-01-01-3"}));
  EXPECT_EQ(recount_->lines_per_file.at("2024-01-01-3.json.gz"), 1u);
  EXPECT_EQ(recount_->events_per_file.at("2024-01-01-3.json.gz"), 1u);
  for (const char* f : {"2024-01-01-0.json.gz", "2024-01-01-2.json.gz", "2024-01-01-4.json.gz"}) {
    EXPECT_EQ(recount_->events_per_file.at(f), 1200u) << f;
    // Joined lines hold two events; duplicates, NUL and bad lines add lines.
    EXPECT_EQ(recount_->lines_per_file.at(f), 1200u - kJoined + kDuplicates + kNul + kBad) << f;
  }
}

TEST_F(MixedQuirkCorpusTest, BothSchemasInEveryFullFile) {
  EXPECT_GT(recount_->schema.at("legacy"), 3u * 1200 * 2 / 5);
  EXPECT_GT(recount_->schema.at("modern"), 3u * 1200 * 2 / 5);
  EXPECT_EQ(recount_->schema.at("legacy") + recount_->schema.at("modern"), 3u * 1200 + 1);
  for (const char* f : {"2024-01-01-0.json.gz", "2024-01-01-2.json.gz", "2024-01-01-4.json.gz"}) {
    const std::string text = Decompressed(*dir_ / f);
    EXPECT_GT(Count(text, "{\"created_at\":\""), 400u) << f;
    EXPECT_GT(Count(text, "{\"id\":\""), 400u) << f;
  }
}

TEST_F(MixedQuirkCorpusTest, QuirkCountsMatchRecount) {
  EXPECT_EQ(recount_->joined_records, 3u * kJoined);
  EXPECT_EQ(recount_->duplicate_events, 3u * kDuplicates);
  EXPECT_GE(recount_->nul_lines, 3u * kNul);  // garbage bad lines may be NUL runs too
  EXPECT_EQ(recount_->bad_lines, 3u * (kNul + kBad));
  simdjson::dom::parser parser;
  simdjson::dom::element truth = parser.load((*dir_ / "truth.json").string());
  ExpectTruthMatchesRecount(*dir_, *recount_, truth);
}

TEST(MixedQuirkTest, SameBytesWhateverThreads) {
  std::vector<fs::path> dirs;
  for (const int threads : {1, 3}) {
    dirs.push_back(FreshDir("mixed_det" + std::to_string(threads)));
    GenOptions o = MixedQuirkOptions(dirs.back());
    o.events_per_hour = 300;
    o.threads = threads;
    GenerateOk(o);
  }
  const auto names = SortedFileNames(dirs[0]);
  ASSERT_EQ(names.size(), 5u);
  ASSERT_EQ(SortedFileNames(dirs[1]), names);
  for (const auto& name : names) EXPECT_TRUE(ReadFile(dirs[0] / name) == ReadFile(dirs[1] / name)) << name;
}

// ---- modern schema with quirks -------------------------------------------------------------

TEST(ModernQuirkTest, TruthMatchesRecount) {
  const fs::path dir = FreshDir("modern_quirks");
  GenOptions o = BaseOptions(dir);
  o.hours = 3;
  o.events_per_hour = 800;
  o.compress = "none";
  o.quirk_joined = 7;
  o.quirk_nul = 3;
  o.quirk_duplicates = 9;
  o.quirk_single_event_hours = {0};
  GenerateOk(o);
  simdjson::dom::parser parser;
  simdjson::dom::element truth = parser.load((dir / "truth.json").string());
  const Recount rc = RecountCorpus(dir, Strings(truth["files"]));
  EXPECT_EQ(rc.joined_records, 2u * 7);
  EXPECT_EQ(rc.duplicate_events, 2u * 9);
  EXPECT_EQ(rc.nul_lines, 2u * 3);
  EXPECT_EQ(rc.schema, (Counts{{"legacy", 0}, {"modern", 2 * 800 + 1}}));
  ExpectTruthMatchesRecount(dir, rc, truth);
  // Hours after the single-event hour still show the rename's first name first.
  EXPECT_EQ(Obj(truth["repos_renamed"]).size(), 1u);
}

TEST(ModernQuirkTest, NoQuirksNoNewCounts) {
  const fs::path dir = FreshDir("modern_plain");
  GenOptions o = BaseOptions(dir);
  o.hours = 1;
  o.events_per_hour = 200;
  GenerateOk(o);
  simdjson::dom::parser parser;
  simdjson::dom::element truth = parser.load((dir / "truth.json").string());
  EXPECT_EQ(Uint(truth["joined_records"]), 0u);
  EXPECT_EQ(Uint(truth["duplicate_events"]), 0u);
  EXPECT_EQ(Uint(truth["nul_lines"]), 0u);
  EXPECT_EQ(Strings(truth["missing_hours"]), std::vector<std::string>{});
  EXPECT_EQ(Strings(truth["single_event_hours"]), std::vector<std::string>{});
  EXPECT_EQ(ToCounts(truth["schema_counts"]), (Counts{{"legacy", 0}, {"modern", 200}}));
  EXPECT_EQ(SortedFileNames(dir), (std::vector<std::string>{"2024-01-01-0.json.gz", "truth.json"}));
}

TEST(LegacyOptionsTest, RejectsBadOptions) {
  const fs::path dir = FreshDir("legacy_bad_options");
  GenOptions o = BaseOptions(dir);
  o.schema = "ancient";
  EXPECT_EQ(Generate(o, nullptr).code(), StatusCode::kInvalidArgument);
  o = BaseOptions(dir);
  o.schema = "legacy";
  o.quirk_duplicates = 1;
  EXPECT_EQ(Generate(o, nullptr).code(), StatusCode::kInvalidArgument) << "legacy events have no id";
  o = BaseOptions(dir);
  o.quirk_missing_hours = {4};
  EXPECT_EQ(Generate(o, nullptr).code(), StatusCode::kInvalidArgument);
  o = BaseOptions(dir);
  o.quirk_missing_hours = {1};
  o.quirk_single_event_hours = {1};
  EXPECT_EQ(Generate(o, nullptr).code(), StatusCode::kInvalidArgument);
  o = BaseOptions(dir);
  o.quirk_nul = -1;
  EXPECT_EQ(Generate(o, nullptr).code(), StatusCode::kInvalidArgument);
}

TEST(LegacyOptionsTest, ExplicitStartWins) {
  const fs::path dir = FreshDir("legacy_start");
  GenOptions o = BaseOptions(dir);
  o.schema = "legacy";
  o.hours = 1;
  o.events_per_hour = 50;
  o.start_hour = "2012-03-10T23";
  GenerateOk(o);
  EXPECT_EQ(SortedFileNames(dir), (std::vector<std::string>{"2012-03-10-23.json.gz", "truth.json"}));
}

}  // namespace
}  // namespace ghsift::gen
