// A store written before records carried tagged fields (tests/data/store_format2, written by
// tests/store/make_format2_fixture.sh from made-up data) opens, answers as the ghsift that wrote
// it did, and is upgraded by its next ingest, after which it still answers the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "store/store.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::ReadText;

const std::string kFixture = std::string(GHSIFT_SOURCE_DIR) + "/tests/data/store_format2";

struct Question {
  std::string name, args;
};

std::vector<Question> Questions() {
  std::vector<Question> out;
  std::istringstream lines(ReadText(kFixture + "/questions.txt"));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    out.push_back({line.substr(0, tab), line.substr(tab + 1)});
  }
  return out;
}

//! The rows of a CSV answer (its header first), with `added` among them in order.
std::string WithRow(const std::string& csv, const std::string& added) {
  std::istringstream in(csv);
  std::string header, line;
  std::getline(in, header);
  std::vector<std::string> rows = {added};
  while (std::getline(in, line)) rows.push_back(line);
  std::sort(rows.begin(), rows.end());
  std::string out = header + "\n";
  for (const std::string& r : rows) out += r + "\n";
  return out;
}

//! Asks every question of the fixture of `store` and compares with the answers of the old ghsift
//! (with `added_event_row` among the events by type and day, when given).
void ExpectTheOldAnswers(const std::string& store, const std::string& added_event_row = "") {
  const std::vector<Question> questions = Questions();
  ASSERT_EQ(questions.size(), 8u);
  for (const Question& q : questions) {
    std::string args = q.args;
    args.replace(args.find("STORE"), 5, store);
    // stdout only: notes on stderr are no part of the answer.
    const auto r = testing::RunCommand(testing::Ghsift() + " " + args + " 2>/dev/null");
    EXPECT_EQ(r.exit_code, 0) << q.name;
    std::string expected = ReadText(kFixture + "/" + q.name + ".expected");
    if (q.name == "events_by_type" && !added_event_row.empty()) expected = WithRow(expected, added_event_row);
    EXPECT_EQ(r.output, expected) << q.name;
  }
}

std::optional<std::string> RecordFormats(const std::string& path) {
  auto store = Store::Open(path, StoreMode::kRead);
  EXPECT_TRUE(store.ok()) << store.status().message();
  if (!store.ok()) return std::nullopt;
  auto formats = (*store)->GetMeta(Store::kRecordFormatsMetaKey);
  EXPECT_TRUE(formats.ok());
  return formats.ok() ? *formats : std::nullopt;
}

TEST(StoreFormatTest, AStoreOfTheFormerFormatAnswersAsBeforeAndIsUpgradedByItsNextIngest) {
  testing::TempDir dir;
  const auto untar = testing::RunCommand("tar -C '" + dir.path() + "' -xzf '" + kFixture + "/store.tar.gz'");
  ASSERT_EQ(untar.exit_code, 0) << untar.output;
  const std::string store = dir / "store";

  ExpectTheOldAnswers(store);
  EXPECT_EQ(RecordFormats(store), std::nullopt) << "a reader changes nothing";

  // An ingest of an hour that adds no report (one WatchEvent) upgrades every record.
  std::ofstream(dir / "2024-01-03-0.json")
      << R"({"id":"1","type":"WatchEvent","actor":{"id":1,"login":"someone"},"repo":{"id":99,"name":"made/up"},)"
      << R"("payload":{"action":"started"},"public":true,"created_at":"2024-01-03T00:00:00Z"})" << "\n";
  const auto ingest =
      testing::RunCommand(testing::Ghsift() + " ingest --all-repos --rules " + testing::ProbeRules() +
                          " --quiet --store '" + store + "' '" + (dir / "2024-01-03-0.json") + "'");
  ASSERT_EQ(ingest.exit_code, 0) << ingest.output;
  EXPECT_EQ(RecordFormats(store), Store::RecordFormats());
  ExpectTheOldAnswers(store, "WatchEvent,2024-01-03,1");
}

}  // namespace
}  // namespace ghsift
