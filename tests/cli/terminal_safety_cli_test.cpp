// Report text is untrusted (issue 25): a title, body or label can carry terminal escape
// sequences (ESC, BEL), a carriage return that overwrites what was printed, or a bidi override
// that reorders it. Every human format shows them as visible escapes; csv and json keep the
// exact text. One hand-written hour holds such a report.
#include <gtest/gtest.h>

#include <fstream>

#include "test_support.hpp"

namespace ghsift::testing {
namespace {

// The raw bytes that must never reach a terminal from report text.
constexpr const char* kRawBytes[] = {"\x1b", "\x07", "\r", "\u202e"};

const std::string kTitle = "Memory leak \x1b]0;pwned\x07 in \x1b[2Jfit\rOK \u202etxt.exe";
const std::string kShownTitle = "Memory leak \\x1b]0;pwned\\x07 in \\x1b[2Jfit\\rOK \\u202etxt.exe";

//! JSON string escaping of the few characters the hour's texts use, as ghsift's JSON writes them:
//! the right-to-left override as \u202e too.
std::string Json(const std::string& s) {
  const std::string rlo = "\u202e";
  std::string out = "\"";
  for (size_t at = 0; at < s.size(); ++at) {
    const unsigned char c = static_cast<unsigned char>(s[at]);
    if (s.compare(at, rlo.size(), rlo) == 0) {
      out += "\\u202e";
      at += rlo.size() - 1;
    } else if (c == '"' || c == '\\') {
      out += std::string("\\") + static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

class TerminalSafetyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string body = "Training leaks memory: RSS grows every epoch.\n\x1b[31mred\x1b[0m memory leak \u202eevil";
    const std::string event = OpenedIssueRecord(Json(kTitle), Json(body), Json("type:perf\x1b[5m"));
    store_ = new OneHourStore("2024-03-05-14.json", event + "\n", "-q --keep-text");
  }
  static void TearDownTestSuite() {
    delete store_;
    store_ = nullptr;
  }
  static std::string Store() { return store_->Store(); }
  static CommandResult Run(const std::string& arguments) { return store_->Run(arguments); }
  static void ExpectNoRawBytes(const std::string& output) {
    for (const char* raw : kRawBytes) {
      EXPECT_EQ(output.find(raw), std::string::npos) << "raw byte(s) " << Json(raw) << " in: " << output;
    }
  }
  static OneHourStore* store_;
};
OneHourStore* TerminalSafetyTest::store_ = nullptr;

TEST_F(TerminalSafetyTest, IssuesTableShowsEscapes) {
  const CommandResult r = RunCommand("COLUMNS=300 " + Ghsift() + " issues --store " + Store());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ExpectNoRawBytes(r.output);
  EXPECT_NE(r.output.find("tensorflow/tensorflow#7  " + kShownTitle + "  open"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("type:perf\\x1b[5m"), std::string::npos) << r.output;  // the label
}

TEST_F(TerminalSafetyTest, RulesExplainShowsEscapesAndMarksOnlyWithItsOwnCodes) {
  const CommandResult plain = Run("rules explain --no-color --issue tensorflow/tensorflow#7");
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  ExpectNoRawBytes(plain.output);
  EXPECT_NE(plain.output.find("  1: [[Memory leak]] \\x1b]0;pwned\\x07 in \\x1b[2Jfit\\rOK \\u202etxt.exe\n"),
            std::string::npos)
      << plain.output;
  EXPECT_NE(plain.output.find("  2: \\x1b[31mred\\x1b[0m [[memory leak]] \\u202eevil\n"), std::string::npos)
      << plain.output;
  // With color, the only ESC bytes are the marks' own (bold red on, reset), in pairs.
  const CommandResult color = Run("rules explain --color --issue tensorflow/tensorflow#7");
  ASSERT_EQ(color.exit_code, 0) << color.output;
  std::string without_marks = color.output;
  for (const std::string mark : {"\x1b[1;31m", "\x1b[0m"}) {
    for (size_t at; (at = without_marks.find(mark)) != std::string::npos;) without_marks.erase(at, mark.size());
  }
  ExpectNoRawBytes(without_marks);
  EXPECT_NE(color.output.find("\x1b[1;31mMemory leak\x1b[0m \\x1b]0;pwned"), std::string::npos) << color.output;
}

TEST_F(TerminalSafetyTest, QueryValuesShowEscapes) {
  const CommandResult r = Run("query --by label");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ExpectNoRawBytes(r.output);
  EXPECT_NE(r.output.find("type:perf\\x1b[5m  "), std::string::npos) << r.output;
}

// On a terminal (here a pseudo-terminal from script(1)) the machine formats are shown escaped
// too, and said so; JSON writes the override as an escape of its own wherever it goes.
TEST_F(TerminalSafetyTest, MachineFormatsOnATerminalShowEscapes) {
  for (const std::string format : {"csv", "jsonl"}) {
    const CommandResult r = RunCommand("script -qec \"" + Ghsift() + " issues --format " + format + " --store " +
                                       Store() + "\" /dev/null");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    std::string output = r.output;  // the terminal's line ends are \r\n
    for (size_t at = output.find("\r\n"); at != std::string::npos; at = output.find("\r\n", at)) output.erase(at, 1);
    ExpectNoRawBytes(output);
    if (format == "csv") {
      EXPECT_NE(output.find(kShownTitle), std::string::npos) << output;
      EXPECT_NE(output.find("ghsift: text a terminal would act on (control characters, bidi overrides) is shown "
                            "escaped, as \\x1b; write to a file or a pipe for the exact text"),
                std::string::npos)
          << output;
    }
  }
  const CommandResult piped = Run("issues --format jsonl");
  EXPECT_NE(piped.output.find("\\u202etxt.exe"), std::string::npos) << piped.output;
  EXPECT_EQ(piped.output.find("\u202e"), std::string::npos) << piped.output;
}

TEST_F(TerminalSafetyTest, MachineFormatsKeepTheExactText) {
  const CommandResult csv = Run("issues --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  // A carriage return makes the field quoted; the text itself is byte for byte the title.
  EXPECT_NE(csv.output.find("\"" + kTitle + "\""), std::string::npos) << csv.output;
  const CommandResult json = Run("issues --format json");
  ASSERT_EQ(json.exit_code, 0) << json.output;
  EXPECT_NE(json.output.find(Json(kTitle)), std::string::npos) << json.output;  // JSON's own escapes
  const CommandResult label_csv = Run("query --by label --format csv");
  EXPECT_NE(label_csv.output.find("type:perf\x1b[5m,1"), std::string::npos) << label_csv.output;
}

// A file name is anyone's text too: a dump found in a directory can be named with escapes, and
// every message that names it (bad records, skipped copies, coverage) shows them escaped.
TEST_F(TerminalSafetyTest, FileNamesInMessagesShowEscapes) {
  TempDir dir;
  const std::string hostile = "b\x1b]0;NAME\x07\x1b[31m.json";
  const std::string shown = "b\\x1b]0;NAME\\x07\\x1b[31m.json";
  const std::string dump = dir / hostile;
  {
    std::ifstream hour(store_->Hour());
    std::ofstream(dump) << hour.rdbuf() << "{\"broken\n";  // a good record, then a bad one
  }
  const CommandResult bad = RunCommand(Ghsift() + " ingest --store " + (dir / "store") + " '" + dump + "'");
  ExpectNoRawBytes(bad.output);
  EXPECT_NE(bad.output.find(shown + ":2:1: bad record skipped"), std::string::npos) << bad.output;
  std::filesystem::copy_file(dump, dir / "copy.json");
  const CommandResult skipped = RunCommand(Ghsift() + " ingest --store " + (dir / "store") + " " + (dir / "copy.json"));
  ExpectNoRawBytes(skipped.output);
  EXPECT_NE(skipped.output.find("skipped, same content as " + shown), std::string::npos) << skipped.output;
  const CommandResult coverage = RunCommand(Ghsift() + " stats --coverage --from 2024-03-05 --store " + (dir / "store"));
  ExpectNoRawBytes(coverage.output);
  EXPECT_NE(coverage.output.find(shown), std::string::npos) << coverage.output;
}

}  // namespace
}  // namespace ghsift::testing
