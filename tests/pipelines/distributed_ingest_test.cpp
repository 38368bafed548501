// Folding the partial stores of workers into the store: what a killed worker leaves behind.
#include "pipelines/distributed_ingest.hpp"

#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <filesystem>
#include <fstream>

#include "pipelines/input_files.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::TempDir;

// A worker killed while RocksDB was creating its store leaves the marker, CURRENT and some of
// the column families, with nothing committed: the merge completes it as the writer (it is
// empty) instead of failing, and the store equals one ingest of the files the others did.
TEST(DistributedIngestTest, PartialKilledDuringItsCreationIsMergedAsEmpty) {
  TempDir dir;
  testing::Generate(dir / "corpus", 2, 1000, 61, "gz");
  const auto files = ResolveInputs({dir / "corpus"}).value();
  const std::string store_path = dir / "store";
  testing::IngestFiles(PartialStorePath(store_path, 1), files, testing::ProbeRules());
  testing::IngestFiles(dir / "single", files, testing::ProbeRules());
  {
    const std::string cut = PartialStorePath(store_path, 2);
    rocksdb::Options options;
    options.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(options, cut, &raw).ok());  // the default family only
    delete raw;
    std::ofstream(std::filesystem::path(cut) / "GHSIFT_STORE") << "ghsift store format 1\n";
  }
  auto store = Store::Open(store_path, StoreMode::kReadWrite);
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto merged = MergeAndRemovePartials(**store, store_path);
  ASSERT_TRUE(merged.ok()) << merged.status().message();
  EXPECT_EQ(merged->merged, 2);
  EXPECT_EQ(merged->skipped, 0);
  EXPECT_FALSE(std::filesystem::exists(store_path + ".partials"));
  store->reset();
  EXPECT_EQ(testing::StoreAnswers(store_path), testing::StoreAnswers(dir / "single"));
}

}  // namespace
}  // namespace ghsift
