// `stats --coverage`: gaps, low hours and failed files, from the store alone.
#include "query/coverage.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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
}

}  // namespace
}  // namespace ghsift
