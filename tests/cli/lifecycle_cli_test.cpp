// Lifecycle metrics and dimensions (closed, median_days_to_close, comments, resolution, verdict)
// on a handful of hand-written events.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;

std::string Issue(int number, const char* state, const char* created, const char* closed, int comments,
                  const char* label, const char* extra = "") {
  std::string closed_at = closed ? std::string("\"") + closed + "\"" : "null";
  return std::string(R"({"number":)") + std::to_string(number) + R"(,"title":"Issue )" + std::to_string(number) +
         R"(","body":"text","labels":[{"name":")" + label + R"("}],"state":")" + state +
         R"(","comments":)" + std::to_string(comments) + R"(,"created_at":")" + created +
         R"(","closed_at":)" + closed_at + extra + "}";
}

std::string Event(const char* id, const char* type, const char* time, const std::string& payload) {
  return std::string(R"({"id":")") + id + R"(","type":")" + type +
         R"(","actor":{"id":1,"login":"someone"},"repo":{"id":45717250,"name":"tensorflow/tensorflow","url":"u"},)"
         R"("payload":)" + payload + R"(,"public":true,"created_at":")" + time + "\"}\n";
}

TEST(LifecycleCliTest, ResolutionVerdictAndTimeToClose) {
  TempDir dir;
  {
    std::ofstream out(dir / "2024-01-05-0.json");
    out << Event("1", "IssuesEvent", "2024-01-01T00:00:00Z",
                 R"({"action":"opened","issue":)" + Issue(1, "open", "2024-01-01T00:00:00Z", nullptr, 0, "type:bug") + "}")
        << Event("2", "IssueCommentEvent", "2024-01-02T00:00:00Z",
                 R"({"action":"created","issue":)" + Issue(1, "open", "2024-01-01T00:00:00Z", nullptr, 1, "type:bug") +
                     R"(,"comment":{"body":"same here"}})")
        << Event("3", "IssuesEvent", "2024-01-03T00:00:00Z",
                 R"({"action":"closed","issue":)" +
                     Issue(1, "closed", "2024-01-01T00:00:00Z", "2024-01-03T00:00:00Z", 2, "type:bug") + "}")
        << Event("4", "PullRequestEvent", "2024-01-03T00:00:00Z",
                 R"({"action":"closed","number":2,"pull_request":{"number":2,"title":"Repair it","body":"Fixes #1",)"
                 R"("state":"closed","merged":true,"created_at":"2024-01-02T00:00:00Z"}})")
        << Event("5", "IssuesEvent", "2024-01-02T00:00:00Z",
                 R"({"action":"closed","issue":)" +
                     Issue(3, "closed", "2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z", 4, "type:support") + "}")
        << Event("6", "IssuesEvent", "2024-01-04T00:00:00Z",
                 R"({"action":"opened","issue":)" + Issue(4, "open", "2024-01-04T00:00:00Z", nullptr, 0, "docs") + "}")
        << Event("7", "IssuesEvent", "2024-01-04T00:00:00Z",
                 R"({"action":"opened","issue":{"number":5,"title":"slow and leaking","body":"how to fix?",)"
                 R"("labels":[],"state":"open","comments":0,"created_at":"2024-01-04T00:00:00Z"}})");
  }
  // The verdict rules as shipped, plus two performance rules and one against.
  std::filesystem::create_directories(dir / "rules");
  std::filesystem::copy_file(std::string(GHSIFT_SOURCE_DIR) + "/rules/verdict.yaml", dir / "rules/verdict.yaml");
  {
    std::ofstream out(dir / "rules/perf.yaml");
    out << "rules:\n"
           "  - {id: p.slow, tag: performance/low-speed, pattern: 'slow'}\n"
           "  - {id: p.leak, tag: performance/memory, pattern: 'leak'}\n"
           "  - {id: p.question, tag: performance/not-a-bug, pattern: 'how to', weight: -0.5}\n";
  }
  const std::string store = dir / "store";
  auto r = RunCommand(Ghsift() + " ingest -q --rules " + (dir / "rules") + " --store " + store + " " +
                      (dir / "2024-01-05-0.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto query = [&](const std::string& args) {
    auto q = RunCommand(Ghsift() + " query --store " + store + " --format csv " + args);
    EXPECT_EQ(q.exit_code, 0) << q.output;
    return q.output;
  };
  EXPECT_EQ(query("--by resolution"), "resolution,issues\nclosed_without_pr,1\nfixed_by_pr,1\nopen,2\n");
  EXPECT_EQ(query("--by resolution --metric closed"), "resolution,closed\nclosed_without_pr,1\nfixed_by_pr,1\n");
  EXPECT_EQ(query("--by repo --metric median_days_to_close"),
            "repo,median_days_to_close\ntensorflow/tensorflow,1.50\n");
  // A maintainer's bug label is a sign of a bug; a support or docs label alone (0.5) is not enough
  // to call a report something else (rules/verdict.yaml), so every issue here is a bug.
  EXPECT_EQ(query("--by verdict"), "verdict,issues\nbug,4\n");
  // Subcategories of the flagged reports; the rule against the category adds no row.
  EXPECT_EQ(query("--by subcategory --category performance"),
            "subcategory,issues\nperformance/low-speed,1\nperformance/memory,1\n");
  EXPECT_EQ(query("--by state --metric comments"), "state,comments\nclosed,6\nopen,0\n");
  // The PR itself is a report of kind pr; the closing reference alone adds no issue.
  EXPECT_EQ(query("--kind pr --by repo"), "repo,issues\ntensorflow/tensorflow,1\n");
}

}  // namespace
}  // namespace ghsift
