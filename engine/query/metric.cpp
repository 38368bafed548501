#include "query/metric.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "common/number_text.hpp"

namespace ghsift {
namespace {

constexpr MetricSpec kMetrics[] = {
    {Metric::kIssues, "issues", "distinct reports", "reports"},
    {Metric::kEvents, "events", "archive events, by the event dimensions", "events"},
    {Metric::kClosed, "closed", "reports whose latest state is closed", "closed reports"},
    {Metric::kComments, "comments", "comments on the reports", "comments"},
    {Metric::kMedianDaysToClose, "median_days_to_close", "median days from creation to closing, of closed reports",
     "closed reports"},
};

}  // namespace

std::span<const MetricSpec> Metrics() { return kMetrics; }

const MetricSpec& SpecOf(Metric metric) {
  for (const MetricSpec& spec : kMetrics) {
    if (spec.metric == metric) return spec;
  }
  std::fprintf(stderr, "ghsift: internal error: metric %d has no row\n", static_cast<int>(metric));
  std::abort();
}

std::vector<std::string> MetricNames() {
  std::vector<std::string> names;
  for (const MetricSpec& spec : kMetrics) names.emplace_back(spec.name);
  return names;
}

std::optional<Metric> MetricFromName(const std::string& name) {
  for (const MetricSpec& spec : kMetrics) {
    if (spec.name == name) return spec.metric;
  }
  return std::nullopt;
}

std::string MetricName(Metric metric) { return std::string(SpecOf(metric).name); }

std::string MetricValueText(Metric metric, double value) {
  return metric == Metric::kMedianDaysToClose ? Fixed(value, 2) : std::to_string(static_cast<int64_t>(value));
}

}  // namespace ghsift
