#include "common/time_range.hpp"

#include <gtest/gtest.h>

#include "common/time_util.hpp"

namespace ghsift {
namespace {

constexpr int64_t kNow = 1709654400;  // 2024-03-05T16:00:00Z

int64_t At(const char* iso) { return *ParseIsoTime(iso); }

TEST(TimeRangeTest, MonthDayAndHourNameTheirWholeSpan) {
  auto month = ParseTimeArgument("2024-02", "--from", kNow, false);
  ASSERT_TRUE(month.ok());
  EXPECT_EQ(month->begin, At("2024-02-01T00:00:00Z"));
  EXPECT_EQ(month->end, At("2024-03-01T00:00:00Z"));
  EXPECT_EQ(month->precision, TimePrecision::kMonth);
  auto december = ParseTimeArgument("2023-12", "--from", kNow, false);
  ASSERT_TRUE(december.ok());
  EXPECT_EQ(december->end, At("2024-01-01T00:00:00Z"));
  auto day = ParseTimeArgument("2024-02-29", "--from", kNow, false);
  ASSERT_TRUE(day.ok());
  EXPECT_EQ(day->begin, At("2024-02-29T00:00:00Z"));
  EXPECT_EQ(day->end, At("2024-03-01T00:00:00Z"));
  auto hour = ParseTimeArgument("2024-03-05T15", "--from", kNow, false);
  ASSERT_TRUE(hour.ok());
  EXPECT_EQ(hour->begin, At("2024-03-05T15:00:00Z"));
  EXPECT_EQ(hour->end, At("2024-03-05T16:00:00Z"));
  EXPECT_EQ(hour->precision, TimePrecision::kHour);
}

TEST(TimeRangeTest, RelativeSpansCountBackFromNow) {
  auto week = ParseTimeArgument("7d", "--since", kNow, true);
  ASSERT_TRUE(week.ok());
  EXPECT_EQ(week->begin, kNow - 7 * 86400);
  EXPECT_EQ(week->end, kNow - 7 * 86400);
  EXPECT_EQ(ParseTimeArgument("4w", "--since", kNow, true)->begin, kNow - 28 * 86400);
  EXPECT_EQ(ParseTimeArgument("12h", "--since", kNow, true)->begin, kNow - 12 * 3600);
  auto refused = ParseTimeArgument("7d", "--from", kNow, false);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(),
            "--from '7d': a span back from now is not accepted here; use YYYY-MM, YYYY-MM-DD or YYYY-MM-DDTHH");
}

TEST(TimeRangeTest, RejectsEveryOtherSpellingWithTheSyntax) {
  for (const char* bad : {"2024-13", "2024-02-30", "2024-03-05-15", "2024-03-05T24", "2024/03", "24-03", "0d", "d",
                          "7x", "2024-03-05T15:00", "", "-3d"}) {
    auto r = ParseTimeArgument(bad, "--since", kNow, true);
    EXPECT_FALSE(r.ok()) << bad;
  }
  EXPECT_EQ(ParseTimeArgument("2024-13", "--since", kNow, true).status().message(),
            "--since '2024-13' is not a time; use YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH (UTC) or a span back from now "
            "such as 7d or 4w");
}

TEST(TimeRangeTest, RangeRunsFromTheFirstStartToTheSecondEnd) {
  auto january = ParseTimeRange("2024-01", "--from", "2024-01", "--to", kNow, false);
  ASSERT_TRUE(january.ok());
  EXPECT_EQ(*january->begin, At("2024-01-01T00:00:00Z"));
  EXPECT_EQ(*january->end, At("2024-02-01T00:00:00Z"));
  auto open_end = ParseTimeRange("7d", "--since", "", "--until", kNow, true);
  ASSERT_TRUE(open_end.ok());
  EXPECT_EQ(*open_end->begin, kNow - 7 * 86400);
  EXPECT_FALSE(open_end->end.has_value());
}

TEST(TimeRangeTest, ReversedOrEmptyRangeIsAnError) {
  auto reversed = ParseTimeRange("2024-02", "--from", "2024-01", "--to", kNow, false);
  ASSERT_FALSE(reversed.ok());
  EXPECT_EQ(reversed.status().message(), "empty range: --from 2024-02 is not before --to 2024-01");
  EXPECT_FALSE(ParseTimeRange("1d", "--since", "1d", "--until", kNow, true).ok());
  EXPECT_FALSE(ParseTimeRange("1d", "--since", "2w", "--until", kNow, true).ok());
}

}  // namespace
}  // namespace ghsift
