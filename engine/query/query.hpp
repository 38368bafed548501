#pragma once
// Answers `ghsift query` and `ghsift issues` from the store alone.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "rules/decision.hpp"
#include "store/store.hpp"

namespace ghsift {

enum class Metric {
  kIssues,  //!< distinct reports (of the chosen kind); month = month of created_at
  kEvents,  //!< events; month = month of the event
};

struct QueryOptions {
  Metric metric = Metric::kIssues;
  std::vector<std::string> dimensions;  //!< repo, month, category, type, label, state (and day for events)
  std::optional<std::string> repo;      //!< owner/name, any name the repo ever had
  std::optional<std::string> category;  //!< only reports flagged with this category (issues)
  std::string kind = "issue";           //!< issue | pr | all
  std::optional<int32_t> from_month;    //!< inclusive month index
  std::optional<int32_t> to_month;      //!< inclusive month index
};

struct QueryTable {
  std::vector<std::string> columns;             //!< the dimensions, then the metric name
  std::vector<std::vector<std::string>> rows;   //!< dimension values, sorted
  std::vector<int64_t> counts;                  //!< one per row
};

Result<QueryTable> RunQuery(const Store& store, const QueryOptions& options);

struct ListedIssue {
  std::string repo;
  int64_t number = 0;
  std::string kind;   //!< issue | pr
  std::string url;
  std::string title;
  std::string state;
  std::string created;  //!< YYYY-MM-DD
  std::vector<std::string> categories;
  std::vector<std::string> rules;
};

struct IssueListOptions {
  std::optional<std::string> repo;
  std::optional<std::string> category;  //!< when unset: reports flagged with any category
  std::string kind = "issue";
  size_t limit = 50;                    //!< 0 = no limit
};

Result<std::vector<ListedIssue>> ListIssues(const Store& store, const IssueListOptions& options);

//! The rule model the store was built with.
Result<DecisionModel> LoadStoreModel(const Store& store);

}  // namespace ghsift
