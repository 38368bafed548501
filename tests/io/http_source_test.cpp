// What the transfers may hold in memory: the received-bytes buffer each gets for a number of
// connections (the end-to-end behaviour over real servers is in tests/cli/http_ingest_test.cpp).
#include "io/http_source.hpp"

#include <gtest/gtest.h>

namespace ghsift {
namespace {

constexpr size_t kMiB = 1 << 20;

TEST(HttpSourceTest, TransfersShareFourMiBWithAtLeastOneBlockEach) {
  EXPECT_EQ(BufferBytesFor(0), 4 * kMiB);  // read as one connection
  EXPECT_EQ(BufferBytesFor(1), 4 * kMiB);
  EXPECT_EQ(BufferBytesFor(2), 2 * kMiB);
  EXPECT_EQ(BufferBytesFor(3), 4 * kMiB / 3);
  EXPECT_EQ(BufferBytesFor(4), 1 * kMiB);
  EXPECT_EQ(BufferBytesFor(8), 1 * kMiB);
  EXPECT_EQ(BufferBytesFor(64), 1 * kMiB);
}

TEST(HttpSourceTest, OnlyHttpAndHttpsAreUrls) {
  EXPECT_TRUE(IsHttpUrl("http://data.gharchive.org/2024-01-01-0.json.gz"));
  EXPECT_TRUE(IsHttpUrl("HTTPS://example.org/x.json.gz"));
  EXPECT_FALSE(IsHttpUrl("ftp://example.org/x.json.gz"));
  EXPECT_FALSE(IsHttpUrl("file:///tmp/x.json.gz"));
  EXPECT_FALSE(IsHttpUrl("dumps/http:/x.json.gz"));
  EXPECT_FALSE(IsHttpUrl("http"));
}

// The server a URL asks (ingest stops asking one that gives nothing, not the others).
TEST(HttpSourceTest, AnUrlsOriginIsItsSchemeAndAuthority) {
  EXPECT_EQ(UrlOrigin("https://data.gharchive.org/2024-01-01-0.json.gz"), "https://data.gharchive.org");
  EXPECT_EQ(UrlOrigin("HTTP://Mirror.Example:8080/gh/2024-01-01-0.json.gz?x=1"), "http://mirror.example:8080");
  EXPECT_EQ(UrlOrigin("http://127.0.0.1:9"), "http://127.0.0.1:9");
  EXPECT_EQ(UrlOrigin("http://host?q#f"), "http://host");
}

}  // namespace
}  // namespace ghsift
