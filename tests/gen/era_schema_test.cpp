// `ghsift gen --schema events-2011|slim-2025`: GH Archive's first hours (Events API records of
// api.github.dev, issue events without text) and the slim payloads of October 2025 on (pull
// requests without title or body, pushes without commits). Key sets per event type are checked
// against the real files in ../shared (skipped when absent); ingest equals truth.json, which
// counts only what the written lines show.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gen_test_support.hpp"
#include "truth_check.hpp"

namespace ghsift::gen {
namespace {

using testing::Decompressed;
using testing::ExpectIngestEqualsTruth;
using testing::FreshTestDir;
using testing::GenerateOk;
using testing::Lines;

const std::filesystem::path kReal = std::filesystem::path(GHSIFT_SOURCE_DIR) / "../shared/data/gharchive-real";

using KeyList = std::vector<std::string>;
//! "<type> <path>" -> the sorted key lists seen there. Paths: "" (the record), "payload",
//! "payload.pull_request", "payload.issue".
using KeySets = std::map<std::string, std::set<KeyList>>;

KeyList SortedKeys(simdjson::dom::object obj) {
  KeyList keys = testing::Keys(obj);
  std::sort(keys.begin(), keys.end());
  return keys;
}

void AddKeySets(std::string_view record, simdjson::dom::parser& parser, KeySets& sets) {
  simdjson::dom::object obj;
  if (parser.parse(record.data(), record.size()).get(obj) != simdjson::SUCCESS) return;
  std::string_view type;
  if (obj["type"].get_string().get(type) != simdjson::SUCCESS) return;
  const std::string t(type);
  // `org` is optional in every era, and a real hour too small to show it for every type.
  KeyList top = SortedKeys(obj);
  top.erase(std::remove(top.begin(), top.end(), "org"), top.end());
  sets[t + " "].insert(top);
  simdjson::dom::object payload;
  if (obj["payload"].get_object().get(payload) != simdjson::SUCCESS) return;
  sets[t + " payload"].insert(SortedKeys(payload));
  for (const char* member : {"pull_request", "issue"}) {
    simdjson::dom::object inner;
    if (payload[member].get_object().get(inner) == simdjson::SUCCESS) {
      sets[t + " payload." + member].insert(SortedKeys(inner));
    }
  }
}

KeySets KeySetsOfLines(const std::string& text, const std::string& created_from = "") {
  KeySets sets;
  simdjson::dom::parser parser;
  for (const std::string_view line : Lines(text)) {
    if (!created_from.empty()) {
      std::string_view created;
      if (parser.parse(line.data(), line.size())["created_at"].get_string().get(created) != simdjson::SUCCESS ||
          created < created_from) {
        continue;
      }
    }
    AddKeySets(line, parser, sets);
  }
  return sets;
}

std::string Joined(const KeyList& keys) {
  std::string s;
  for (const auto& k : keys) s += k + ",";
  return s;
}

//! Every generated key list at the paths `real` covers is one a real record shows there;
//! returns how many (type, path) entries were checked.
size_t ExpectSeenInReal(const KeySets& gen, const KeySets& real) {
  size_t checked = 0;
  for (const auto& [where, lists] : gen) {
    const auto it = real.find(where);
    if (it == real.end()) continue;
    for (const auto& keys : lists) EXPECT_TRUE(it->second.count(keys)) << where << ": " << Joined(keys);
    ++checked;
  }
  return checked;
}

GenOptions EraOptions(const std::filesystem::path& dir, const std::string& schema, int hours, int events) {
  GenOptions o;
  o.out_dir = dir.string();
  o.schema = schema;
  o.hours = hours;
  o.events_per_hour = events;
  o.seed = 5;
  o.level = 1;
  return o;
}

//! Queries the store with `dimensions` (two of them) over `kind`.
ghsift::testing::Nested Query2(const std::filesystem::path& store, std::vector<std::string> dimensions,
                       const std::string& kind = "issue") {
  QueryOptions o;
  o.dimensions = std::move(dimensions);
  o.kind = kind;
  return ghsift::testing::QueryNested(store.string(), o);
}

//! A truth.json two-level object without its zero cells (the engine has no rows for them).
ghsift::testing::Nested NonZero(simdjson::dom::element object) {
  ghsift::testing::Nested out;
  for (const auto& [outer, inner] : ghsift::testing::ReadNested(object)) {
    for (const auto& [key, n] : inner) {
      if (n != 0) out[outer][key] = n;
    }
  }
  return out;
}

//! resolution_by_repo, and probe flags of issues and pull requests, as the engine finds them.
void ExpectLifecycleAndProbesEqualTruth(const std::filesystem::path& corpus, const std::filesystem::path& store) {
  auto text = simdjson::padded_string::load((corpus / "truth.json").string());
  ASSERT_EQ(text.error(), simdjson::SUCCESS);
  simdjson::dom::parser parser;
  const simdjson::dom::element truth = parser.parse(text.value()).value();
  EXPECT_EQ(Query2(store, {"repo", "resolution"}), NonZero(truth["resolution_by_repo"]));
  for (const std::string kind : {"issue", "pr"}) {
    ghsift::testing::Nested flagged = Query2(store, {"category", "repo"}, kind);
    for (const std::string category : {"probe_title", "probe_body", "probe_code", "probe_comment", "probe_label"}) {
      std::map<std::string, int64_t> expected;
      for (auto [repo, n] : truth["probe"][category][kind].get_object()) expected[std::string(repo)] = n.get_int64();
      EXPECT_EQ(flagged[category], expected) << category << " " << kind;
    }
  }
}

// ---- events-2011 ----------------------------------------------------------------------------

TEST(Events2011SchemaTest, KeySetsAndKeyOrderMatchTheReal2011Hour) {
  const auto real_path = kReal / "hours/2011-02-15-0.json.gz";
  if (!std::filesystem::exists(real_path)) GTEST_SKIP() << real_path << " absent";
  const KeySets real = KeySetsOfLines(Decompressed(real_path));
  const auto dir = FreshTestDir("era_", "keys2011");
  GenerateOk(EraOptions(dir, "events-2011", 1, 3000));
  const std::string text = Decompressed(dir / "2011-02-15-0.json.gz");
  const KeySets gen = KeySetsOfLines(text);
  // Every type but the planned comments (no IssueCommentEvent in the 2011 hour) must be one
  // the real hour shows, at the record, its payload and the pull request alike.
  for (const auto& [where, lists] : gen) {
    if (where.starts_with("IssueCommentEvent")) continue;
    EXPECT_TRUE(real.count(where)) << where << " never occurs in the real 2011 hour";
  }
  EXPECT_GE(ExpectSeenInReal(gen, real), 20u);
  // What an issue event shows is exactly what the real ones show: no title, no body.
  EXPECT_EQ(gen.at("IssuesEvent payload"),
            (std::set<KeyList>{{"action", "actor", "actor_gravatar", "issue", "number", "repo"}}));
  EXPECT_EQ(gen.at("PullRequestEvent payload.pull_request"),
            (std::set<KeyList>{{"additions", "commits", "deletions", "id", "issue_id", "number", "title"}}));
  EXPECT_EQ(gen.count("IssuesEvent payload.issue"), 0u);
  EXPECT_EQ(gen.at("IssueCommentEvent payload"), (std::set<KeyList>{{"comment_id", "issue_id"}}));

  // Key order: repo, type, [org], public, created_at, payload, actor, id.
  simdjson::dom::parser parser;
  std::set<KeyList> orders;
  for (const std::string_view line : Lines(text)) {
    orders.insert(testing::Keys(parser.parse(line.data(), line.size()).get_object().value()));
  }
  EXPECT_EQ(orders, (std::set<KeyList>{{"repo", "type", "public", "created_at", "payload", "actor", "id"},
                                       {"repo", "type", "org", "public", "created_at", "payload", "actor", "id"}}));
}

TEST(Events2011SchemaTest, IssueCommentEnvelopeMatchesTheFirstHoursOf2012) {
  const auto real_path = kReal / "hours/2012-02-15-0.json.gz";
  if (!std::filesystem::exists(real_path)) GTEST_SKIP() << real_path << " absent";
  const KeySets real = KeySetsOfLines(Decompressed(real_path));
  const auto dir = FreshTestDir("era_", "comment2011");
  GenerateOk(EraOptions(dir, "events-2011", 1, 1000));
  const KeySets gen = KeySetsOfLines(Decompressed(dir / "2011-02-15-0.json.gz"));
  ASSERT_TRUE(gen.count("IssueCommentEvent "));
  for (const auto& keys : gen.at("IssueCommentEvent ")) {
    EXPECT_TRUE(real.at("IssueCommentEvent ").count(keys)) << Joined(keys);
  }
}

TEST(Events2011SchemaTest, IngestEqualsTruthAndNoIssueShowsAState) {
  const auto dir = FreshTestDir("era_", "truth2011");
  GenOptions o = EraOptions(dir, "events-2011", 3, 800);
  o.bad_lines_per_file = 2;
  o.quirk_duplicates = 3;
  GenerateOk(o);
  const auto store = FreshTestDir("era_", "store2011");
  EXPECT_EQ(ExpectIngestEqualsTruth(dir.string(), store.string()), 6u);
  ExpectLifecycleAndProbesEqualTruth(dir, store);

  auto text = simdjson::padded_string::load((dir / "truth.json").string());
  simdjson::dom::parser parser;
  const simdjson::dom::element truth = parser.parse(text.value()).value();
  // Issues show no state, no text and no closing: all "(unknown)", none closed or flagged.
  EXPECT_GT(truth["issues_by_state"]["(unknown)"].get_uint64().value(), 20u);
  EXPECT_EQ(truth["issues_by_state"]["closed"].get_uint64().value(), 0u);
  EXPECT_EQ(truth["issues_by_state"]["open"].get_uint64().value(), 0u);
  EXPECT_EQ(truth["closed_by_repo"].get_object().size(), 0u);
  for (const char* field : {"probe_title", "probe_body", "probe_label", "probe_comment"}) {
    EXPECT_EQ(truth["probe"][field]["issue"].get_object().size(), 0u) << field;
  }
  // A pull request's title is there, and rules read it.
  EXPECT_GT(truth["probe"]["probe_title"]["pr"].get_object().size(), 0u);
  EXPECT_EQ(truth["probe"]["probe_body"]["pr"].get_object().size(), 0u);
}

// ---- slim-2025 ------------------------------------------------------------------------------

TEST(Slim2025SchemaTest, KeySetsMatchThePost2025Records) {
  const auto real_path = kReal / "events.json.gz";
  if (!std::filesystem::exists(real_path)) GTEST_SKIP() << real_path << " absent";
  const KeySets real = KeySetsOfLines(Decompressed(real_path), "2025-10");
  ASSERT_TRUE(real.count("PushEvent payload"));
  ASSERT_TRUE(real.count("PullRequestEvent payload.pull_request"));
  const auto dir = FreshTestDir("era_", "keys2025");
  GenerateOk(EraOptions(dir, "slim-2025", 1, 3000));
  const KeySets gen = KeySetsOfLines(Decompressed(dir / "2025-11-01-10.json.gz"));
  EXPECT_EQ(gen.at("PushEvent payload"), (std::set<KeyList>{{"before", "head", "push_id", "ref", "repository_id"}}));
  EXPECT_EQ(gen.at("PushEvent payload"), real.at("PushEvent payload"));
  EXPECT_EQ(gen.at("PullRequestEvent payload.pull_request"), real.at("PullRequestEvent payload.pull_request"));
  // A labeled pull request shows its labels as the real one does; others only action, number, pull_request.
  const std::set<KeyList> payloads = gen.at("PullRequestEvent payload");
  EXPECT_TRUE(payloads.count({"action", "number", "pull_request"}));
  for (const auto& keys : payloads) {
    if (keys.size() > 3) {
      EXPECT_TRUE(real.at("PullRequestEvent payload").count(keys)) << Joined(keys);
    }
  }
  // A review embeds the same slim pull request.
  EXPECT_EQ(gen.at("PullRequestReviewEvent payload.pull_request"),
            real.at("PullRequestReviewEvent payload.pull_request"));
  // Issues keep their text.
  for (const auto& keys : gen.at("IssuesEvent payload.issue")) {
    EXPECT_TRUE(std::count(keys.begin(), keys.end(), "title") && std::count(keys.begin(), keys.end(), "body"));
  }
}

TEST(Slim2025SchemaTest, IngestEqualsTruthAndClosingsAreUnknown) {
  const auto dir = FreshTestDir("era_", "truth2025");
  GenOptions o = EraOptions(dir, "slim-2025", 3, 1500);
  o.bad_lines_per_file = 1;
  GenerateOk(o);
  const auto store = FreshTestDir("era_", "store2025");
  EXPECT_EQ(ExpectIngestEqualsTruth(dir.string(), store.string()), 3u);
  ExpectLifecycleAndProbesEqualTruth(dir, store);

  auto text = simdjson::padded_string::load((dir / "truth.json").string());
  simdjson::dom::parser parser;
  const simdjson::dom::element truth = parser.parse(text.value()).value();
  int64_t unknown = 0, fixed = 0;
  for (const auto& [repo, kinds] : ghsift::testing::ReadNested(truth["resolution_by_repo"])) {
    if (kinds.count("(unknown)")) unknown += kinds.at("(unknown)");
    fixed += kinds.at("fixed_by_pr");
  }
  // No merged pull request can be read as closing an issue; every closing is unknown.
  EXPECT_EQ(fixed, 0);
  EXPECT_GT(unknown, 5);
  EXPECT_GT(truth["probe"]["probe_title"]["issue"].get_object().size(), 0u);
}

TEST(EraSchemaTest, UnknownSchemaListsTheValidOnes) {
  const auto dir = FreshTestDir("era_", "reject");
  const Status s = Generate(EraOptions(dir, "slim-2026", 1, 10), nullptr);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("timeline-2012, events-2011 or slim-2025"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace ghsift::gen
