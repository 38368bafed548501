// `ghsift gen --schema timeline|timeline-2012`: Timeline-era hours named by the US-Pacific hour,
// and the original 2012 files (records glued on one line, slash dates). Top-level key sets are
// checked against the real files in ../shared (skipped when absent); ingest equals truth.json.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gen/civil_time.hpp"
#include "gen_test_support.hpp"
#include "truth_check.hpp"

namespace ghsift::gen {
namespace {

using testing::Decompressed;
using testing::ExpectIngestEqualsTruth;
using testing::FreshTestDir;
using testing::GenerateOk;

const std::filesystem::path kRealHours = std::filesystem::path(GHSIFT_SOURCE_DIR) / "../shared/data/gharchive-real/hours";

//! The top-level JSON objects of `text`, whether one a line or glued `}{` (strings respected).
std::vector<std::string_view> Records(const std::string& text) {
  std::vector<std::string_view> out;
  int depth = 0;
  bool in_string = false, escaped = false;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
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
    if (c == '"') {
      in_string = true;
    } else if (c == '{') {
      if (depth++ == 0) start = i;
    } else if (c == '}' && depth > 0 && --depth == 0) {
      out.emplace_back(text.data() + start, i + 1 - start);
    }
  }
  return out;
}

using KeySets = std::map<std::string, std::set<std::vector<std::string>>>;  // type -> sorted key lists

KeySets KeySetsOf(const std::filesystem::path& file) {
  KeySets sets;
  const std::string text = Decompressed(file);
  simdjson::dom::parser parser;
  for (const std::string_view record : Records(text)) {
    simdjson::dom::object obj;
    if (parser.parse(record.data(), record.size()).get(obj) != simdjson::SUCCESS) continue;
    std::vector<std::string> keys;
    std::string type;
    for (auto field : obj) {
      keys.emplace_back(field.key);
      if (field.key == "type") type = std::string(field.value.get_string().value());
    }
    std::sort(keys.begin(), keys.end());
    sets[type].insert(keys);
  }
  return sets;
}

// Every generated record's key set is one a real record of the same type has. PublicEvent is
// left out: the real ones carry no payload, the generator's an empty one.
void ExpectKeySetsSeenInRealFiles(const KeySets& gen, const KeySets& real) {
  size_t types_checked = 0;
  for (const auto& [type, sets] : gen) {
    if (type == "PublicEvent") continue;
    const auto it = real.find(type);
    ASSERT_NE(it, real.end()) << type << " never occurs in the real files";
    for (const auto& keys : sets) {
      std::string joined;
      for (const auto& k : keys) joined += k + ",";
      EXPECT_TRUE(it->second.count(keys)) << type << ": " << joined;
    }
    ++types_checked;
  }
  EXPECT_GE(types_checked, 8u);
}

GenOptions VariantOptions(const std::filesystem::path& dir, const std::string& schema, int hours, int events) {
  GenOptions o;
  o.out_dir = dir.string();
  o.schema = schema;
  o.hours = hours;
  o.events_per_hour = events;
  o.seed = 11;
  o.level = 1;
  return o;
}

TEST(CivilTimeTest, PacificOffsetFollowsDaylightTime) {
  // 2013: daylight time from 2013-03-10 10:00 UTC to 2013-11-03 09:00 UTC.
  const int64_t march10 = DaysFromCivil(2013, 3, 10) * 86400;
  EXPECT_EQ(PacificOffsetMinutes(march10 + 10 * 3600 - 1), -480);
  EXPECT_EQ(PacificOffsetMinutes(march10 + 10 * 3600), -420);
  const int64_t nov3 = DaysFromCivil(2013, 11, 3) * 86400;
  EXPECT_EQ(PacificOffsetMinutes(nov3 + 9 * 3600 - 1), -420);
  EXPECT_EQ(PacificOffsetMinutes(nov3 + 9 * 3600), -480);
  std::string s;
  AppendSlashTimestamp(s, DaysFromCivil(2012, 4, 11) * 86400 + 22 * 3600 + 93, -420);
  EXPECT_EQ(s, "2012/04/11 15:01:33 -0700");
}

TEST(TimelineSchemaTest, FilesAreNamedByThePacificHour) {
  const auto dir = FreshTestDir("variant_", "names");
  GenOptions o = VariantOptions(dir, "timeline", 2, 50);
  o.start_hour = "2013-01-15T08";  // PST: 00:00 and 01:00 local
  GenerateOk(o);
  EXPECT_EQ(testing::SortedFileNames(dir),
            (std::vector<std::string>{"2013-01-15-0.json.gz", "2013-01-15-1.json.gz", "truth.json"}));
  const std::string text = Decompressed(dir / "2013-01-15-1.json.gz");
  simdjson::dom::parser parser;
  for (const std::string_view line : testing::Lines(text)) {
    const std::string_view created = parser.parse(line.data(), line.size())["created_at"].get_string().value();
    EXPECT_EQ(created.substr(0, 14), "2013-01-15T01:") << created;
    EXPECT_EQ(created.substr(19), "-08:00") << created;
  }
}

TEST(TimelineSchemaTest, DefaultHoursAreJune2013InDaylightTime) {
  const auto dir = FreshTestDir("variant_", "default");
  GenerateOk(VariantOptions(dir, "timeline", 1, 20));
  // 2013-06-01T00 UTC is 2013-05-31 17:00 PDT.
  EXPECT_TRUE(std::filesystem::exists(dir / "2013-05-31-17.json.gz"));
}

TEST(TimelineSchemaTest, KeySetsMatchTheRealTimelineHours) {
  KeySets real;
  for (const char* name : {"2012-06-14-15.json.gz", "2013-02-15-0.json.gz", "2014-02-15-0.json.gz"}) {
    if (!std::filesystem::exists(kRealHours / name)) GTEST_SKIP() << kRealHours / name << " absent";
    for (auto& [type, sets] : KeySetsOf(kRealHours / name)) real[type].insert(sets.begin(), sets.end());
  }
  const auto dir = FreshTestDir("variant_", "keys");
  GenerateOk(VariantOptions(dir, "timeline", 1, 1500));
  ExpectKeySetsSeenInRealFiles(KeySetsOf(dir / "2013-05-31-17.json.gz"), real);
}

TEST(TimelineSchemaTest, IngestEqualsTruth) {
  const auto dir = FreshTestDir("variant_", "truth");
  GenOptions o = VariantOptions(dir, "timeline", 3, 800);
  o.bad_lines_per_file = 2;
  GenerateOk(o);
  const auto store = FreshTestDir("variant_", "truth_store");
  EXPECT_EQ(ExpectIngestEqualsTruth(dir.string(), store.string()), 6u);
}

TEST(Glued2012SchemaTest, OneLineOfGluedRecordsWithSlashDates) {
  const auto dir = FreshTestDir("variant_", "glued");
  GenerateOk(VariantOptions(dir, "timeline-2012", 1, 300));
  const std::string text = Decompressed(dir / "2012-04-11-15.json.gz");
  EXPECT_EQ(text.find('\n'), std::string::npos);
  EXPECT_EQ(text.back(), '}');
  const auto records = Records(text);
  ASSERT_EQ(records.size(), 300u);
  simdjson::dom::parser parser;
  for (const std::string_view r : records) {
    const std::string_view created = parser.parse(r.data(), r.size())["created_at"].get_string().value();
    ASSERT_EQ(created.size(), 25u) << created;
    EXPECT_EQ(created.substr(0, 14), "2012/04/11 15:") << created;
    EXPECT_EQ(created.substr(19), " -0700") << created;
    // As in the real file, the repository has an owner and a name but no id.
    EXPECT_EQ(r.find("\"repository\":{\"id\""), std::string_view::npos) << r;
  }
}

TEST(Glued2012SchemaTest, KeySetsMatchTheReal2012File) {
  const auto real_path = kRealHours / "2012-04-11-15.json.gz";
  if (!std::filesystem::exists(real_path)) GTEST_SKIP() << real_path << " absent";
  const auto dir = FreshTestDir("variant_", "glued_keys");
  GenerateOk(VariantOptions(dir, "timeline-2012", 1, 1500));
  const KeySets real = KeySetsOf(real_path);
  ExpectKeySetsSeenInRealFiles(KeySetsOf(dir / "2012-04-11-15.json.gz"), real);
  // The real file is one line of glued records with slash dates, as generated (its key order
  // varies from record to record; the generator keeps one order).
  const std::string real_text = Decompressed(real_path);
  EXPECT_EQ(real_text.find('\n'), std::string::npos);
  EXPECT_NE(real_text.find("\"created_at\":\"2012/04/11 15:"), std::string::npos);
  EXPECT_NE(real_text.find("}{"), std::string::npos);
}

TEST(Glued2012SchemaTest, IngestEqualsTruth) {
  const auto dir = FreshTestDir("variant_", "glued_truth");
  GenerateOk(VariantOptions(dir, "timeline-2012", 2, 600));
  const auto store = FreshTestDir("variant_", "glued_store");
  EXPECT_EQ(ExpectIngestEqualsTruth(dir.string(), store.string()), 0u);
}

TEST(Glued2012SchemaTest, RejectsBadLinesAndQuirks) {
  const auto dir = FreshTestDir("variant_", "glued_reject");
  GenOptions o = VariantOptions(dir, "timeline-2012", 1, 10);
  o.bad_lines_per_file = 1;
  const Status s = Generate(o, nullptr);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("timeline-2012"), std::string::npos) << s.message();
  o.bad_lines_per_file = 0;
  o.schema = "timeline-2099";
  const Status bad = Generate(o, nullptr);
  EXPECT_NE(bad.message().find("modern, legacy, mixed, timeline, timeline-2012, events-2011 or slim-2025"), std::string::npos) << bad.message();
}

}  // namespace
}  // namespace ghsift::gen
