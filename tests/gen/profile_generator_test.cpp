// `ghsift gen --profile 2016|2024`: hours shaped like real ones (type mix, distinct repositories
// and actors per event, bytes per line), still exact against truth.json.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gen/gen_options.hpp"
#include "gen/hour_cast.hpp"
#include "gen/profile.hpp"
#include "gen_test_support.hpp"
#include "truth_check.hpp"

namespace ghsift::gen {
namespace {

using testing::Decompressed;
using testing::FreshTestDir;
using testing::GenerateOk;
using testing::Lines;
using testing::ExpectIngestEqualsTruth;

const std::filesystem::path kRealHours = std::filesystem::path(GHSIFT_SOURCE_DIR) / "../shared/data/gharchive-real/hours";
const std::filesystem::path kRealExcerpt =
    std::filesystem::path(GHSIFT_SOURCE_DIR) / "../shared/data/gharchive-real/excerpts/2025-01-01-15.json.gz";

//! The shape of the first `limit` events of an Events-API hour (0 = all).
struct Shape {
  uint64_t events = 0;
  uint64_t bytes = 0;
  std::set<uint64_t> repos, actors;
  std::map<std::string, uint64_t> types;
  std::map<std::string, uint64_t> type_bytes;
  bool any_display_login = false;
  double ReposPerEvent() const { return static_cast<double>(repos.size()) / static_cast<double>(events); }
  double ActorsPerEvent() const { return static_cast<double>(actors.size()) / static_cast<double>(events); }
  double Share(const std::string& type) const {
    const auto it = types.find(type);
    return it == types.end() ? 0.0 : 100.0 * static_cast<double>(it->second) / static_cast<double>(events);
  }
};

Shape ShapeOf(const std::filesystem::path& file, size_t limit = 0) {
  Shape s;
  const std::string text = Decompressed(file);
  simdjson::dom::parser parser;
  for (const std::string_view line : Lines(text)) {
    if (limit > 0 && s.events == limit) break;
    simdjson::dom::element e;
    const auto err = parser.parse(line.data(), line.size()).get(e);
    EXPECT_EQ(err, simdjson::SUCCESS) << line.substr(0, 200);
    if (err != simdjson::SUCCESS) continue;
    ++s.events;
    s.bytes += line.size() + 1;
    const std::string type(e["type"].get_string().value());
    ++s.types[type];
    s.type_bytes[type] += line.size() + 1;
    s.repos.insert(e["repo"]["id"].get_uint64().value());
    s.actors.insert(e["actor"]["id"].get_uint64().value());
    if (e["actor"]["display_login"].error() == simdjson::SUCCESS) s.any_display_login = true;
  }
  return s;
}

GenOptions ProfileOptions(const std::filesystem::path& dir, const std::string& profile, int hours, int events) {
  GenOptions o;
  o.out_dir = dir.string();
  o.profile = profile;
  o.hours = hours;
  o.events_per_hour = events;
  o.seed = 7;
  o.compress = "gz";
  o.level = 1;
  o.bad_lines_per_file = 2;
  return o;
}

TEST(ProfileTest, KnownProfilesAndTheirDefaults) {
  ASSERT_NE(FindProfile("2016"), nullptr);
  ASSERT_NE(FindProfile("2024"), nullptr);
  EXPECT_EQ(FindProfile("2015"), nullptr);
  EXPECT_EQ(ProfileNames(), "2016, 2024");
  EXPECT_EQ(FindProfile("2016")->events_per_hour, 11956);
  EXPECT_EQ(FindProfile("2024")->events_per_hour, 140000);
  // Lifecycle types are planned, never drawn in the background; no reviews before late 2016.
  for (const char* name : {"2016", "2024"}) {
    const Profile& p = *FindProfile(name);
    EXPECT_EQ(p.background_weights[static_cast<size_t>(EventType::kIssues)], 0) << name;
    EXPECT_EQ(p.background_weights[static_cast<size_t>(EventType::kIssueComment)], 0) << name;
    EXPECT_EQ(p.background_weights[static_cast<size_t>(EventType::kPullRequest)], 0) << name;
  }
  EXPECT_EQ(FindProfile("2016")->background_weights[static_cast<size_t>(EventType::kPullRequestReview)], 0);
}

TEST(ProfileTest, RejectsUnknownProfileAndLegacySchema) {
  const auto dir = FreshTestDir("profile_", "reject");
  GenOptions o = ProfileOptions(dir, "2019", 1, 100);
  Status s = Generate(o, nullptr);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("2016, 2024"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("'2019'"), std::string::npos) << s.message();
  o.profile = "2016";
  o.schema = "legacy";
  s = Generate(o, nullptr);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("modern"), std::string::npos) << s.message();
}

TEST(ProfileTest, DefaultStartHourIsTheProfileEra) {
  const auto dir = FreshTestDir("profile_", "start");
  GenerateOk(ProfileOptions(dir, "2016", 2, 50));
  EXPECT_TRUE(std::filesystem::exists(dir / "2016-01-01-1.json.gz"));
  EXPECT_TRUE(std::filesystem::exists(dir / "2016-01-01-2.json.gz"));
  const auto dir24 = FreshTestDir("profile_", "start24");
  GenerateOk(ProfileOptions(dir24, "2024", 1, 50));
  EXPECT_TRUE(std::filesystem::exists(dir24 / "2024-01-01-15.json.gz"));
}

TEST(ProfileTest, CastIdsAreAboveEveryWorldId) {
  // A cast repository sharing an id with a World repository would look renamed.
  const World world = World::Build(7, 1451610000, 2);
  for (const Repo& r : world.repos) EXPECT_LT(r.id, kCastRepoIdBase);
  for (const User& u : world.users) EXPECT_LT(u.id, kCastActorIdBase);
}

TEST(ProfileTest, SameBytesWhateverThreads) {
  const auto a = FreshTestDir("profile_", "threads_a");
  const auto b = FreshTestDir("profile_", "threads_b");
  GenOptions o = ProfileOptions(a, "2016", 3, 400);
  o.threads = 1;
  GenerateOk(o);
  o.out_dir = b.string();
  o.threads = 3;
  GenerateOk(o);
  for (const char* f : {"2016-01-01-1.json.gz", "2016-01-01-2.json.gz", "2016-01-01-3.json.gz", "truth.json"}) {
    EXPECT_EQ(testing::ReadFile(a / f), testing::ReadFile(b / f)) << f;
  }
}

TEST(ProfileTest, RepositoryNamesAreStableAcrossHours) {
  // A repository id never shows two names (only the planned rename may do that).
  const auto dir = FreshTestDir("profile_", "names");
  GenerateOk(ProfileOptions(dir, "2016", 3, 3000));
  std::map<uint64_t, std::string> names;
  simdjson::dom::parser parser;
  for (const char* f : {"2016-01-01-1.json.gz", "2016-01-01-2.json.gz", "2016-01-01-3.json.gz"}) {
    const std::string text = Decompressed(dir / f);
    for (const std::string_view line : Lines(text)) {
      simdjson::dom::element e;
      if (parser.parse(line.data(), line.size()).get(e) != simdjson::SUCCESS) continue;
      const uint64_t id = e["repo"]["id"].get_uint64().value();
      const std::string name(e["repo"]["name"].get_string().value());
      if (id < kCastRepoIdBase) continue;
      const auto [it, fresh] = names.emplace(id, name);
      EXPECT_EQ(it->second, name) << id;
    }
  }
  EXPECT_GT(names.size(), 3000u);  // hours share part of their cast: fewer than 3 x 0.6 x 3000
  EXPECT_LT(names.size(), 6000u);
}

TEST(ProfileTest, Profile2016IngestEqualsTruth) {
  const auto dir = FreshTestDir("profile_", "truth16");
  GenerateOk(ProfileOptions(dir, "2016", 3, 1500));
  const auto store = FreshTestDir("profile_", "store16");
  EXPECT_EQ(ExpectIngestEqualsTruth(dir.string(), store.string()), 6u);
}

TEST(ProfileTest, Profile2024IngestEqualsTruth) {
  const auto dir = FreshTestDir("profile_", "truth24");
  GenerateOk(ProfileOptions(dir, "2024", 2, 1500));
  const auto store = FreshTestDir("profile_", "store24");
  EXPECT_EQ(ExpectIngestEqualsTruth(dir.string(), store.string()), 4u);
}

// The figures hour_shape.py prints, averaged over hours (each hour weighs the same).
struct Figures {
  double repos = 0, actors = 0, bytes = 0;
  std::map<std::string, double> share, bytes_by_type;
};

Figures Average(const std::vector<Shape>& shapes) {
  Figures f;
  const double n = static_cast<double>(shapes.size());
  for (const Shape& s : shapes) {
    f.repos += s.ReposPerEvent() / n;
    f.actors += s.ActorsPerEvent() / n;
    f.bytes += static_cast<double>(s.bytes) / static_cast<double>(s.events) / n;
    for (const auto& [type, count] : s.types) {
      f.share[type] += s.Share(type) / n;
      f.bytes_by_type[type] += static_cast<double>(s.type_bytes.at(type)) / static_cast<double>(count) / n;
    }
  }
  return f;
}

// Generated hours against real ones over the same number of events: distinct repos and actors
// per event within 0.04, the big types' shares within 1.5 points, Push and Watch bytes within
// 10%, all bytes per event within `bytes_tolerance`.
void ExpectShapeNear(const Figures& gen, const Figures& real, double bytes_tolerance) {
  EXPECT_NEAR(gen.repos, real.repos, 0.04);
  EXPECT_NEAR(gen.actors, real.actors, 0.04);
  for (const char* type : {"PushEvent", "CreateEvent", "WatchEvent", "IssueCommentEvent", "PullRequestEvent",
                           "IssuesEvent"}) {
    EXPECT_NEAR(gen.share.at(type), real.share.at(type), 1.5) << type;
  }
  EXPECT_NEAR(gen.bytes / real.bytes, 1.0, bytes_tolerance);
  for (const char* type : {"PushEvent", "WatchEvent"}) {
    EXPECT_NEAR(gen.bytes_by_type.at(type) / real.bytes_by_type.at(type), 1.0, 0.10) << type;
  }
}

// The real hours are read from ../shared by path; the tests skip without them.
TEST(ProfileTest, Profile2016HoursLookLikeTheReal2016Hours) {
  constexpr int kEvents = 5000;
  std::vector<Shape> real;
  for (const char* name : {"2016-01-01-1.json.gz", "2016-01-01-2.json.gz", "2016-01-01-3.json.gz",
                           "2016-01-01-4.json.gz"}) {
    if (!std::filesystem::exists(kRealHours / name)) GTEST_SKIP() << kRealHours / name << " absent";
    real.push_back(ShapeOf(kRealHours / name, kEvents));
  }
  const auto dir = FreshTestDir("profile_", "shape16");
  GenOptions o = ProfileOptions(dir, "2016", 2, kEvents);
  o.bad_lines_per_file = 0;
  GenerateOk(o);
  const std::vector<Shape> gen = {ShapeOf(dir / "2016-01-01-1.json.gz"), ShapeOf(dir / "2016-01-01-2.json.gz")};
  ExpectShapeNear(Average(gen), Average(real), 0.10);
  for (const Shape& s : gen) {
    EXPECT_EQ(s.events, static_cast<uint64_t>(kEvents));
    EXPECT_EQ(s.types.count("PullRequestReviewEvent"), 0u);
    EXPECT_FALSE(s.any_display_login);
  }
  EXPECT_FALSE(real[0].any_display_login);
}

TEST(ProfileTest, Profile2024HourLooksLikeTheReal2025Excerpt) {
  if (!std::filesystem::exists(kRealExcerpt)) GTEST_SKIP() << kRealExcerpt << " absent";
  const auto dir = FreshTestDir("profile_", "shape24");
  GenOptions o = ProfileOptions(dir, "2024", 1, 2048);
  o.bad_lines_per_file = 0;
  GenerateOk(o);
  const Shape gen = ShapeOf(dir / "2024-01-01-15.json.gz");
  const Shape real = ShapeOf(kRealExcerpt);
  // The excerpt's comments and pull requests are bigger than the generator's (9 kB and 20 kB
  // against 5 kB and 17 kB), so its bytes per event are within 20%, not 10%.
  ExpectShapeNear(Average({gen}), Average({real}), 0.20);
  EXPECT_TRUE(gen.any_display_login);
  EXPECT_TRUE(real.any_display_login);
}

TEST(ProfileTest, WithoutProfileTheFixedCastIsKept) {
  // No profile: every repository and actor comes from the World, as before profiles existed.
  const auto dir = FreshTestDir("profile_", "none");
  GenOptions o = ProfileOptions(dir, "", 1, 3000);
  o.bad_lines_per_file = 0;
  GenerateOk(o);
  const Shape s = ShapeOf(dir / "2024-01-01-0.json.gz");
  EXPECT_LT(*s.repos.rbegin(), kCastRepoIdBase);
  EXPECT_LT(*s.actors.rbegin(), kCastActorIdBase);
  EXPECT_TRUE(s.any_display_login);
}

}  // namespace
}  // namespace ghsift::gen
