#pragma once
// Ingests a generated corpus with the real pipeline and checks the store against the
// generator's truth.json: events, bad lines, events by type, distinct issues and pull
// requests by repository and month, issue states.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cstdint>
#include <map>
#include <string>

#include "pipelines/input_files.hpp"
#include "test_support.hpp"

namespace ghsift::gen::testing {

//! Ingests every hour file of `corpus` into `store_dir` and compares the store with
//! `corpus`/truth.json. Returns the bad lines the pipeline reported.
inline uint64_t ExpectIngestEqualsTruth(const std::string& corpus, const std::string& store_dir) {
  auto files = ResolveInputs({corpus});
  EXPECT_TRUE(files.ok());
  if (!files.ok()) return 0;
  const auto outcomes = ghsift::testing::IngestFiles(store_dir, *files, ghsift::testing::ProbeRules());
  uint64_t bad = 0;
  for (const auto& o : outcomes) {
    EXPECT_EQ(o.result, FileResult::kIngested) << o.path << ": " << o.message;
    bad += o.entry.bad_lines;
  }
  auto text = simdjson::padded_string::load(corpus + "/truth.json");
  EXPECT_EQ(text.error(), simdjson::SUCCESS);
  simdjson::dom::parser parser;
  const simdjson::dom::element truth = parser.parse(text.value()).value();
  EXPECT_EQ(bad, truth["bad_lines"].get_uint64().value());

  auto store = Store::Open(store_dir, StoreMode::kRead);
  EXPECT_TRUE(store.ok());
  if (!store.ok()) return bad;
  const auto stats = (*store)->Stats().value();
  EXPECT_EQ(stats.at("events"), truth["events"].get_uint64().value());
  EXPECT_EQ(stats.at("bad_lines"), truth["bad_lines"].get_uint64().value());

  QueryOptions by_type;
  by_type.metric = Metric::kEvents;
  by_type.dimensions = {"type"};
  auto table = RunQuery(**store, by_type);
  EXPECT_TRUE(table.ok());
  std::map<std::string, int64_t> got, expected;
  if (table.ok()) {
    for (size_t i = 0; i < table->rows.size(); ++i) got[table->rows[i][0]] = table->counts[i];
  }
  for (auto [type, n] : truth["events_by_type"].get_object()) expected[std::string(type)] = n.get_int64();
  EXPECT_EQ(got, expected);

  QueryOptions states;
  states.dimensions = {"state"};
  auto state_table = RunQuery(**store, states);
  EXPECT_TRUE(state_table.ok());
  std::map<std::string, int64_t> got_states, expected_states;
  if (state_table.ok()) {
    for (size_t i = 0; i < state_table->rows.size(); ++i) got_states[state_table->rows[i][0]] = state_table->counts[i];
  }
  for (auto [state, n] : truth["issues_by_state"].get_object()) {
    if (n.get_int64().value() != 0) expected_states[std::string(state)] = n.get_int64();  // no rows for empty cells
  }
  EXPECT_EQ(got_states, expected_states);
  (*store).reset();  // QueryNested opens the store again

  QueryOptions months;
  months.dimensions = {"repo", "month"};
  EXPECT_EQ(ghsift::testing::QueryNested(store_dir, months), ghsift::testing::ReadNested(truth["issues_by_repo_month"]));
  months.kind = "pr";
  EXPECT_EQ(ghsift::testing::QueryNested(store_dir, months), ghsift::testing::ReadNested(truth["prs_by_repo_month"]));
  return bad;
}

}  // namespace ghsift::gen::testing
