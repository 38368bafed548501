// Partial stores (the map step on a cluster) merged into one store answer every query exactly
// like a single ingest of the same files, whatever the split.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
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

//! Empty hours share their bytes (an empty gzip member): each is recorded under its own name, in
//! one run, in two runs and through partials, none refused as a copy of the other. Before, the
//! second was skipped as "same content", never recorded, and a partial holding it was refused.
TEST(PartialMergeTest, EmptyHoursWithTheSameBytesAreEachRecorded) {
  TempDir dir;
  ASSERT_EQ(RunCommand("mkdir -p '" + (dir / "hours") + "'").exit_code, 0);
  const std::string empty_gzip = std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x03\x00", 12) +
                                 std::string(8, '\0');
  const std::string first = dir / "hours/2024-01-01-1.json.gz", second = dir / "hours/2024-01-01-2.json.gz";
  for (const std::string& path : {first, second}) std::ofstream(path, std::ios::binary) << empty_gzip;
  // Each file's line of `stats --files`, without the time it was ingested at.
  auto files_of = [](const std::string& store) {
    const auto r = RunCommand(Ghsift() + " stats --files --format csv --store '" + store + "' | cut -d, -f1-7,9");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return r.output;
  };
  auto run = [](const std::string& args) {
    const auto r = RunCommand(Ghsift() + " " + args);
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.output;
    EXPECT_EQ(r.output.find("same content"), std::string::npos) << r.output;
  };
  run("ingest --all-repos --store '" + (dir / "one-run") + "' '" + first + "' '" + second + "'");
  const std::string listed = files_of(dir / "one-run");
  EXPECT_NE(listed.find("2024-01-01-1.json.gz"), std::string::npos) << listed;
  EXPECT_NE(listed.find("2024-01-01-2.json.gz"), std::string::npos) << listed;

  run("ingest --all-repos --store '" + (dir / "two-runs") + "' '" + first + "'");
  run("ingest --all-repos --store '" + (dir / "two-runs") + "' '" + second + "'");
  EXPECT_EQ(files_of(dir / "two-runs"), listed);

  run("ingest --all-repos --partial '" + (dir / "p1") + "' '" + first + "'");
  run("ingest --all-repos --partial '" + (dir / "p2") + "' '" + second + "'");
  run("merge --store '" + (dir / "merged") + "' '" + (dir / "p1") + "' '" + (dir / "p2") + "'");
  EXPECT_EQ(files_of(dir / "merged"), listed);
}

}  // namespace
}  // namespace ghsift
