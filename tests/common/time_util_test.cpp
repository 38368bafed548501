#include "common/time_util.hpp"

#include <gtest/gtest.h>

namespace ghsift {
namespace {

TEST(TimeUtilTest, ParsesUtcTimeWithZ) {
  EXPECT_EQ(ParseIsoTime("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(ParseIsoTime("2015-01-01T15:00:01Z"), 1420124401);
  EXPECT_EQ(ParseIsoTime("2000-02-29T23:59:59Z"), 951868799);
}

TEST(TimeUtilTest, ParsesWithoutZoneAsUtc) {
  EXPECT_EQ(ParseIsoTime("2015-01-01T15:00:01"), 1420124401);
  EXPECT_EQ(ParseIsoTime("2015-01-01 15:00:01"), 1420124401);
}

TEST(TimeUtilTest, ParsesOffsetsOfTheOldSchema) {
  // 2012-03-10T07:00:00-08:00 is 15:00 UTC.
  EXPECT_EQ(ParseIsoTime("2012-03-10T07:00:00-08:00"), ParseIsoTime("2012-03-10T15:00:00Z"));
  EXPECT_EQ(ParseIsoTime("2012-03-10T17:30:00+02:30"), ParseIsoTime("2012-03-10T15:00:00Z"));
  EXPECT_EQ(*ParseIsoTime("2012-03-10T15:00:00Z"), 1331391600);
}

TEST(TimeUtilTest, IgnoresFractionalSeconds) {
  EXPECT_EQ(ParseIsoTime("2015-01-01T15:00:01.123Z"), 1420124401);
  EXPECT_EQ(ParseIsoTime("2015-01-01T15:00:01.5+01:00"), 1420124401 - 3600);
}

TEST(TimeUtilTest, RejectsMalformedTimes) {
  EXPECT_EQ(ParseIsoTime(""), std::nullopt);
  EXPECT_EQ(ParseIsoTime("2015-01-01"), std::nullopt);
  EXPECT_EQ(ParseIsoTime("2015/01/01T15:00:01Z"), std::nullopt);
  EXPECT_EQ(ParseIsoTime("2015-13-01T15:00:01Z"), std::nullopt);
  EXPECT_EQ(ParseIsoTime("2015-00-01T15:00:01Z"), std::nullopt);
  EXPECT_EQ(ParseIsoTime("2015-01-32T15:00:01Z"), std::nullopt);
  EXPECT_EQ(ParseIsoTime("2015-01-01T24:00:01Z"), std::nullopt);
  EXPECT_EQ(ParseIsoTime("2015-01-01T15:60:01Z"), std::nullopt);
  EXPECT_EQ(ParseIsoTime("2015-01-01T15:00:01Q"), std::nullopt);
  EXPECT_EQ(ParseIsoTime("2015-01-01T15:00:01+0100"), std::nullopt);
  EXPECT_EQ(ParseIsoTime("2015-01-01X15:00:01Z"), std::nullopt);
  EXPECT_EQ(ParseIsoTime("20a5-01-01T15:00:01Z"), std::nullopt);
}

TEST(TimeUtilTest, DayOfHandlesNegativeTimes) {
  EXPECT_EQ(DayOf(0), 0);
  EXPECT_EQ(DayOf(86399), 0);
  EXPECT_EQ(DayOf(86400), 1);
  EXPECT_EQ(DayOf(-1), -1);
  EXPECT_EQ(DayOf(-86400), -1);
  EXPECT_EQ(DayOf(-86401), -2);
}

TEST(TimeUtilTest, DaysFromCivilMatchesKnownDates) {
  EXPECT_EQ(DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(DaysFromCivil(1969, 12, 31), -1);
  EXPECT_EQ(DaysFromCivil(2000, 3, 1), 11017);
  EXPECT_EQ(DaysFromCivil(2015, 1, 1), 16436);
  EXPECT_EQ(DaysFromCivil(2024, 2, 29) + 1, DaysFromCivil(2024, 3, 1));
  EXPECT_EQ(DaysFromCivil(2023, 2, 28) + 1, DaysFromCivil(2023, 3, 1));
}

TEST(TimeUtilTest, MonthOfDayAndFormat) {
  EXPECT_EQ(MonthOfDay(0), 1970 * 12);
  EXPECT_EQ(FormatMonth(MonthOfDay(0)), "1970-01");
  const int32_t day = static_cast<int32_t>(DaysFromCivil(2015, 12, 31));
  EXPECT_EQ(MonthOfDay(day), 2015 * 12 + 11);
  EXPECT_EQ(FormatMonth(MonthOfDay(day)), "2015-12");
  EXPECT_EQ(FormatMonth(MonthOfDay(day + 1)), "2016-01");
  EXPECT_EQ(FormatDay(day), "2015-12-31");
  EXPECT_EQ(FormatDay(day + 1), "2016-01-01");
  EXPECT_EQ(FormatDay(-1), "1969-12-31");
}

TEST(TimeUtilTest, FormatIsoTimeRoundTrips) {
  EXPECT_EQ(FormatIsoTime(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(FormatIsoTime(1420124401), "2015-01-01T15:00:01Z");
  for (int64_t t : {int64_t{0}, int64_t{951868799}, int64_t{1331391600}, int64_t{1700000000}, int64_t{-1}}) {
    EXPECT_EQ(ParseIsoTime(FormatIsoTime(t)), t) << FormatIsoTime(t);
  }
  EXPECT_EQ(FormatIsoTime(-1), "1969-12-31T23:59:59Z");
}

TEST(TimeUtilTest, ParseMonth) {
  EXPECT_EQ(ParseMonth("2015-01"), 2015 * 12);
  EXPECT_EQ(ParseMonth("2015-12"), 2015 * 12 + 11);
  EXPECT_EQ(ParseMonth("2015-13"), std::nullopt);
  EXPECT_EQ(ParseMonth("2015-00"), std::nullopt);
  EXPECT_EQ(ParseMonth("2015-1"), std::nullopt);
  EXPECT_EQ(ParseMonth("2015-011"), std::nullopt);
  EXPECT_EQ(ParseMonth("201x-01"), std::nullopt);
  EXPECT_EQ(FormatMonth(*ParseMonth("2011-02")), "2011-02");
}

}  // namespace
}  // namespace ghsift
