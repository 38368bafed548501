// Every year of the archive: the 2011-2014 Timeline layout, mixed files, and the archive's
// known quirks, ingested and compared with the generator's truth.
#include <gtest/gtest.h>

#include "pipelines/input_files.hpp"
#include "query/coverage.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::Nested;
using testing::TempDir;

struct Corpus {
  TempDir dir;
  simdjson::padded_string truth_text;
  simdjson::dom::parser parser;
  simdjson::dom::element truth;
};

std::unique_ptr<Corpus> MakeCorpus(const gen::GenOptions& base) {
  auto c = std::make_unique<Corpus>();
  gen::GenOptions o = base;
  o.out_dir = c->dir / "corpus";
  const Status s = gen::Generate(o, nullptr);
  EXPECT_TRUE(s.ok()) << s.message();
  c->truth_text = simdjson::padded_string::load(c->dir / "corpus/truth.json").value();
  c->truth = c->parser.parse(c->truth_text).value();
  return c;
}

gen::GenOptions Options(const std::string& schema, uint64_t seed) {
  gen::GenOptions o;
  o.hours = 3;
  o.events_per_hour = 1500;
  o.seed = seed;
  o.level = 1;
  o.schema = schema;
  o.bad_lines_per_file = 2;
  return o;
}

//! Ingests the corpus and checks every count the truth file gives.
void IngestAndCompare(Corpus& c) {
  const auto files = ResolveInputs({c.dir / "corpus"}).value();
  for (const auto& o : testing::IngestFiles(c.dir / "store", files, testing::ProbeRules())) {
    ASSERT_EQ(o.result, FileResult::kIngested) << o.path << ": " << o.message;
  }
  auto store = Store::Open(c.dir / "store", StoreMode::kRead);
  ASSERT_TRUE(store.ok());
  const auto stats = (*store)->Stats().value();
  EXPECT_EQ(stats.at("events"), c.truth["events"].get_int64().value());
  EXPECT_EQ(stats.at("bad_lines"), c.truth["bad_lines"].get_int64().value());
  EXPECT_EQ(stats.count("joined_records") ? stats.at("joined_records") : 0,
            c.truth["joined_records"].get_int64().value());
  EXPECT_EQ(stats.count("duplicate_events") ? stats.at("duplicate_events") : 0,
            c.truth["duplicate_events"].get_int64().value());

  QueryOptions q;
  q.metric = Metric::kEvents;
  q.dimensions = {"type"};
  auto table = RunQuery(**store, q);
  ASSERT_TRUE(table.ok());
  std::map<std::string, int64_t> by_type, expected;
  for (size_t i = 0; i < table->rows.size(); ++i) by_type[table->rows[i][0]] = table->counts[i];
  for (auto [type, n] : c.truth["events_by_type"].get_object()) expected[std::string(type)] = n.get_int64();
  EXPECT_EQ(by_type, expected);

  QueryOptions issues;
  issues.dimensions = {"repo", "month"};
  EXPECT_EQ(testing::QueryNested(c.dir / "store", issues), testing::ReadNested(c.truth["issues_by_repo_month"]));
  issues.kind = "pr";
  EXPECT_EQ(testing::QueryNested(c.dir / "store", issues), testing::ReadNested(c.truth["prs_by_repo_month"]));
  for (const std::string kind : {"issue", "pr"}) {
    QueryOptions flagged;
    flagged.dimensions = {"category", "repo"};
    flagged.kind = kind;
    Nested got = testing::QueryNested(c.dir / "store", flagged);
    EXPECT_EQ(got.count("probe_code_as_prose"), 0u);
    for (const std::string category : {"probe_title", "probe_body", "probe_code", "probe_comment", "probe_label"}) {
      std::map<std::string, int64_t> want;
      for (auto [repo, n] : c.truth["probe"][category][kind].get_object()) want[std::string(repo)] = n.get_int64();
      EXPECT_EQ(got[category], want) << category << " " << kind;
    }
  }
}

TEST(ArchiveYearsTest, LegacyTimelineSchema) {
  auto c = MakeCorpus(Options("legacy", 31));
  EXPECT_GT(c->truth["schema_counts"]["legacy"].get_int64().value(), 0);
  EXPECT_EQ(c->truth["schema_counts"]["modern"].get_int64().value(), 0);
  IngestAndCompare(*c);
}

TEST(ArchiveYearsTest, MixedSchemasInOneFile) {
  auto c = MakeCorpus(Options("mixed", 32));
  EXPECT_GT(c->truth["schema_counts"]["legacy"].get_int64().value(), 0);
  EXPECT_GT(c->truth["schema_counts"]["modern"].get_int64().value(), 0);
  IngestAndCompare(*c);
}

TEST(ArchiveYearsTest, KnownQuirks) {
  gen::GenOptions o = Options("modern", 33);
  o.hours = 5;
  o.quirk_joined = 4;
  o.quirk_nul = 3;
  o.quirk_duplicates = 6;
  o.quirk_missing_hours = {1};
  o.quirk_single_event_hours = {3};
  auto c = MakeCorpus(o);
  EXPECT_GT(c->truth["joined_records"].get_int64().value(), 0);
  EXPECT_GT(c->truth["duplicate_events"].get_int64().value(), 0);
  EXPECT_GT(c->truth["nul_lines"].get_int64().value(), 0);
  IngestAndCompare(*c);
  // Coverage names the planted gap and the one-event hour exactly.
  auto store = Store::Open(c->dir / "store", StoreMode::kRead);
  auto coverage = ComputeCoverage(**store, std::nullopt, std::nullopt);
  ASSERT_TRUE(coverage.ok());
  std::vector<std::string> missing, low, want_missing, want_low;
  for (int64_t h : coverage->missing_hours) missing.push_back(FormatHour(h));
  for (const auto& [h, n] : coverage->low_hours) low.push_back(FormatHour(h));
  for (auto h : c->truth["missing_hours"].get_array()) want_missing.emplace_back(h.get_string().value());
  for (auto h : c->truth["single_event_hours"].get_array()) want_low.emplace_back(h.get_string().value());
  EXPECT_EQ(missing, want_missing);
  EXPECT_EQ(low, want_low);
}

}  // namespace
}  // namespace ghsift
