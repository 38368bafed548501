// When a writer's backup is due (pipelines/store_backups): once per period counted from 00:00 UTC,
// whatever the time of the runs.
#include "pipelines/store_backups.hpp"

#include <gtest/gtest.h>

namespace ghsift {
namespace {

constexpr int64_t kDay2 = 1704153600;  // 2024-01-02T00:00Z
constexpr int64_t kHour = 3600;

TEST(BackupDueTest, OncePerPeriodFromMidnightUtc) {
  const BackupPolicy daily{.dir = "b", .every_seconds = 24 * kHour};
  EXPECT_TRUE(BackupDue(daily, std::nullopt, kDay2));  // none yet
  // A backup at 03:20:45 on day 1; day 2's run at 03:20:30 is less than 24 hours later and still
  // due: by age, each day's backup would slip to the next run, an hour later every day.
  const int64_t made = kDay2 - 24 * kHour + 3 * kHour + 20 * 60 + 45;
  EXPECT_TRUE(BackupDue(daily, made, kDay2 + 3 * kHour + 20 * 60 + 30));
  EXPECT_FALSE(BackupDue(daily, made, kDay2 - 1));  // 23:59:59 of day 1
  EXPECT_TRUE(BackupDue(daily, made, kDay2));       // 00:00 of day 2
  const BackupPolicy six{.dir = "b", .every_seconds = 6 * kHour};
  EXPECT_FALSE(BackupDue(six, kDay2 + kHour, kDay2 + 5 * kHour + 59 * 60));
  EXPECT_TRUE(BackupDue(six, kDay2 + kHour, kDay2 + 6 * kHour));
  const BackupPolicy always{.dir = "b", .every_seconds = 0};
  EXPECT_TRUE(BackupDue(always, kDay2, kDay2));
}

}  // namespace
}  // namespace ghsift
