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

// One test per time form of the real archive files (../shared/data/gharchive-real), each with
// a created_at as it appears there.
TEST(TimeUtilTest, RealForm2015OnIsoWithZ) {
  // hours/2015-01-01-15.json.gz, first record.
  EXPECT_EQ(ParseIsoTime("2015-01-01T15:00:00Z"), DaysFromCivil(2015, 1, 1) * 86400 + 15 * 3600);
}

TEST(TimeUtilTest, RealFormTimelineIsoWithPacificOffset) {
  // hours/2014-02-15-0.json.gz (winter, -08:00) and hours/2012-06-14-15.json.gz (summer, -07:00).
  EXPECT_EQ(ParseIsoTime("2014-02-15T00:03:54-08:00"), *ParseIsoTime("2014-02-15T08:03:54Z"));
  EXPECT_EQ(ParseIsoTime("2012-06-14T15:01:42-07:00"), *ParseIsoTime("2012-06-14T22:01:42Z"));
}

TEST(TimeUtilTest, RealFormOriginal2012SlashDate) {
  // hours/2012-04-11-15.json.gz, first record: local Pacific daylight time with a colon-less offset.
  EXPECT_EQ(ParseIsoTime("2012/04/11 15:01:38 -0700"), *ParseIsoTime("2012-04-11T22:01:38Z"));
  // A repository's created_at in the same file, in Pacific standard time.
  EXPECT_EQ(ParseIsoTime("2011/02/20 03:45:59 -0800"), *ParseIsoTime("2011-02-20T11:45:59Z"));
  EXPECT_EQ(ParseIsoTime("2012/04/11 15:01:38 +0130"), *ParseIsoTime("2012-04-11T13:31:38Z"));
}

TEST(TimeUtilTest, IsoOffsetWithoutColon) {
  EXPECT_EQ(ParseIsoTime("2015-01-01T15:00:01+0100"), 1420120801);
  EXPECT_EQ(ParseIsoTime("2012-04-11T15:01:38-0700"), *ParseIsoTime("2012-04-11T22:01:38Z"));
}

TEST(TimeUtilTest, RejectsMalformedSlashDates) {
  EXPECT_EQ(ParseIsoTime("2012/04/11 15:01:38"), std::nullopt);         // the form always has an offset
  EXPECT_EQ(ParseIsoTime("2012/04/11T15:01:38 -0700"), std::nullopt);
  EXPECT_EQ(ParseIsoTime("2012/04/11 15:01:38 -07:00"), std::nullopt);
  EXPECT_EQ(ParseIsoTime("2012/04/11 15:01:38 -070"), std::nullopt);
  EXPECT_EQ(ParseIsoTime("2012/04-11 15:01:38 -0700"), std::nullopt);
  EXPECT_EQ(ParseIsoTime("2012-04-11T15:01:38 -0700"), std::nullopt);  // ISO takes no space
  EXPECT_EQ(ParseIsoTime("2012-04-11T15:01:38-07:0"), std::nullopt);
  EXPECT_EQ(ParseIsoTime("2012-04-11T15:01:38-2500"), std::nullopt);
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
