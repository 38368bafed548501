// How GH Archive names its hourly files: the hour in a name, the UTC hours a file holds (the
// Timeline era's US-Pacific names), the inverse, and the names and URLs ingest asks for.
#include "io/archive_hours.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/time_util.hpp"

namespace ghsift {
namespace {

TEST(ArchiveHoursTest, HourNames) {
  EXPECT_EQ(FormatHour(*HourOfFileName("2015-01-02-3.json.gz")), "2015-01-02-3");
  EXPECT_EQ(FormatHour(*HourOfFileName("2015-01-01-15.json")), "2015-01-01-15");
  EXPECT_EQ(*HourOfFileName("2015-01-02-0.json.gz") - *HourOfFileName("2015-01-01-23.json.gz"), 1);
  EXPECT_FALSE(HourOfFileName("truth.json").has_value());
  EXPECT_FALSE(HourOfFileName("2015-01-01-24.json").has_value());
  EXPECT_EQ(FormatHour(*ParseHour("2015-01-01")), "2015-01-01-0");
}

int64_t Utc(int year, unsigned month, unsigned day, int hour) { return DaysFromCivil(year, month, day) * 24 + hour; }

TEST(UtcHoursOfFileNameTest, UtcNamedErasMapToThemselves) {
  EXPECT_EQ(UtcHoursOfFileName("2011-02-15-0.json.gz"), std::vector<int64_t>{Utc(2011, 2, 15, 0)});
  EXPECT_EQ(UtcHoursOfFileName("2012-03-10-23.json.gz"), std::vector<int64_t>{Utc(2012, 3, 10, 23)});
  EXPECT_EQ(UtcHoursOfFileName("2015-01-01-15.json.gz"), std::vector<int64_t>{Utc(2015, 1, 1, 15)});
  EXPECT_TRUE(UtcHoursOfFileName("notes.txt").empty());
}

TEST(UtcHoursOfFileNameTest, TimelineNamesArePacificHours) {
  // The real hours: 2012-04-11-15 holds 15:01..16:01 -0700 (daylight), 2014-02-15-0 holds
  // 00:03..01:03 -0800 (standard).
  EXPECT_EQ(UtcHoursOfFileName("2012-04-11-15.json.gz"), std::vector<int64_t>{Utc(2012, 4, 11, 22)});
  EXPECT_EQ(UtcHoursOfFileName("2014-02-15-0.json.gz"), std::vector<int64_t>{Utc(2014, 2, 15, 8)});
  EXPECT_EQ(UtcHoursOfFileName("2014-12-31-23.json.gz"), std::vector<int64_t>{Utc(2015, 1, 1, 7)});
}

//! The UTC hours of a local day's file names, in name order.
std::vector<int64_t> HoursOfDay(const std::string& day, const std::vector<int>& local_hours) {
  std::vector<int64_t> out;
  for (int h : local_hours) {
    for (int64_t utc : UtcHoursOfFileName(day + "-" + std::to_string(h) + ".json.gz")) out.push_back(utc);
  }
  return out;
}

TEST(UtcHoursOfFileNameTest, SpringChangeDayHasNoGap) {
  // 2013-03-10: 02:00 PST became 03:00 PDT, so no file is named 2013-03-10-2.
  std::vector<int> names = {0, 1};
  for (int h = 3; h < 24; ++h) names.push_back(h);
  std::vector<int64_t> want;
  for (int64_t h = Utc(2013, 3, 10, 8); h < Utc(2013, 3, 10, 8) + 23; ++h) want.push_back(h);
  EXPECT_EQ(HoursOfDay("2013-03-10", names), want);
}

TEST(UtcHoursOfFileNameTest, AutumnChangeDayCoversItsTwentyFiveHoursOnce) {
  // 2013-11-03: 01:00 happened twice (PDT, then PST); its one file stands for both UTC hours.
  std::vector<int> names;
  for (int h = 0; h < 24; ++h) names.push_back(h);
  std::vector<int64_t> want;
  for (int64_t h = Utc(2013, 11, 3, 7); h < Utc(2013, 11, 3, 7) + 25; ++h) want.push_back(h);
  EXPECT_EQ(HoursOfDay("2013-11-03", names), want);
}

TEST(FileHourOfUtcHourTest, InvertsTheArchiveNaming) {
  // Outside the Timeline era a file is named by its UTC hour.
  EXPECT_EQ(FileHourOfUtcHour(Utc(2011, 2, 15, 0)), Utc(2011, 2, 15, 0));
  EXPECT_EQ(FileHourOfUtcHour(Utc(2015, 1, 1, 8)), Utc(2015, 1, 1, 8));
  // Inside it by the Pacific hour: the real 2012-04-11-15 (PDT) and 2014-02-15-0 (PST).
  EXPECT_EQ(FileHourOfUtcHour(Utc(2012, 4, 11, 22)), Utc(2012, 4, 11, 15));
  EXPECT_EQ(FileHourOfUtcHour(Utc(2014, 2, 15, 8)), Utc(2014, 2, 15, 0));
  // 2014-12-31 23:00 UTC is in the file named 2014-12-31-15; from 2015-01-01 00:00 UTC the
  // Pacific-named files of 2014-12-31 16..23 and the UTC-named ones of 2015 overlap: the UTC
  // name is asked for.
  EXPECT_EQ(FileHourOfUtcHour(Utc(2014, 12, 31, 23)), Utc(2014, 12, 31, 15));
  EXPECT_EQ(FileHourOfUtcHour(Utc(2015, 1, 1, 7)), Utc(2015, 1, 1, 7));
  // The UTC hours between the last UTC-named file (2012-03-10-23) and the first Pacific one.
  EXPECT_FALSE(FileHourOfUtcHour(Utc(2012, 3, 11, 3)).has_value());
  // Every UTC hour of 2013, round trip: the file named by the answer covers that hour.
  for (int64_t h = Utc(2013, 1, 1, 0); h < Utc(2014, 1, 1, 0); ++h) {
    const std::optional<int64_t> named = FileHourOfUtcHour(h);
    ASSERT_TRUE(named.has_value()) << FormatHour(h);
    const std::vector<int64_t> covered = UtcHoursOfFileName(FormatHour(*named) + ".json.gz");
    EXPECT_NE(std::find(covered.begin(), covered.end(), h), covered.end()) << FormatHour(h);
  }
}

TEST(ArchiveHoursTest, FileNamesAndUrls) {
  EXPECT_EQ(ArchiveFileName(Utc(2016, 1, 1, 5)), "2016-01-01-5.json.gz");
  EXPECT_EQ(ArchiveUrl("http://127.0.0.1:8080/", Utc(2016, 1, 1, 15)), "http://127.0.0.1:8080/2016-01-01-15.json.gz");
  EXPECT_EQ(ArchiveUrl("https://data.gharchive.org", Utc(2012, 4, 11, 15)),
            "https://data.gharchive.org/2012-04-11-15.json.gz");
  // By hour or by name, the same answer.
  for (int64_t h = Utc(2013, 11, 2, 0); h < Utc(2013, 11, 4, 0); ++h) {
    EXPECT_EQ(UtcHoursOfFileHour(h), UtcHoursOfFileName(ArchiveFileName(h))) << FormatHour(h);
  }
}

}  // namespace
}  // namespace ghsift
