// `cmake --install` lays out a working tool: the binary finds the rules installed beside it,
// GHSIFT_RULES overrides them, and the man page and completions are there (issue 14).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_support.hpp"

namespace ghsift {
namespace {

namespace fs = std::filesystem;
using testing::RunCommand;
using testing::TempDir;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(InstallTest, InstalledBinaryFindsItsRulesManPageAndCompletions) {
  // The build tree is three levels above the binary (BUILD/tools/ghsift/ghsift).
  const fs::path build = fs::path(GHSIFT_BINARY).parent_path().parent_path().parent_path();
  TempDir dir;
  const fs::path prefix = fs::path(dir.path()) / "prefix";
  auto r = RunCommand("cmake --install '" + build.string() + "' --prefix '" + prefix.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* file : {"bin/ghsift", "share/ghsift/rules/performance.yaml", "share/ghsift/rules/repos.txt",
                           "share/man/man1/ghsift.1", "share/bash-completion/completions/ghsift",
                           "share/zsh/vendor-completions/_ghsift", "bin/ghsift-hourly",
                           "lib/systemd/system/ghsift-follow.service"}) {
    EXPECT_TRUE(fs::is_regular_file(prefix / file)) << file;
  }
  // The cron script can be run by cron: executable by all.
  EXPECT_NE(fs::status(prefix / "bin/ghsift-hourly").permissions() & fs::perms::others_exec, fs::perms::none);
  const std::string man = ReadFile(prefix / "share/man/man1/ghsift.1");
  EXPECT_EQ(man.rfind(".TH GHSIFT 1 ", 0), 0u);
  EXPECT_NE(man.find(".SS ghsift issues\n"), std::string::npos);
  EXPECT_NE(man.find("\\-\\-exit\\-zero"), std::string::npos);
  EXPECT_NE(man.find(".B GHSIFT_RULES\n"), std::string::npos);

  // A rule file added to the installed rules shows in `rules check`: the binary reads them.
  std::ofstream(prefix / "share/ghsift/rules/zz_local.yaml")
      << "rules:\n  - {id: local.one, tag: installcheck/one, pattern: 'zzz'}\n";
  const std::string installed = "env -u GHSIFT_RULES '" + (prefix / "bin/ghsift").string() + "'";
  r = RunCommand(installed + " rules check");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("  installcheck: 1 rule, threshold 1"), std::string::npos) << r.output;
  // GHSIFT_RULES names another rule set.
  std::ofstream(fs::path(dir.path()) / "other.yaml") << "rules:\n  - {id: o.one, tag: othercheck/one, pattern: 'q'}\n";
  r = RunCommand("GHSIFT_RULES='" + (fs::path(dir.path()) / "other.yaml").string() + "' '" +
                 (prefix / "bin/ghsift").string() + "' rules check");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("  othercheck: 1 rule, threshold 1"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("installcheck"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace ghsift
