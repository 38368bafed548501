// `stats --coverage`: gaps, low hours and failed files, from the store alone.
#include "query/coverage.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/time_util.hpp"
#include "pipelines/ingest_pipeline.hpp"
#include "pipelines/input_files.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::TempDir;

TEST(CoverageTest, HourNames) {
  EXPECT_EQ(FormatHour(*HourOfFileName("2015-01-02-3.json.gz")), "2015-01-02-3");
  EXPECT_EQ(FormatHour(*HourOfFileName("2015-01-01-15.json")), "2015-01-01-15");
  EXPECT_EQ(*HourOfFileName("2015-01-02-0.json.gz") - *HourOfFileName("2015-01-01-23.json.gz"), 1);
  EXPECT_FALSE(HourOfFileName("truth.json").has_value());
  EXPECT_FALSE(HourOfFileName("2015-01-01-24.json").has_value());
  EXPECT_EQ(FormatHour(*ParseHour("2015-01-01")), "2015-01-01-0");
}

TEST(CoverageTest, PlantedGapsLowHoursAndFailures) {
  TempDir dir;
  testing::Generate(dir / "corpus", 5, 300, 3, "gz");
  namespace fs = std::filesystem;
  // Keep hours 0, 2 and 4; hour 3 becomes a one-event file.
  fs::remove(dir / "corpus/2024-01-01-1.json.gz");
  fs::remove(dir / "corpus/2024-01-01-3.json.gz");
  {
    std::ofstream out(dir / "corpus/2024-01-01-3.json");
    out << R"({"id":"1","type":"WatchEvent","actor":{"id":1,"login":"a"},"repo":{"id":5,"name":"o/r","url":"u"},)"
        << R"("payload":{},"public":true,"created_at":"2024-01-01T03:00:00Z"})" << "\n";
  }
  auto store = Store::Open(dir / "store", StoreMode::kReadWrite);
  ASSERT_TRUE(store.ok());
  auto rules = LoadRuleSet(std::string(GHSIFT_SOURCE_DIR) + "/tests/data/probe_rules.yaml");
  auto db = RuleDatabase::Compile(*rules);
  ASSERT_TRUE(db.ok());
  IngestPipeline pipeline(**store, *db, RepoFilter::All(), IngestOptions());
  for (const auto& o : pipeline.Run(ResolveInputs({dir / "corpus"}).value())) {
    ASSERT_EQ(o.result, FileResult::kIngested) << o.path;
  }
  ASSERT_TRUE((*store)->RecordFailure("2024-01-01-1.json.gz", "truncated gzip stream").ok());

  auto c = ComputeCoverage(**store, std::nullopt, std::nullopt);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(FormatHour(c->from_hour), "2024-01-01-0");
  EXPECT_EQ(FormatHour(c->to_hour), "2024-01-01-4");
  EXPECT_EQ(c->hours_ingested, 4u);
  EXPECT_EQ(c->median_events, 300u);
  ASSERT_EQ(c->missing_hours.size(), 1u);
  EXPECT_EQ(FormatHour(c->missing_hours[0]), "2024-01-01-1");
  ASSERT_EQ(c->low_hours.size(), 1u);
  EXPECT_EQ(FormatHour(c->low_hours[0].first), "2024-01-01-3");
  EXPECT_EQ(c->low_hours[0].second, 1u);
  ASSERT_EQ(c->failed_files.size(), 1u);
  EXPECT_EQ(c->failed_files[0].first, "2024-01-01-1.json.gz");

  // A wider range reports the hours around the data as missing too.
  c = ComputeCoverage(**store, ParseHour("2023-12-31-22"), ParseHour("2024-01-01-5"));
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->missing_hours.size(), 4u);

  // Failures come in time order, and only those of the range asked for.
  for (const char* name : {"2024-01-01-10.json.gz", "2024-01-01-9.json.gz", "2024-01-01-11.json.gz"}) {
    ASSERT_TRUE((*store)->RecordFailure(name, std::string(kMissingAtSource) + ": http://x/" + name).ok());
  }
  auto later = ComputeCoverage(**store, ParseHour("2024-01-01-5"), ParseHour("2024-01-01-10"));
  ASSERT_TRUE(later.ok());
  std::vector<std::string> absent;
  for (const auto& [name, reason] : later->missing_at_source) absent.push_back(name);
  EXPECT_EQ(absent, (std::vector<std::string>{"2024-01-01-9.json.gz", "2024-01-01-10.json.gz"}));
  EXPECT_TRUE(later->failed_files.empty());  // hour 1 is out of the range
}

}  // namespace
}  // namespace ghsift

namespace ghsift {
namespace {

int64_t Utc(int year, unsigned month, unsigned day, int hour) { return DaysFromCivil(year, month, day) * 24 + hour; }

TEST(UtcHoursOfFileNameTest, UtcNamedErasMapToThemselves) {
  EXPECT_EQ(UtcHoursOfFileName("2011-02-15-0.json.gz"), std::vector<int64_t>{Utc(2011, 2, 15, 0)});
  EXPECT_EQ(UtcHoursOfFileName("2012-03-10-23.json.gz"), std::vector<int64_t>{Utc(2012, 3, 10, 23)});
  EXPECT_EQ(UtcHoursOfFileName("2015-01-01-15.json.gz"), std::vector<int64_t>{Utc(2015, 1, 1, 15)});
  EXPECT_TRUE(UtcHoursOfFileName("notes.txt").empty());
}

TEST(UtcHoursOfFileNameTest, TimelineNamesArePacificHours) {
  // The real hours: 2012-04-11-15 holds 15:01..16:01 -0700 (daylight), 2014-02-15-0 holds
  // 00:03..01:03 -0800 (standard).
  EXPECT_EQ(UtcHoursOfFileName("2012-04-11-15.json.gz"), std::vector<int64_t>{Utc(2012, 4, 11, 22)});
  EXPECT_EQ(UtcHoursOfFileName("2014-02-15-0.json.gz"), std::vector<int64_t>{Utc(2014, 2, 15, 8)});
  EXPECT_EQ(UtcHoursOfFileName("2014-12-31-23.json.gz"), std::vector<int64_t>{Utc(2015, 1, 1, 7)});
}

//! The UTC hours of a local day's file names, in name order.
std::vector<int64_t> HoursOfDay(const std::string& day, const std::vector<int>& local_hours) {
  std::vector<int64_t> out;
  for (int h : local_hours) {
    for (int64_t utc : UtcHoursOfFileName(day + "-" + std::to_string(h) + ".json.gz")) out.push_back(utc);
  }
  return out;
}

TEST(UtcHoursOfFileNameTest, SpringChangeDayHasNoGap) {
  // 2013-03-10: 02:00 PST became 03:00 PDT, so no file is named 2013-03-10-2.
  std::vector<int> names = {0, 1};
  for (int h = 3; h < 24; ++h) names.push_back(h);
  std::vector<int64_t> want;
  for (int64_t h = Utc(2013, 3, 10, 8); h < Utc(2013, 3, 10, 8) + 23; ++h) want.push_back(h);
  EXPECT_EQ(HoursOfDay("2013-03-10", names), want);
}

TEST(UtcHoursOfFileNameTest, AutumnChangeDayCoversItsTwentyFiveHoursOnce) {
  // 2013-11-03: 01:00 happened twice (PDT, then PST); its one file stands for both UTC hours.
  std::vector<int> names;
  for (int h = 0; h < 24; ++h) names.push_back(h);
  std::vector<int64_t> want;
  for (int64_t h = Utc(2013, 11, 3, 7); h < Utc(2013, 11, 3, 7) + 25; ++h) want.push_back(h);
  EXPECT_EQ(HoursOfDay("2013-11-03", names), want);
}

TEST(FileHourOfUtcHourTest, InvertsTheArchiveNaming) {
  // Outside the Timeline era a file is named by its UTC hour.
  EXPECT_EQ(FileHourOfUtcHour(Utc(2011, 2, 15, 0)), Utc(2011, 2, 15, 0));
  EXPECT_EQ(FileHourOfUtcHour(Utc(2015, 1, 1, 8)), Utc(2015, 1, 1, 8));
  // Inside it by the Pacific hour: the real 2012-04-11-15 (PDT) and 2014-02-15-0 (PST).
  EXPECT_EQ(FileHourOfUtcHour(Utc(2012, 4, 11, 22)), Utc(2012, 4, 11, 15));
  EXPECT_EQ(FileHourOfUtcHour(Utc(2014, 2, 15, 8)), Utc(2014, 2, 15, 0));
  // 2014-12-31 23:00 UTC is in the file named 2014-12-31-15; from 2015-01-01 00:00 UTC the
  // Pacific-named files of 2014-12-31 16..23 and the UTC-named ones of 2015 overlap: the UTC
  // name is asked for.
  EXPECT_EQ(FileHourOfUtcHour(Utc(2014, 12, 31, 23)), Utc(2014, 12, 31, 15));
  EXPECT_EQ(FileHourOfUtcHour(Utc(2015, 1, 1, 7)), Utc(2015, 1, 1, 7));
  // The UTC hours between the last UTC-named file (2012-03-10-23) and the first Pacific one.
  EXPECT_FALSE(FileHourOfUtcHour(Utc(2012, 3, 11, 3)).has_value());
  // Every UTC hour of 2013, round trip: the file named by the answer covers that hour.
  for (int64_t h = Utc(2013, 1, 1, 0); h < Utc(2014, 1, 1, 0); ++h) {
    const std::optional<int64_t> named = FileHourOfUtcHour(h);
    ASSERT_TRUE(named.has_value()) << FormatHour(h);
    const std::vector<int64_t> covered = UtcHoursOfFileName(FormatHour(*named) + ".json.gz");
    EXPECT_NE(std::find(covered.begin(), covered.end(), h), covered.end()) << FormatHour(h);
  }
}

}  // namespace
}  // namespace ghsift
