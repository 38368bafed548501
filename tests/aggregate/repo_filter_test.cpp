// RepoFilter: a tracked repository is followed through its renames (former names, GitHub ids),
// the list file's errors name the line, and the stored description of a scope reads back as the
// same filter, including the descriptions stores wrote before former names existed.
#include "aggregate/repo_filter.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::TempDir;

Result<RepoFilter> FromText(const TempDir& dir, const std::string& text) {
  const std::string path = dir / "repos.txt";
  std::ofstream(path) << text;
  return RepoFilter::FromFile(path);
}

TEST(RepoFilterTest, DescriptionReadsBackAsTheSameFilter) {
  const RepoFilter tracked = RepoFilter::FromNames({"BVLC/caffe", "keras-team/keras"});
  auto read = RepoFilter::FromDescription(tracked.Describe() + ";keep-text");  // the store's suffix
  ASSERT_TRUE(read.has_value());
  EXPECT_FALSE(read->all());
  EXPECT_EQ(read->Describe(), tracked.Describe());
  EXPECT_TRUE(read->Tracks("bvlc/CAFFE"));
  EXPECT_FALSE(read->Tracks("bvlc/caff"));
  auto all = RepoFilter::FromDescription("all");
  ASSERT_TRUE(all.has_value());
  EXPECT_TRUE(all->all());
  EXPECT_FALSE(RepoFilter::FromDescription("everything").has_value());
}

TEST(RepoFilterTest, FormerNamesAndIdsCountTowardTheRepository) {
  TempDir dir;
  auto f = FromText(dir,
                    "# renamed twice\n"
                    "apache/mxnet   id:34864402  former: apache/incubator-mxnet dmlc/mxnet  # today's name first\n"
                    "Acme/Tool      former:old-acme/tool\n"
                    "BVLC/caffe\n"
                    "BVLC/caffe\n"  // a plain name twice is harmless
                    "\n");
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->size(), 3u);
  // The current name counts whatever the id; a listed id whatever the name.
  EXPECT_TRUE(f->Tracks("apache/mxnet", 34864402));
  EXPECT_TRUE(f->Tracks("Apache/MXNet", 999));
  EXPECT_TRUE(f->Tracks("someone/renamed-again", 34864402));
  // A former name counts for the listed id and for a record without an id (<= 0), not for
  // another repository that took the freed name.
  EXPECT_TRUE(f->Tracks("DMLC/mxnet", 34864402));
  EXPECT_TRUE(f->Tracks("dmlc/mxnet", -77));
  EXPECT_TRUE(f->Tracks("apache/incubator-mxnet", 0));
  EXPECT_FALSE(f->Tracks("dmlc/mxnet", 1234));
  // Without a listed id, a former name counts for any id.
  EXPECT_TRUE(f->Tracks("old-acme/tool", 1234));
  EXPECT_TRUE(f->Tracks("acme/tool", 5));
  EXPECT_FALSE(f->Tracks("dmlc/mxnet.js", 47372239));
  EXPECT_FALSE(f->Tracks("", 34));
  // By name alone (a name asked for): any of its names.
  EXPECT_TRUE(f->Tracks("dmlc/mxnet"));
  EXPECT_FALSE(f->Tracks("dmlc/tvm"));
  EXPECT_EQ(f->NamesOf("DMLC/MXNET"),
            (std::vector<std::string>{"apache/mxnet", "apache/incubator-mxnet", "dmlc/mxnet"}));
  EXPECT_EQ(f->NamesOf("bvlc/caffe"), (std::vector<std::string>{"bvlc/caffe"}));
  EXPECT_TRUE(f->NamesOf("nobody/none").empty());
  EXPECT_EQ(f->IdsOf("apache/incubator-mxnet"), (std::vector<int64_t>{34864402}));
  EXPECT_TRUE(f->IdsOf("acme/tool").empty());
  EXPECT_EQ(f->Names(), (std::vector<std::string>{"acme/tool", "apache/incubator-mxnet", "apache/mxnet", "bvlc/caffe",
                                                  "dmlc/mxnet", "old-acme/tool"}));

  // The stored description keeps all of it and reads back as the same filter.
  const std::string described = f->Describe();
  EXPECT_EQ(described,
            "tracked:acme/tool|old-acme/tool,apache/mxnet|#34864402|apache/incubator-mxnet|dmlc/mxnet,bvlc/caffe,");
  auto read = RepoFilter::FromDescription(described + ";keep-text");
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->Describe(), described);
  EXPECT_EQ(read->size(), 3u);
  EXPECT_TRUE(read->Tracks("dmlc/mxnet", 34864402));
  EXPECT_FALSE(read->Tracks("dmlc/mxnet", 1234));
  EXPECT_TRUE(read->Tracks("x/y", 34864402));
  EXPECT_TRUE(read->Tracks("old-acme/tool", 9));
}

// A store written before former names existed holds plain names: each its own repository.
TEST(RepoFilterTest, DescriptionWithoutFormerNamesStillReads) {
  auto read = RepoFilter::FromDescription("tracked:apache/incubator-mxnet,apache/mxnet,bvlc/caffe,");
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->size(), 3u);
  EXPECT_TRUE(read->Tracks("apache/incubator-mxnet", 34864402));
  EXPECT_FALSE(read->Tracks("dmlc/mxnet", 34864402));
  EXPECT_EQ(read->NamesOf("apache/mxnet"), (std::vector<std::string>{"apache/mxnet"}));
  EXPECT_EQ(read->Describe(), "tracked:apache/incubator-mxnet,apache/mxnet,bvlc/caffe,");
  // And a plain list describes itself as it always did.
  EXPECT_EQ(RepoFilter::FromNames({"b/x", "A/y"}).Describe(), "tracked:a/y,b/x,");
}

TEST(RepoFilterTest, ListErrorsNameTheLineAndTheReason) {
  TempDir dir;
  const std::string path = dir / "repos.txt";
  const std::pair<const char*, const char*> cases[] = {
      {"a/b\nnoslash\n", ":2: expected owner/name (letters, digits, '.', '_', '-'), got 'noslash'"},
      {"a/b id:x\n", ":1: expected a GitHub repository id (a positive number) after 'id:'"},
      {"a/b id:\n", ":1: expected a GitHub repository id (a positive number) after 'id:'"},
      {"a/b c/d\n", ":1: expected 'id:N' or 'former: owner/name...' after the name, got 'c/d'"},
      {"a/b former:\n", ":1: 'former:' names no repository"},
      {"a/b former: c,d/e\n", ":1: expected a former owner/name after 'former:', got 'c,d/e'"},
      {"a/b former: c/d\nc/D\n", ":2: c/d is already listed on line 1 (one line per repository, with all its "
                                 "names and ids)"},
      {"a/b id:5\nc/d id: 5\n", ":2: id 5 is already listed on line 1"},
      {"a/b former: a/B\n", ":1: a/b is given twice on this line"},
  };
  for (const auto& [text, reason] : cases) {
    auto f = FromText(dir, text);
    ASSERT_FALSE(f.ok()) << text;
    EXPECT_EQ(f.status().message().rfind(path + reason, 0), 0u) << f.status().message();
  }
}

// The bundled list follows the renames the archive shows (the real 2015-2016 hours name these
// repositories by their former names and ids).
TEST(RepoFilterTest, DefaultListFollowsKnownRenames) {
  auto f = RepoFilter::FromFile(std::string(GHSIFT_SOURCE_DIR) + "/rules/repos.txt");
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_TRUE(f->Tracks("dmlc/mxnet", 34864402));
  EXPECT_TRUE(f->Tracks("apache/incubator-mxnet", 34864402));
  EXPECT_TRUE(f->Tracks("fchollet/keras", 33015583));
  EXPECT_TRUE(f->Tracks("SkymindIO/deeplearning4j", 14734876));
  EXPECT_TRUE(f->Tracks("tensorflow/tensorflow", 45717250));
  EXPECT_FALSE(f->Tracks("dmlc/mxnet.js", 47372239));
  EXPECT_FALSE(f->Tracks("ppwwyyxx/tensorflow", 48862844));
  EXPECT_EQ(f->NamesOf("dmlc/mxnet"), f->NamesOf("apache/incubator-mxnet"));
  EXPECT_EQ(f->NamesOf("fchollet/keras").front(), "keras-team/keras");
}

}  // namespace
}  // namespace ghsift
