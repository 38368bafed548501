// The real binary: `ghsift gen --profile` and `--schema` values, as a user types them.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "gen_test_support.hpp"
#include "test_support.hpp"

namespace ghsift::gen {
namespace {

using ghsift::testing::Ghsift;
using ghsift::testing::RunCommand;

TEST(GenCliProfileTest, UnknownProfileExits2ListingTheValidOnes) {
  const auto dir = testing::FreshTestDir("gencli_", "bad");
  const auto r = RunCommand(Ghsift() + " gen --out '" + dir.string() + "' --profile 1999");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("2016"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("2024"), std::string::npos) << r.output;
}

TEST(GenCliProfileTest, UnknownSchemaExits2ListingTheValidOnes) {
  const auto dir = testing::FreshTestDir("gencli_", "schema");
  const auto r = RunCommand(Ghsift() + " gen --out '" + dir.string() + "' --schema timeline-2013");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("timeline-2012"), std::string::npos) << r.output;
}

TEST(GenCliProfileTest, ProfileDefaultsToTheRealHourSize) {
  const auto dir = testing::FreshTestDir("gencli_", "size");
  const auto r = RunCommand(Ghsift() + " gen --out '" + dir.string() + "' --profile 2016 --level 1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("wrote 1 file, 11,956 events"), std::string::npos) << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "2016-01-01-1.json.gz"));
  // An explicit --events-per-hour wins.
  const auto small = testing::FreshTestDir("gencli_", "small");
  const auto s = RunCommand(Ghsift() + " gen --out '" + small.string() + "' --profile 2024 --events-per-hour 300");
  ASSERT_EQ(s.exit_code, 0) << s.output;
  EXPECT_NE(s.output.find("wrote 1 file, 300 events"), std::string::npos) << s.output;
  EXPECT_TRUE(std::filesystem::exists(small / "2024-01-01-15.json.gz"));
}

TEST(GenCliProfileTest, ProfileNeedsTheModernSchema) {
  const auto dir = testing::FreshTestDir("gencli_", "legacy");
  const auto r = RunCommand(Ghsift() + " gen --out '" + dir.string() + "' --profile 2016 --legacy --events-per-hour 10");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("schema modern"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace ghsift::gen
