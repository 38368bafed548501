// `ingest --replace`: an hour ingested with bad lines is replaced by a good copy, and the store
// then answers exactly as a store that ingested only the good copy (issue 25).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "command_support.hpp"
namespace ghsift {
namespace {

namespace fs = std::filesystem;

using testing::CommandResult;
using testing::Ghsift;
using testing::RunCommandStdout;

//! A good hour (the bundled sample's first, 2,000 events) and a bad copy of it under the same
//! name: lines 5 and 25 (an IssuesEvent) cut short, and the file cut in line 1900.
class ReplaceHourTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::path(::testing::TempDir()) / "ghsift-replace-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    fs::create_directories(dir_ / "good");
    fs::create_directories(dir_ / "bad");
    const fs::path sample = fs::path(GHSIFT_SOURCE_DIR) / "tests/data/sample/2024-03-05-14.json.gz";
    ASSERT_EQ(RunCommandStdout("gzip -dc '" + sample.string() + "' > '" + good().string() + "'").exit_code, 0);
    std::ifstream in(good());
    std::ofstream out(bad());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      if (number == 25) {
        ASSERT_NE(line.find("\"IssuesEvent\""), std::string::npos);
      }
      if (number == 5 || number == 25) {
        out << line.substr(0, 40) << "\n";
      } else if (number == 1900) {
        out << line.substr(0, 30);
        break;
      } else {
        out << line << "\n";
      }
    }
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  fs::path good() const { return dir_ / "good/2024-03-05-14.json"; }
  fs::path bad() const { return dir_ / "bad/2024-03-05-14.json"; }
  std::string Store(const std::string& name) const { return "'" + (dir_ / name).string() + "'"; }

  //! What a store answers: its statistics (but its size on disk), counts by repository and month,
  //! by event type, and every report.
  std::string Answers(const std::string& store) {
    std::string out;
    std::istringstream stats(RunCommandStdout(Ghsift() + " stats --format json --store " + store).output);
    for (std::string line; std::getline(stats, line);) {
      if (line.find("\"store_bytes\"") == std::string::npos) out += line + "\n";
    }
    out += RunCommandStdout(Ghsift() + " query --format csv --by repo,month --metric issues,events,closed,comments --store " +
                 store).output;
    out += RunCommandStdout(Ghsift() + " query --format csv --by type --metric events --store " + store).output;
    out += RunCommandStdout(Ghsift() + " issues --format csv --kind all --limit 0 --store " + store).output;
    return out;
  }

  //! The bundled sample's second hour, quoted: ingested beside the hour replaced.
  static std::string NextHour() {
    return "'" + (fs::path(GHSIFT_SOURCE_DIR) / "tests/data/sample/2024-03-05-15.json.gz").string() + "'";
  }

  //! Store "s" holds the bad copy and NextHour(): after `--replace` with the good copy it answers
  //! exactly as a store that ingested the good copy and NextHour().
  void ExpectGoodCopyReplacesTheBadBesideNextHour() {
    CommandResult r =
        RunCommandStdout(Ghsift() + " ingest -q --replace --store " + Store("s") + " '" + good().string() + "' 2>&1");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    r = RunCommandStdout(Ghsift() + " ingest -q --store " + Store("only-good") + " '" + good().string() + "' " +
                         NextHour() + " 2>&1");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::string replaced = Answers(Store("s"));
    EXPECT_NE(replaced.find("\"bad_lines\": 0,"), std::string::npos) << replaced;
    EXPECT_NE(replaced.find("\"files\": 2,"), std::string::npos) << replaced;
    EXPECT_EQ(replaced, Answers(Store("only-good")));
  }

  fs::path dir_;
};

TEST_F(ReplaceHourTest, AGoodCopyReplacesTheBadOneAsIfOnlyItHadBeenIngested) {
  CommandResult r = RunCommandStdout(Ghsift() + " ingest -q --store " + Store("s") + " '" + bad().string() + "' 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string before = RunCommandStdout(Ghsift() + " stats --format json --store " + Store("s")).output;
  EXPECT_NE(before.find("\"events\": 1897,"), std::string::npos) << before;
  EXPECT_NE(before.find("\"bad_lines\": 3,"), std::string::npos) << before;

  r = RunCommandStdout(Ghsift() + " ingest -q --replace --store " + Store("s") + " '" + good().string() + "' 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = RunCommandStdout(Ghsift() + " ingest -q --store " + Store("only-good") + " '" + good().string() + "' 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string replaced = Answers(Store("s"));
  EXPECT_NE(replaced.find("\"events\": 2000,"), std::string::npos) << replaced;
  EXPECT_NE(replaced.find("\"bad_lines\": 0,"), std::string::npos) << replaced;
  EXPECT_NE(replaced.find("\"files\": 1,"), std::string::npos) << replaced;
  EXPECT_EQ(replaced, Answers(Store("only-good")));

  // The good copy is now the one on record: giving it again is a skip, as any re-run's.
  r = RunCommandStdout(Ghsift() + " ingest --replace --store " + Store("s") + " '" + good().string() + "' 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::string skipped_once = replaced;
  const std::string skips = "\"skipped_files\": 0,";
  ASSERT_NE(skipped_once.find(skips), std::string::npos);
  skipped_once.replace(skipped_once.find(skips), skips.size(), "\"skipped_files\": 1,");
  EXPECT_EQ(Answers(Store("s")), skipped_once);
}

TEST_F(ReplaceHourTest, AHourIngestedInOneRunWithOthersIsReplacedAlone) {
  // Ingested in one commit group with the next hour (which the replacement leaves as it is).
  const std::string next = NextHour();
  CommandResult r = RunCommandStdout(Ghsift() + " ingest -q --store " + Store("s") + " '" + bad().string() + "' " + next + " 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ExpectGoodCopyReplacesTheBadBesideNextHour();
}

// A cluster's hour: ingested with bad lines into a partial, merged into the store (beside another
// partial's hour), then replaced there; the merge carries what the bad copy added.
TEST_F(ReplaceHourTest, AHourMergedFromAPartialIsReplacedAsIfIngestedThere) {
  const std::string next = NextHour();
  CommandResult r = RunCommandStdout(Ghsift() + " ingest -q --partial " + Store("p1") + " '" + bad().string() + "' 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = RunCommandStdout(Ghsift() + " ingest -q --partial " + Store("p2") + " " + next + " 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = RunCommandStdout(Ghsift() + " merge --store " + Store("s") + " " + Store("p2") + " " + Store("p1") + " 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ExpectGoodCopyReplacesTheBadBesideNextHour();
}

TEST_F(ReplaceHourTest, OnlyAFileTheStoreHoldsWithBadLinesIsReplaced) {
  ASSERT_EQ(RunCommandStdout(Ghsift() + " ingest -q --store " + Store("s") + " '" + good().string() + "' 2>&1").exit_code, 0);
  const std::string before = Answers(Store("s"));
  // The store holds this hour without bad lines: nothing to replace.
  CommandResult r = RunCommandStdout(Ghsift() + " ingest -q --replace --store " + Store("s") + " '" + bad().string() + "' 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("was ingested without bad lines"), std::string::npos) << r.output;
  // An hour the store does not hold.
  fs::create_directories(dir_ / "other");
  fs::copy_file(good(), dir_ / "other/2024-03-05-15.json");
  r = RunCommandStdout(Ghsift() + " ingest -q --replace --store " + Store("s") + " '" + (dir_ / "other/2024-03-05-15.json").string() +
            "' 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("not in the store: nothing to replace"), std::string::npos) << r.output;
  EXPECT_EQ(Answers(Store("s")), before);
  // Not with a range or --follow.
  r = RunCommandStdout(Ghsift() + " ingest --replace --follow --store " + Store("s") + " 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--replace takes the good copies as files"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace ghsift
