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
