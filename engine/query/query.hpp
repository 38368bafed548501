#pragma once
// Answers `ghsift query` and `ghsift issues` from the store alone.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "rollup/rollup.hpp"
#include "rules/decision.hpp"
#include "store/store.hpp"

namespace ghsift {

enum class Metric {
  kIssues,             //!< distinct reports (of the chosen kind); month = month of created_at
  kEvents,             //!< events; month = month of the event
  kClosed,             //!< distinct reports whose latest state is closed
  kComments,           //!< comments on the reports (their highest comment count seen)
  kMedianDaysToClose,  //!< median of closed_at - created_at over closed reports, in days
};

//! Parses issues|events|closed|comments|median_days_to_close.
std::optional<Metric> MetricFromName(const std::string& name);
std::string MetricName(Metric metric);

struct QueryOptions {
  Metric metric = Metric::kIssues;
  //! repo, month, category, label, state, kind, resolution, verdict (reports); repo, month, day,
  //! type (events)
  std::vector<std::string> dimensions;
  std::optional<std::string> repo;      //!< owner/name, any name the repo ever had
  std::optional<std::string> category;  //!< only reports flagged with this category (issues)
  std::string kind = "issue";           //!< issue | pr | all
  std::optional<int32_t> from_month;    //!< inclusive month index
  std::optional<int32_t> to_month;      //!< inclusive month index
  //! Answer from the rollup when it holds the question (issues/closed by repo, month, kind,
  //! state, category); false reads every report (same answer, for checking and timing).
  bool use_rollup = true;
};

struct QueryTable {
  std::vector<std::string> columns;             //!< the dimensions, then the metric name
  std::vector<std::vector<std::string>> rows;   //!< dimension values, sorted
  std::vector<int64_t> counts;                  //!< one per row (closed reports for the median metric)
  std::vector<double> values;                   //!< median_days_to_close only: the median per row
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

}  // namespace ghsift
