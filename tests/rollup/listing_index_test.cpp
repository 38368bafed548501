// The listing index gives every list what reading every report gives: before a refresh (stale
// reports), after one, after a rescan with other rules and after a merge; and a store refreshed
// piece by piece holds the same entries as one built at once.
#include "rollup/listing_index.hpp"

#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <map>
#include <set>

#include "common/time_util.hpp"
#include "pipelines/input_files.hpp"
#include "pipelines/rescan.hpp"
#include "query/query.hpp"
#include "rollup/rollup.hpp"
#include "query/query_test_support.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::TaggedRule;
using testing::TempDir;

std::string DefaultRules() { return std::string(GHSIFT_SOURCE_DIR) + "/rules"; }

//! Everything a listed report carries, on one line.
std::string Describe(const ListedIssue& i) {
  std::string out = i.repo + "#" + std::to_string(i.number) + " " + std::to_string(i.repo_id) + " " + i.kind + " " +
                    i.url + " " + i.title + " " + i.state + " " + i.created + " " + i.updated + " " +
                    std::to_string(i.created_at) + " " + std::to_string(i.updated_at) + " " + i.verdict + " " +
                    std::to_string(i.score) + " " + std::to_string(i.sort_key) + " |";
  for (const auto* list : {&i.categories, &i.subcategories, &i.facets, &i.labels, &i.labels_ever, &i.rules}) {
    for (const std::string& s : *list) out += " " + s;
    out += " |";
  }
  for (const auto& values : i.values) {
    for (const std::string& v : values) out += " " + v;
    out += " |";
  }
  return out;
}

std::string Describe(const IssueList& list) {
  std::string out = "matched " + std::to_string(list.matched) + ", reports " + std::to_string(list.reports_in_store) +
                    ", flagged " + std::to_string(list.flagged_in_store) + "\n";
  for (const ListedIssue& i : list.issues) out += Describe(i) + "\n";
  return out;
}

std::string Describe(const IssueListOptions& o) {
  std::string s = "kind=" + o.kind + " limit=" + std::to_string(o.limit) + " sort=" +
                  std::to_string(static_cast<int>(o.sort));
  if (o.category) s += " category=" + *o.category;
  if (o.subcategory) s += " subcategory=" + *o.subcategory;
  if (o.created_from) s += " from=" + std::to_string(*o.created_from);
  if (o.created_to) s += " to=" + std::to_string(*o.created_to);
  if (o.state) s += " state";
  if (o.keys_only) s += " keys_only";
  if (o.only != nullptr) s += " only";
  return s;
}

//! The lists to compare: each category (and none), with each filter the index decides or not.
std::vector<IssueListOptions> Lists(const DecisionModel& model, const std::vector<std::pair<int64_t, int64_t>>& only) {
  const int64_t mid = *ParseIsoTime("2024-02-01T00:00:00Z");
  std::vector<std::optional<std::string>> categories = {std::nullopt};
  for (const std::string& c : model.categories()) categories.push_back(c);
  std::vector<IssueListOptions> out;
  for (const auto& category : categories) {
    for (const char* kind : {"issue", "all"}) {
      IssueListOptions o;
      o.category = category;
      o.kind = kind;
      o.limit = 5;
      out.push_back(o);
      o.limit = 0;
      out.push_back(o);
      o.limit = 3;
      o.created_from = mid;
      out.push_back(o);
      o.created_to = mid + 3600;
      o.limit = 0;
      out.push_back(o);
      o.created_from.reset();
      o.limit = 4;
      out.push_back(o);  // an upper bound alone: reports of unknown creation pass it
      o.created_to.reset();
      o.sort = IssueSort::kUpdated;
      out.push_back(o);
      o.sort = IssueSort::kScore;
      o.state.values = {"open"};
      out.push_back(o);
      o.state.values.clear();
      o.sort = IssueSort::kCreated;
      if (category) {
        for (const std::string& tag : model.Subcategories()) {
          if (tag.starts_with(*category + "/")) {
            o.subcategory = tag;
            out.push_back(o);
            o.subcategory.reset();
            break;
          }
        }
      }
      // What sample reads: the frame (keys, with and without a stratum's values), then drawn rows.
      o.limit = 0;
      o.keys_only = true;
      out.push_back(o);
      o.with_values = {"state"};
      out.push_back(o);
      o.with_values.clear();
      o.keys_only = false;
      o.only = &only;
      out.push_back(o);
    }
  }
  return out;
}

//! Asserts that every list from the index equals the list from every report, and returns how
//! many lists the index answered (0: the store has no complete index).
size_t ExpectListingEqualsScan(const std::string& store_dir) {
  auto store = Store::Open(store_dir, StoreMode::kRead);
  EXPECT_TRUE(store.ok()) << store.status().message();
  if (!store.ok()) return 0;
  auto model = LoadStoreModel(**store);
  EXPECT_TRUE(model.ok());
  // A few reports for `only`: some flagged of each kind.
  std::vector<std::pair<int64_t, int64_t>> only;
  IssueListOptions all;
  all.kind = "all";
  all.limit = 0;
  all.use_listing = false;
  auto every = ListIssues(**store, all);
  EXPECT_TRUE(every.ok());
  EXPECT_GT(every->issues.size(), 50u) << "the store lists too few reports to test anything";
  for (size_t i = 0; i < every->issues.size(); i += 17) only.emplace_back(every->issues[i].repo_id, every->issues[i].number);
  std::sort(only.begin(), only.end());
  const std::set<std::pair<int64_t, int64_t>> only_keys(only.begin(), only.end());
  size_t matched = 0, matched_of_only = 0;
  for (IssueListOptions o : Lists(*model, only)) {
    auto listed = ListIssues(**store, o);
    // The reference reads every report; for `only` (read by key, never from the index), it is
    // the list without `only`, cut to those reports.
    IssueListOptions reference = o;
    reference.use_listing = false;
    reference.only = nullptr;
    auto scanned = ListIssues(**store, reference);
    EXPECT_TRUE(listed.ok() && scanned.ok()) << Describe(o);
    if (!listed.ok() || !scanned.ok()) continue;
    if (o.only != nullptr) {
      std::erase_if(scanned->issues,
                    [&](const ListedIssue& i) { return !only_keys.contains({i.repo_id, i.number}); });
      scanned->matched = scanned->issues.size();
      // (what the store holds is counted over the reports read: those of `only`)
      scanned->reports_in_store = listed->reports_in_store;
      scanned->flagged_in_store = listed->flagged_in_store;
      matched_of_only += scanned->matched;
    }
    EXPECT_EQ(Describe(*listed), Describe(*scanned)) << Describe(o);
    matched += scanned->matched;
  }
  EXPECT_GT(matched_of_only, 0u);
  EXPECT_GT(matched, 1000u);
  // Whether the index answered: it is complete, and lists what a scan lists.
  size_t entries = 0;
  auto complete = ReadListing(
      **store, ListingRange{}, [](int64_t, int64_t, const IssueRecord&) { return Status::Ok(); },
      [&](const ListingEntry&) {
        ++entries;
        return Status::Ok();
      });
  EXPECT_TRUE(complete.ok());
  return complete.ok() && *complete ? 1 + entries : 0;
}

Status Refresh(const std::string& store_dir) {
  auto store = Store::Open(store_dir, StoreMode::kReadWrite);
  if (!store.ok()) return store.status();
  return RefreshRollup(**store).status();
}

//! Every entry of the index (key, value).
std::map<std::string, std::string> Entries(const std::string& store_dir) {
  auto store = Store::Open(store_dir, StoreMode::kRead);
  std::map<std::string, std::string> out;
  EXPECT_TRUE((*store)
                  ->ScanListing("", std::string(4, '\xff'),
                                [&](std::string_view k, std::string_view v) {
                                  out.emplace(k, v);
                                  return Status::Ok();
                                })
                  .ok());
  return out;
}

size_t StaleReports(const std::string& store_dir) {
  auto store = Store::Open(store_dir, StoreMode::kRead);
  size_t n = 0;
  EXPECT_TRUE((*store)
                  ->ScanStaleIssues([&](int64_t, int64_t, const std::optional<IssueRecord>&, std::string_view) {
                    ++n;
                    return Status::Ok();
                  })
                  .ok());
  return n;
}

class ListingIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    gen::GenOptions o;
    o.out_dir = dir_ / "corpus";
    o.hours = 4;
    o.events_per_hour = 3000;
    o.seed = 43;
    o.level = 1;
    o.start_hour = "2024-01-31T22";  // two months, so --since and --until cut
    ASSERT_TRUE(gen::Generate(o, nullptr).ok());
    files_ = ResolveInputs({dir_ / "corpus"}).value();
    ASSERT_EQ(files_.size(), 4u);
  }

  void Ingest(const std::string& store, const std::vector<std::string>& files) {
    for (const auto& outcome : testing::IngestFiles(store, files, DefaultRules())) {
      ASSERT_EQ(outcome.result, FileResult::kIngested) << outcome.message;
    }
  }

  TempDir dir_;
  std::vector<std::string> files_;
};

TEST_F(ListingIndexTest, ListsEqualTheScanBeforeAndAfterEachRefresh) {
  const std::string store = dir_ / "store";
  Ingest(store, {files_[0], files_[1]});
  // Never refreshed: no index yet, so lists read every report.
  EXPECT_EQ(ExpectListingEqualsScan(store), 0u);
  ASSERT_TRUE(Refresh(store).ok());
  EXPECT_GT(ExpectListingEqualsScan(store), 1u);

  // Two more hours change reports already listed (closed, relabeled, newly flagged): stale until
  // the next refresh, their records read instead of their entries meanwhile.
  Ingest(store, {files_[2], files_[3]});
  EXPECT_GT(StaleReports(store), 100u);
  EXPECT_GT(ExpectListingEqualsScan(store), 1u);
  ASSERT_TRUE(Refresh(store).ok());
  EXPECT_EQ(StaleReports(store), 0u);
  EXPECT_GT(ExpectListingEqualsScan(store), 1u);

  // The entries moved piece by piece are those of a store built at once.
  const std::string at_once = dir_ / "at-once";
  Ingest(at_once, files_);
  ASSERT_TRUE(Refresh(at_once).ok());
  const auto entries = Entries(store);
  EXPECT_GT(entries.size(), 100u);
  EXPECT_EQ(entries, Entries(at_once));
}

TEST_F(ListingIndexTest, RescanRebuildsTheIndexForTheNewRules) {
  const std::string store = dir_ / "store";
  Ingest(store, files_);
  ASSERT_TRUE(Refresh(store).ok());
  const auto before = Entries(store);
  {
    // Other rules: reports change categories, the index is cleared and rebuilt by the rescan's refresh.
    auto writer = Store::Open(store, StoreMode::kReadWrite);
    ASSERT_TRUE(writer.ok());
    auto rules = LoadRuleSet(testing::ProbeRules());
    ASSERT_TRUE(rules.ok());
    auto db = RuleDatabase::Compile(*rules);
    ASSERT_TRUE(db.ok());
    auto summary = Rescan(**writer, *db);
    ASSERT_TRUE(summary.ok()) << summary.status().message();
    EXPECT_GT(summary->changed, 0u);
  }
  EXPECT_GT(ExpectListingEqualsScan(store), 1u);
  EXPECT_NE(Entries(store), before);
}

TEST_F(ListingIndexTest, MergedReportsAreListedBeforeAndAfterTheRefresh) {
  const std::string store = dir_ / "store", partial = dir_ / "partial";
  Ingest(store, {files_[0], files_[1]});
  ASSERT_TRUE(Refresh(store).ok());
  Ingest(partial, {files_[2], files_[3]});
  {
    auto writer = Store::Open(store, StoreMode::kReadWrite);
    auto from = Store::Open(partial, StoreMode::kRead);
    ASSERT_TRUE(writer.ok() && from.ok());
    const Status merged = (*writer)->MergeFrom(**from);
    ASSERT_TRUE(merged.ok()) << merged.message();
  }
  EXPECT_GT(StaleReports(store), 100u);
  EXPECT_GT(ExpectListingEqualsScan(store), 1u);
  ASSERT_TRUE(Refresh(store).ok());
  EXPECT_GT(ExpectListingEqualsScan(store), 1u);
  const std::string at_once = dir_ / "at-once";
  Ingest(at_once, files_);
  ASSERT_TRUE(Refresh(at_once).ok());
  EXPECT_EQ(Entries(store), Entries(at_once));
}

// A reader opens a store without the index's family (as an older ghsift wrote none) and lists
// by reading every report.
TEST_F(ListingIndexTest, StoreWithoutTheIndexFamilyIsListedByReadingEveryReport) {
  const std::string store = dir_ / "store";
  Ingest(store, {files_[0], files_[1]});
  {
    auto writer = Store::Open(store, StoreMode::kReadWrite);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE(RefreshRollup(**writer).ok());
    ASSERT_TRUE((*writer)->Finish().ok());  // in table files: the plain RocksDB below replays no log
  }
  {
    std::vector<std::string> names;
    ASSERT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), store, &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
    for (const std::string& n : names) descriptors.emplace_back(n, rocksdb::ColumnFamilyOptions());
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::DBOptions(), store, descriptors, &handles, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    const auto at = std::find(names.begin(), names.end(), "listing");
    ASSERT_NE(at, names.end());
    ASSERT_TRUE(db->DropColumnFamily(handles[static_cast<size_t>(at - names.begin())]).ok());
    for (auto* h : handles) ASSERT_TRUE(db->DestroyColumnFamilyHandle(h).ok());
  }
  {
    auto reader = Store::Open(store, StoreMode::kRead);
    ASSERT_TRUE(reader.ok()) << reader.status().message();
    EXPECT_FALSE((*reader)->HasListing());
  }
  EXPECT_EQ(ExpectListingEqualsScan(store), 0u);
}

TEST_F(ListingIndexTest, ARangeReadInTwoHalvesGivesTheEntriesOfOnePassInItsOrder) {
  const std::string store_dir = dir_ / "store";
  Ingest(store_dir, files_);
  {
    auto writer = Store::Open(store_dir, StoreMode::kReadWrite);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE(RefreshRollup(**writer).ok());
    ASSERT_TRUE((*writer)->Finish().ok());  // in table files, whose sizes RocksDB estimates
  }
  auto store = Store::Open(store_dir, StoreMode::kRead);
  ASSERT_TRUE(store.ok());
  auto read = [&](ListingRange range) {
    std::vector<std::string> out;
    auto complete = ReadListing(
        **store, range, [](int64_t, int64_t, const IssueRecord&) { return Status::Ok(); },
        [&](const ListingEntry& e) {
          out.push_back(std::to_string(e.time) + " " + std::to_string(e.repo_id) + "#" + std::to_string(e.number) +
                        " " + std::to_string(e.kind) + std::to_string(e.created_known));
          return Status::Ok();
        });
    EXPECT_TRUE(complete.ok() && *complete);
    return out;
  };
  const int64_t february = *ParseIsoTime("2024-02-01T00:00:00Z");
  size_t split = 0;
  for (const std::string category : {"", "performance", "silent"}) {
    for (const auto& [from, to] : std::vector<std::pair<std::optional<int64_t>, std::optional<int64_t>>>{
             {std::nullopt, std::nullopt}, {february, std::nullopt}, {std::nullopt, february}}) {
      ListingRange one_pass{category, from, to};
      one_pass.split_above_bytes = UINT64_MAX;
      ListingRange halves = one_pass;
      halves.split_above_bytes = 0;
      EXPECT_FALSE(ListingSplit(**store, one_pass).has_value());
      split += ListingSplit(**store, halves).has_value() ? 1 : 0;
      const std::vector<std::string> whole = read(one_pass);
      EXPECT_FALSE(whole.empty()) << category;
      EXPECT_EQ(read(halves), whole) << category;
    }
  }
  // (the whole listing of flagged reports is large enough to split, at least)
  EXPECT_GE(split, 1u);
}

TEST(ListingEntryTest, EntriesSayCategoryTimeAndKind) {
  RuleSet rules;
  rules.rules = {TaggedRule("perf.slow", "performance/low-speed")};
  const DecisionModel model = DecisionModel::FromRuleSet(rules);
  IssueRecord r;
  r.kind = 1;
  r.created_at = *ParseIsoTime("2019-03-04T05:06:07Z");
  r.events = 2;
  r.rules = {"perf.slow"};
  std::vector<std::pair<std::string, std::string>> entries;
  ASSERT_TRUE(AddListingEntries(ListedAs(model, r), 4242, 17, entries).ok());
  ASSERT_EQ(entries.size(), 2u);  // any problem, then performance
  EXPECT_EQ(entries[0].first[0], '\0');
  EXPECT_TRUE(entries[1].first.starts_with(std::string("performance") + '\0'));
  EXPECT_EQ(entries[0].first.substr(1), entries[1].first.substr(12));
  // Newer reports sort first within a category.
  IssueRecord newer = r;
  newer.created_at += 1;
  std::vector<std::pair<std::string, std::string>> newer_entries;
  ASSERT_TRUE(AddListingEntries(ListedAs(model, newer), 4242, 17, newer_entries).ok());
  EXPECT_LT(newer_entries[1].first, entries[1].first);
  // Unflagged, or seen only through a closing reference: not listed.
  r.rules.clear();
  EXPECT_EQ(ListedAs(model, r), "");
  r.rules = {"perf.slow"};
  r.events = 0;
  EXPECT_EQ(ListedAs(model, r), "");
  EXPECT_FALSE(AddListingEntries("short", 1, 1, entries).ok());
}

}  // namespace
}  // namespace ghsift
