// Partial stores (the map step on a cluster) merged into one store answer every query exactly
// like a single ingest of the same files, whatever the split.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "pipelines/input_files.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;


TEST(PartialMergeTest, MergedPartialsEqualOneIngest) {
  TempDir dir;
  testing::Generate(dir / "corpus", 6, 1500, 21, "gz", 2);
  auto files = ResolveInputs({dir / "corpus"}).value();
  auto ingest = [&](const std::string& flag, const std::string& where, const std::vector<std::string>& some) {
    std::string cmd = Ghsift() + " ingest -q --all-repos --keep-text " + flag + " " + where;
    for (const auto& f : some) cmd += " " + f;
    const auto r = RunCommand(cmd);
    ASSERT_EQ(r.exit_code, 0) << r.output;
  };
  ingest("--store", dir / "single", files);
  std::shuffle(files.begin(), files.end(), std::mt19937(3));
  ingest("--partial", dir / "p1", {files[0], files[1], files[2]});
  ingest("--partial", dir / "p2", {files[3]});
  ingest("--partial", dir / "p3", {files[4], files[5]});
  auto r = RunCommand(Ghsift() + " merge --store " + (dir / "merged") + " " + (dir / "p2") + " " + (dir / "p3") + " " +
                      (dir / "p1"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("merged 3 partial stores"), std::string::npos) << r.output;
  EXPECT_EQ(testing::StoreAnswers(dir / "merged"), testing::StoreAnswers(dir / "single"));

  // Merging a partial again changes nothing.
  r = RunCommand(Ghsift() + " merge --store " + (dir / "merged") + " " + (dir / "p1"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("(1 skipped, 0 failed)"), std::string::npos) << r.output;
  EXPECT_EQ(testing::StoreAnswers(dir / "merged"), testing::StoreAnswers(dir / "single"));

  // A partial sharing only some files with the store is refused whole.
  ingest("--partial", dir / "overlap", {files[0], files[3]});
  ingest("--store", dir / "half", {files[0]});
  r = RunCommand(Ghsift() + " merge --store " + (dir / "half") + " " + (dir / "overlap"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("1 of its 2 files are in the store already"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace ghsift
