#pragma once
// The metrics a question counts (`query --metric`), one row each: the name the option takes and
// the tables print, its help and what it counts. Parsing, naming, --metric's help and its error
// messages all read this table: a new metric is one row in metric.cpp (and its counting in query.cpp).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ghsift {

enum class Metric {
  kIssues,             //!< distinct reports (of the chosen kind); month = month of created_at
  kEvents,             //!< events; month = month of the event
  kClosed,             //!< distinct reports whose latest state is closed
  kComments,           //!< comments on the reports (their highest comment count seen)
  kMedianDaysToClose,  //!< median of closed_at - created_at over closed reports, in days
};

struct MetricSpec {
  Metric metric;
  std::string_view name;
  std::string_view help;    //!< a few words for `--metric` help
  std::string_view counts;  //!< what it counts, as "no <counts> in the store match these filters" says it
};

//! Every metric, in the order help and messages list them.
std::span<const MetricSpec> Metrics();
//! The row of a metric.
const MetricSpec& SpecOf(Metric metric);
//! Every metric's name, in table order (for "did you mean" and the messages that list them).
std::vector<std::string> MetricNames();

//! The metric of this name, or none.
std::optional<Metric> MetricFromName(const std::string& name);
std::string MetricName(Metric metric);
//! A metric's value as every table writes it: a count as an integer, days to close to 0.01 day
//! (as the exports' days_to_close: a median of half an hour reads 0.02, not 0.0).
std::string MetricValueText(Metric metric, double value);

}  // namespace ghsift
