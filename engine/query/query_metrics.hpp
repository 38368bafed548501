#pragma once
// `ghsift query --metric a,b [--fill-zeros]`: several metrics over the same groups, one column
// each, and optionally the groups without reports written with 0.
#include <optional>
#include <string>
#include <vector>

#include "query/query.hpp"

namespace ghsift {

struct MetricsTable {
  std::vector<std::string> columns;            //!< the dimensions, then the metrics' names
  std::vector<std::vector<std::string>> rows;  //!< dimension values, sorted (RowOrder: numeric dimensions by number)
  //! Per row, one value per metric: a count, or a median in days; none where there is nothing to
  //! take a median of.
  std::vector<std::vector<std::optional<double>>> values;
  //! Whether some metric's answer had a group (false: every row is a filled or total 0).
  bool matched = false;
};

//! Answers `options` (its metric aside) for each of `metrics` and joins the answers on their
//! groups: a group one metric lacks counts 0 there (a median: none). With `fill_zeros`, every
//! group of the dimensions' values (Dimension::every_value: the months of the range, the tracked
//! repositories, the rule set's categories, ...; the values the answer holds for the others) is
//! a row. A question without dimensions is one row (counts of 0 when nothing matches).
Result<MetricsTable> RunQueryMetrics(const Store& store, const QueryOptions& options, const std::vector<Metric>& metrics,
                                     bool fill_zeros);

}  // namespace ghsift
