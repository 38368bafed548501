// The metric table is the one list of metrics: the parser takes each name, each reads back as
// itself, and `query --help` and the error for a wrong name list every one.
#include "query/metric.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "common/closest_name.hpp"
#include "test_support.hpp"

namespace ghsift {
namespace {

TEST(MetricTableTest, EachNameParsesToItsRowAndBack) {
  std::set<std::string_view> names;
  std::set<Metric> metrics;
  for (const MetricSpec& spec : Metrics()) {
    EXPECT_TRUE(names.insert(spec.name).second) << spec.name;
    EXPECT_TRUE(metrics.insert(spec.metric).second) << spec.name;
    EXPECT_FALSE(spec.help.empty()) << spec.name;
    EXPECT_FALSE(spec.counts.empty()) << spec.name;
    EXPECT_EQ(MetricFromName(std::string(spec.name)), spec.metric);
    EXPECT_EQ(MetricName(spec.metric), spec.name);
    EXPECT_EQ(&SpecOf(spec.metric), &spec);
  }
  EXPECT_EQ(MetricFromName("sum"), std::nullopt);
  EXPECT_EQ(MetricNames().size(), Metrics().size());
}

TEST(MetricTableTest, HelpAndErrorsListEveryMetric) {
  const auto help = testing::RunCommand(testing::Ghsift() + " query --help");
  ASSERT_EQ(help.exit_code, 0) << help.output;
  const auto wrong = testing::RunCommand(testing::Ghsift() + " query --store /nonexistent --metric sum");
  EXPECT_EQ(wrong.exit_code, 2) << wrong.output;
  EXPECT_NE(wrong.output.find("--metric must be " + JoinChoices(MetricNames()) + ", not 'sum'"), std::string::npos)
      << wrong.output;
  const auto none = testing::RunCommand(testing::Ghsift() + " query --store /nonexistent --metric ,");
  EXPECT_NE(none.output.find("--metric needs a metric: " + JoinChoices(MetricNames())), std::string::npos)
      << none.output;
  for (const MetricSpec& spec : Metrics()) {
    EXPECT_NE(help.output.find(std::string(spec.name) + " (" + std::string(spec.help) + ")"), std::string::npos)
        << "query --help misses " << spec.name << ":\n" << help.output;
  }
}

}  // namespace
}  // namespace ghsift
