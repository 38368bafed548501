// Bad input end to end: every damaged or odd input is built here (no binary fixtures), given to
// the real binary, and its exact outcome checked: exit status, the message naming the file and
// line (or rule), the counts in `stats`, and that a failing file leaves the store as it was.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "test_support.hpp"

namespace ghsift {
namespace {

using testing::ReadText;
using testing::GenCorpus;
using testing::CommandResult;
using testing::Ghsift;
using testing::RunCommand;
using testing::TempDir;

void WriteAll(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  ASSERT_TRUE(out.good()) << path;
}

//! A minimal IssuesEvent in the 2015+ layout; `title` and `payload` are raw JSON text.
std::string IssueLine(int id, const std::string& title, const std::string& payload = "") {
  const std::string p = !payload.empty() ? payload
                                         : "{\"action\":\"opened\",\"issue\":{\"number\":" + std::to_string(id) +
                                               ",\"title\":" + title +
                                               ",\"state\":\"open\",\"labels\":[],\"created_at\":"
                                               "\"2024-01-01T00:00:01Z\",\"body\":\"b\"}}";
  return "{\"id\":\"" + std::to_string(id) +
         "\",\"type\":\"IssuesEvent\",\"actor\":{\"id\":1,\"login\":\"u\"},\"repo\":{\"id\":7,\"name\":\"o/"
         "r\",\"url\":\"\"},\"payload\":" +
         p + ",\"public\":true,\"created_at\":\"2024-01-01T00:00:02Z\"}";
}

//! A minimal PushEvent (an envelope-only type); `repo` and `payload` are raw JSON text.
std::string PushLine(int id, const std::string& payload = "{\"size\":1}",
                     const std::string& repo = "{\"id\":8,\"name\":\"o/p\",\"url\":\"\"}") {
  return "{\"id\":\"" + std::to_string(id) + "\",\"type\":\"PushEvent\",\"actor\":{\"id\":1,\"login\":\"u\"},\"repo\":" +
         repo + ",\"payload\":" + payload + ",\"public\":true,\"created_at\":\"2024-01-01T00:00:03Z\"}";
}

//! A good issue line, `middle`, and a good push line: three lines, the second under test.
std::string Sandwich(const std::string& middle) { return IssueLine(1, "\"good\"") + "\n" + middle + "\n" + PushLine(3) + "\n"; }

class BadInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // A store that already holds one good hour, so "unchanged" means something.
    GenCorpus(dir_ / "good", 1, 200, 11, "gz");
    store_ = dir_ / "store";
    const CommandResult r = Ingest(dir_ / "good/2024-01-01-0.json.gz");
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }

  CommandResult Ingest(const std::string& file, const std::string& extra = "") {
    return RunCommand(Ghsift() + " ingest -q --all-repos --store '" + store_ + "' " + extra + " '" + file + "'");
  }
  //! Without -q, which leaves skipped files unsaid.
  CommandResult IngestSayingSkips(const std::string& file) {
    return RunCommand(Ghsift() + " ingest --all-repos --store '" + store_ + "' '" + file + "'");
  }

  //! `stats --format json` minus the on-disk size; fails the test when the store does not open.
  std::map<std::string, int64_t> Stats() {
    const CommandResult r = RunCommand(Ghsift() + " stats --format json --store '" + store_ + "'");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::map<std::string, int64_t> out;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (parser.parse(r.output).get(doc) != simdjson::SUCCESS) {
      ADD_FAILURE() << "stats is not JSON: " << r.output;
      return out;
    }
    for (auto [key, value] : doc.get_object()) {
      int64_t v = 0;
      if (value.get_int64().get(v) == simdjson::SUCCESS) out[std::string(key)] = v;
    }
    out.erase("store_bytes");
    return out;
  }

  static int64_t Get(const std::map<std::string, int64_t>& m, const std::string& key) {
    auto it = m.find(key);
    return it == m.end() ? 0 : it->second;
  }

  //! A damaged file must fail alone: exit 2, message names it with `reason`, store unchanged
  //! except failed_files + 1.
  void ExpectFileFails(const std::string& name, const std::string& bytes, const std::string& reason) {
    const std::string path = dir_ / name;
    WriteAll(path, bytes);
    const auto before = Stats();
    const CommandResult r = Ingest(path);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(path + ": " + reason), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("nothing of this file was counted"), std::string::npos) << r.output;
    auto after = Stats();
    EXPECT_EQ(Get(after, "failed_files"), Get(before, "failed_files") + 1);
    after["failed_files"] = Get(before, "failed_files");
    if (Get(before, "failed_files") == 0 && Get(after, "failed_files") == 0) after.erase("failed_files");
    auto expected = before;
    if (Get(expected, "failed_files") == 0) expected.erase("failed_files");
    EXPECT_EQ(after, expected) << "a failing file changed the store";
  }

  //! Where a bad record is reported: line, reason and the column the record starts at.
  struct Reported {
    int line = 0;
    std::string reason;
    size_t column = 1;
  };

  //! A file with bad records is ingested: exit 0, each bad record named as
  //! file:line:column: reason, and files/events/bad_lines grow by exactly the given amounts.
  void ExpectLines(const std::string& name, const std::string& bytes, int64_t events, int64_t bad,
                   const std::vector<Reported>& reported) {
    const std::string path = dir_ / name;
    WriteAll(path, bytes);
    const auto before = Stats();
    const CommandResult r = Ingest(path);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    for (const auto& [line, reason, column] : reported) {
      const std::string want =
          path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": bad record skipped: " + reason;
      EXPECT_NE(r.output.find(want), std::string::npos) << "want: " << want << "\ngot: " << r.output;
    }
    if (bad == 0) {
      EXPECT_EQ(r.output.find("bad record"), std::string::npos) << r.output;
    }
    const auto after = Stats();
    EXPECT_EQ(Get(after, "files"), Get(before, "files") + 1);
    EXPECT_EQ(Get(after, "events"), Get(before, "events") + events);
    EXPECT_EQ(Get(after, "bad_lines"), Get(before, "bad_lines") + bad);
    EXPECT_EQ(Get(after, "failed_files"), Get(before, "failed_files"));
  }

  //! Issues (all kinds) of the planted repo o/r.
  int64_t IssuesOfPlantedRepo() {
    const CommandResult r =
        RunCommand(Ghsift() + " query --store '" + store_ + "' --kind all --repo o/r --format csv");
    // CSV with no dimensions: a header line "issues" and one total.
    const auto nl = r.output.find('\n');
    return nl == std::string::npos ? -1 : std::atoll(r.output.c_str() + nl + 1);
  }

  TempDir dir_;
  std::string store_;
};

// ---- damaged compressed files: fail whole, store unchanged --------------------------------

TEST_F(BadInputTest, TruncatedGzip) {
  const std::string gz = ReadText(dir_ / "good/2024-01-01-0.json.gz");
  ExpectFileFails("cut.json.gz", gz.substr(0, gz.size() / 2), "truncated gzip stream");
}

TEST_F(BadInputTest, GzipWithCorruptCrc) {
  std::string gz = ReadText(dir_ / "good/2024-01-01-0.json.gz");
  gz[gz.size() - 8] = static_cast<char>(gz[gz.size() - 8] ^ 0xff);  // first byte of the CRC32 trailer
  ExpectFileFails("crc.json.gz", gz, "gzip trailer mismatch (CRC-32 or length of a member; corrupt data)");
}

TEST_F(BadInputTest, GzipWithWrongLengthTrailer) {
  std::string gz = ReadText(dir_ / "good/2024-01-01-0.json.gz");
  gz[gz.size() - 1] = static_cast<char>(gz[gz.size() - 1] ^ 0x01);  // ISIZE, not the CRC
  // ISA-L reports a wrong ISIZE with the same code as a wrong CRC.
  ExpectFileFails("isize.json.gz", gz, "gzip trailer mismatch (CRC-32 or length of a member; corrupt data)");
}

TEST_F(BadInputTest, ZeroByteCompressedFiles) {
  ExpectFileFails("empty.json.gz", "", "empty file (no gzip member)");
  ExpectFileFails("empty.json.zst", "", "empty file (no zstd frame)");
}

TEST_F(BadInputTest, ZeroBytePlainFileIsAnEmptyHour) {
  ExpectLines("empty.json", "", 0, 0, {});
}

TEST_F(BadInputTest, ZstdFrameCutInHalf) {
  GenCorpus(dir_ / "zst", 1, 200, 11, "zst");
  const std::string zst = ReadText(dir_ / "zst/2024-01-01-0.json.zst");
  ExpectFileFails("cut.json.zst", zst.substr(0, zst.size() / 2), "truncated zstd frame");
  ExpectFileFails("header.json.zst", zst.substr(0, 5), "truncated zstd frame");
}

TEST_F(BadInputTest, GzipWithTrailingGarbage) {
  const std::string gz = ReadText(dir_ / "good/2024-01-01-0.json.gz");
  // Bytes after the last member that are not another member (nor zero padding): the whole
  // file fails. The message should not blame truncation.
  ExpectFileFails("garbage.json.gz", gz + std::string(64, 'x'), "not a gzip stream (bad header)");
}

// Files that are not what their names say: named for what they are when their first bytes tell,
// with those bytes shown, and failed whole.
TEST_F(BadInputTest, ErrorPageSavedAsAnHourNamesWhatItIs) {
  ExpectFileFails("2024-01-01-5.json.gz", "<html><body><h1>404 Not Found</h1></body></html>\n",
                  "not a GH Archive dump: an HTML or XML page (an error page served or saved in place of the hour?), "
                  "starting with \"<html><body><h1>404 Not Found</h\"; ghsift reads gzip, zstd and plain JSON lines");
}

TEST_F(BadInputTest, OtherCompressionsAreNamed) {
  const std::string tail = "; ghsift reads gzip, zstd and plain JSON lines";
  ExpectFileFails("bz.json.gz", "BZh91AY&SY", "not a GH Archive dump: a bzip2 file, starting with \"BZh91AY&SY\"" + tail);
  ExpectFileFails("xz.json", std::string("\xfd" "7zXZ\0\0\x04", 8),
                  "not a GH Archive dump: an xz file, starting with \"\\xfd7zXZ\\x00\\x00\\x04\"" + tail);
  ExpectFileFails("zip.json.zst", "PK\x03\x04rest",
                  "not a GH Archive dump: a zip archive, starting with \"PK\\x03\\x04rest\"" + tail);
}

TEST_F(BadInputTest, TextUnderACompressedNameShowsItsStart) {
  const std::string tail = "; ghsift reads gzip, zstd and plain JSON lines";
  ExpectFileFails("text.json.gz", "hello there\nsecond line\n",
                  "not a GH Archive dump: named as gzip but neither gzip, zstd nor JSON lines, starting with "
                  "\"hello there\"" + tail);
  ExpectFileFails("text.json.zst", "0123456789abcdefghijklmnopqrstuvwxyz",
                  "not a GH Archive dump: named as zstd but neither zstd, gzip nor JSON lines, starting with "
                  "\"0123456789abcdefghijklmnopqrstuv\"" + tail);
}

// ---- bad lines: counted and named, the rest of the file counts ----------------------------

TEST_F(BadInputTest, InvalidUtf8InAnIssueTitleIsABadLine) {
  ExpectLines("utf8.json", Sandwich(IssueLine(2, "\"bad \xff\xfe title\"")), 2, 1,
              {{2, "invalid JSON: text that is not UTF-8"}});
}

// A bad record's message says what simdjson found wrong, not only that it is invalid JSON.
TEST_F(BadInputTest, ABadRecordSaysWhatIsWrongWithIt) {
  ExpectLines("control.json", Sandwich(IssueLine(2, std::string("\"tab\x01here\""))), 2, 1,
              {{2, "invalid JSON: a control character (such as NUL) inside a string"}});
}

TEST_F(BadInputTest, InvalidUtf8InAnUnreadPayloadIsNotChecked) {
  // README "Bad input": for types whose payload is not read only the envelope is checked.
  ExpectLines("utf8-push.json", Sandwich(PushLine(2, "{\"m\":\"bad \xff\xfe\"}")), 3, 0, {});
}

TEST_F(BadInputTest, NulEscapeInATitleIsKept) {
  ExpectLines("nul.json", Sandwich(IssueLine(2, "\"nul \\u0000 here\"")), 3, 0, {});
  EXPECT_EQ(IssuesOfPlantedRepo(), 2);
}

TEST_F(BadInputTest, LoneSurrogateEscapeIsNotDroppedSilently) {
  // "\ud800" has no low surrogate (the archive has such titles where an emoji was cut in half).
  // The event counts and the title is kept, with U+FFFD where the broken code point was, so
  // rules still see the rest of the text.
  const std::string path = dir_ / "surrogate.json";
  WriteAll(path, Sandwich(IssueLine(2, "\"lone \\ud800 here\"")));
  const auto before = Stats();
  const CommandResult r = Ingest(path);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto after = Stats();
  EXPECT_EQ(Get(after, "bad_lines"), Get(before, "bad_lines"));
  EXPECT_EQ(Get(after, "events"), Get(before, "events") + 3);
  const CommandResult explain = RunCommand(Ghsift() + " rules explain --store '" + store_ + "' --issue 'o/r#2'");
  EXPECT_NE(explain.output.find("title: lone \xEF\xBF\xBD here"), std::string::npos) << explain.output;
}

TEST_F(BadInputTest, LineOf100MiBIsABadLine) {
  // Written in pieces so the test itself holds little memory.
  const std::string path = dir_ / "long.json";
  {
    std::ofstream out(path, std::ios::binary);
    out << IssueLine(1, "\"good\"") << "\n{\"type\":\"PushEvent\",\"x\":\"";
    const std::string block(1 << 20, 'a');
    for (int i = 0; i < 100; ++i) out << block;
    out << "\"}\n" << PushLine(3) << "\n";
  }
  const auto before = Stats();
  const CommandResult r = Ingest(path);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(path + ":2:1: bad record skipped: line longer than 67108864 bytes"), std::string::npos)
      << r.output;
  const auto after = Stats();
  EXPECT_EQ(Get(after, "events"), Get(before, "events") + 2);
  EXPECT_EQ(Get(after, "bad_lines"), Get(before, "bad_lines") + 1);
}

// ---- glued records (`}{`): each counted, a broken one costs only itself -------------------

TEST_F(BadInputTest, GluedRecordsAreEachCounted) {
  ExpectLines("glued.json", Sandwich(PushLine(10) + IssueLine(11, "\"x\"") + PushLine(12)), 5, 0, {});
}

TEST_F(BadInputTest, ABrokenRecordInsideGluedRecordsCostsOnlyItself) {
  const std::string first = PushLine(10);
  const std::string broken = IssueLine(11, "", "{\"issue\":{\"number\" 11}}");  // closes, but is not JSON
  const std::string bad_time = "{\"id\":\"12\",\"type\":\"PushEvent\",\"created_at\":\"yesterday\"}";
  const std::string line = first + broken + bad_time + IssueLine(13, "\"x\"") + PushLine(14);
  ExpectLines("glued-broken.json", Sandwich(line), 5, 2,
              {{2, "invalid JSON", first.size() + 1}, {2, "`created_at` is not a time", first.size() + broken.size() + 1}});
}

TEST_F(BadInputTest, ABrokenFirstRecordOfGluedRecordsCostsOnlyItself) {
  const std::string broken = "{\"id\":\"9\",\"type\":\"PushEvent\",\"repo\":}";
  ExpectLines("glued-first-broken.json", Sandwich(broken + PushLine(10) + PushLine(11)), 4, 1, {{2, "invalid JSON", 1}});
}

TEST_F(BadInputTest, ATruncatedLastGluedRecordCostsOnlyItself) {
  const std::string first = PushLine(10) + PushLine(11);
  const std::string cut = PushLine(12).substr(0, 40);
  ExpectLines("glued-truncated.json", Sandwich(first + cut), 4, 1, {{2, "invalid JSON", first.size() + 1}});
}

// A record cut short leaves no `}` before the next record's `{`: the records after it, up to the
// next `}{"`, were lost with it and not counted.
TEST_F(BadInputTest, ATruncatedRecordInsideGluedRecordsCostsOnlyItself) {
  const std::string first = PushLine(10);
  const std::string cut = PushLine(11).substr(0, 40);  // ends in `"actor":{"`
  ExpectLines("glued-cut-inside.json", Sandwich(first + cut + PushLine(12) + PushLine(13)), 5, 1,
              {{2, "invalid JSON", first.size() + 1}});
}

TEST_F(BadInputTest, ARecordCutInsideAStringInTheMiddleOfThreeCostsOnlyItself) {
  const std::string first = PushLine(10);
  const std::string whole = PushLine(11);
  const std::string cut = whole.substr(0, whole.find("\"u\"") + 2);  // ends in `"login":"u`
  ExpectLines("glued-cut-string.json", Sandwich(first + cut + PushLine(12)), 4, 1,
              {{2, "invalid JSON", first.size() + 1}});
}

TEST_F(BadInputTest, ATruncatedFirstGluedRecordCostsOnlyItself) {
  const std::string cut = PushLine(9).substr(0, 40);
  ExpectLines("glued-cut-first.json", Sandwich(cut + PushLine(10) + PushLine(11)), 4, 1, {{2, "invalid JSON", 1}});
  // No `}{"` anywhere on the line.
  ExpectLines("glued-cut-first-of-two.json", Sandwich(cut + PushLine(10)), 3, 1, {{2, "invalid JSON", 1}});
}

// `}{"` inside a record (a string ending in `}{`) is no boundary, after a damaged record too.
TEST_F(BadInputTest, AStringEndingInTheJoinBytesDoesNotSplitAGluedRecord) {
  const std::string odd = IssueLine(11, "\"x}{\"");
  ExpectLines("glued-join-in-string.json", Sandwich(PushLine(10) + odd + PushLine(12)), 5, 0, {});
  ExpectLines("glued-join-in-string-after-cut.json", Sandwich(PushLine(10).substr(0, 40) + odd + PushLine(12)), 4, 1,
              {{2, "invalid JSON", 1}});
  EXPECT_EQ(IssuesOfPlantedRepo(), 2);
}

// The objects inside a damaged record are not records: not one the cut leaves last on the line,
// nor one with a `type` and a `created_at` of its own (a followed user) that the next record follows.
TEST_F(BadInputTest, NoRecordIsMadeOfAnObjectInsideADamagedGluedRecord) {
  const std::string first = PushLine(10) + PushLine(11);
  const std::string ends_in_repo = PushLine(12).substr(0, PushLine(12).find(",\"payload\""));
  ExpectLines("glued-cut-after-object.json", Sandwich(first + ends_in_repo), 4, 1,
              {{2, "invalid JSON", first.size() + 1}});
  const std::string target = R"({"target":{"login":"v","type":"User","created_at":"2011-01-01T00:00:00Z"}})";
  const std::string follow = PushLine(13, target);
  const std::string ends_in_target = follow.substr(0, follow.find("}}") + 1);
  // Read with the record after it, the cut one seems to go on past its end.
  ExpectLines("glued-cut-after-user.json", Sandwich(PushLine(10) + ends_in_target + PushLine(14)), 4, 1,
              {{2, "trailing content after the JSON object", PushLine(10).size() + 1}});
}

TEST_F(BadInputTest, DeeplyNestedJsonIsABadLine) {
  ExpectLines("nested.json", Sandwich("{\"a\":" + std::string(100000, '[')), 2, 1, {{2, "invalid JSON"}});
}

TEST_F(BadInputTest, DeeplyNestedIssuePayloadIsABadLine) {
  ExpectLines("nested-issue.json", Sandwich(IssueLine(2, "", std::string(100000, '['))), 2, 1,
              {{2, "invalid JSON"}});
}

TEST_F(BadInputTest, PayloadThatIsAStringCountsTheEventOnly) {
  // The envelope is fine, the payload is not an object: the event counts, no report comes of it.
  ExpectLines("payload-string.json", Sandwich(IssueLine(2, "", "\"hello\"")), 3, 0, {});
  EXPECT_EQ(IssuesOfPlantedRepo(), 1);
}

TEST_F(BadInputTest, NumberWhereAStringIsExpected) {
  // A numeric type makes the envelope unusable; a numeric title is a missing title.
  ExpectLines("type-number.json", Sandwich(PushLine(2).replace(PushLine(2).find("\"PushEvent\""), 11, "5")), 2, 1,
              {{2, "`type` is not a string"}});
  ExpectLines("title-number.json", Sandwich(IssueLine(2, "123")), 3, 0, {});
  EXPECT_EQ(IssuesOfPlantedRepo(), 2);
}

TEST_F(BadInputTest, IssueNumberStringThatOverflowsIsNotAReport) {
  // Ids and numbers may be strings; a digit string beyond int64 must count as absent. IntOr in
  // engine/json/event_extractor.cpp multiplies without an overflow check (undefined behaviour):
  // "18446744073709551621" (2^64 + 5) wraps to 5 and creates a bogus report o/r#5.
  std::string line = IssueLine(2, "\"t\"");
  line.replace(line.find("\"number\":2"), 10, "\"number\":\"18446744073709551621\"");
  ExpectLines("overflow.json", Sandwich(line), 3, 0, {});
  EXPECT_EQ(IssuesOfPlantedRepo(), 1) << "an overflowing issue number made a report";
}

TEST_F(BadInputTest, DuplicateKeysAreReadWithoutCrashing) {
  // The last `type` wins (PushEvent): three events, the planted issue is only the good one.
  std::string line = IssueLine(2, "\"t\"");
  line.replace(line.find("\"type\":\"IssuesEvent\""), 20, "\"type\":\"IssuesEvent\",\"type\":\"PushEvent\"");
  ExpectLines("dup-type.json", Sandwich(line), 3, 0, {});
  EXPECT_EQ(IssuesOfPlantedRepo(), 1);
  ExpectLines("dup-title.json", Sandwich(IssueLine(2, "\"first\",\"title\":\"second\"")), 3, 0, {});
  EXPECT_EQ(IssuesOfPlantedRepo(), 2);
}

// A file in which no line is an event is another kind of file, not a damaged hour: it fails
// whole (issue 14, item 6) instead of adding its lines to bad_lines.
TEST_F(BadInputTest, FileThatIsNotJsonAtAll) {
  ExpectFileFails("notjson.json", std::string("hello world\nthis is not json\n\x89PNG\r\n\x1a\n\0\0binary\n", 46),
                  "not a GH Archive dump: none of its 5 lines is a GH Archive event (line 1: not a JSON object)");
}

TEST_F(BadInputTest, JsonThatIsNotEventsIsNotADump) {
  ExpectFileFails("config.ndjson", "{\"name\": \"x\"}\n{\"name\": \"y\"}\n",
                  "not a GH Archive dump: none of its 2 lines is a GH Archive event (line 1: no `type`)");
}

TEST_F(BadInputTest, OneEventAmongBadLinesIsADamagedDump) {
  ExpectLines("mostly-bad.json", "hello\n" + PushLine(1) + "\nworld\n", 1, 2,
              {{1, "not a JSON object"}, {3, "not a JSON object"}});
}

TEST_F(BadInputTest, CompressionIsReadFromTheBytesNotTheName) {
  // The generated gzip hour under a plain name, and as a copy under another name.
  const std::string gz = dir_ / "good/2024-01-01-0.json.gz";
  const std::string renamed = dir_ / "renamed.json";
  ASSERT_EQ(RunCommand("cp '" + gz + "' '" + renamed + "'").exit_code, 0);
  const CommandResult r = RunCommand(Ghsift() + " ingest --all-repos --store '" + store_ + "' '" + renamed + "'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(renamed + ": skipped, same content as 2024-01-01-0.json.gz, already ingested"),
            std::string::npos)
      << r.output;
  // Both in one run into a new store: one is counted, the other said to be the same bytes as a
  // file of this very run (not "already ingested", which the store had not).
  const CommandResult both = RunCommand(Ghsift() + " ingest --threads 1 --all-repos --store '" + (dir_ / "both") +
                                        "' '" + gz + "' '" + renamed + "'");
  EXPECT_EQ(both.exit_code, 0) << both.output;
  EXPECT_NE(both.output.find(": skipped, same content as "), std::string::npos) << both.output;
  EXPECT_NE(both.output.find(", ingested in this run"), std::string::npos) << both.output;
  EXPECT_EQ(both.output.find("already ingested"), std::string::npos) << both.output;
  // Into a new store it is inflated and counted like the original.
  const std::string other = dir_ / "other";
  const CommandResult fresh = RunCommand(Ghsift() + " ingest -q --all-repos --store '" + other + "' '" + renamed + "'");
  EXPECT_EQ(fresh.exit_code, 0) << fresh.output;
  const auto mine = Stats();
  store_ = other;
  const auto theirs = Stats();
  EXPECT_EQ(Get(theirs, "events"), Get(mine, "events"));
  EXPECT_EQ(Get(theirs, "bad_lines"), 0);
}

// A re-run knows an ingested file by name, size and modification time without reading it;
// --verify reads and hashes it again (issue 14, item 7).
TEST_F(BadInputTest, RerunTrustsNameSizeAndTimeVerifyRehashes) {
  const std::string file = dir_ / "good/2024-01-01-0.json.gz";
  const std::string ref = dir_ / "mtime-ref";
  // Same size, one byte changed in the middle, modification time put back.
  ASSERT_EQ(RunCommand("cp -p '" + file + "' '" + ref + "' && printf 'Z' | dd of='" + file +
                       "' bs=1 seek=$(( $(stat -c %s '" + file + "') / 2 )) conv=notrunc status=none && touch -r '" +
                       ref + "' '" + file + "'")
                .exit_code,
            0);
  const CommandResult trusted = IngestSayingSkips(file);
  EXPECT_EQ(trusted.exit_code, 0) << trusted.output;
  EXPECT_NE(trusted.output.find(file + ": skipped, already ingested"), std::string::npos) << trusted.output;
  const CommandResult verified = Ingest(file, "--verify");
  EXPECT_EQ(verified.exit_code, 2) << verified.output;
  EXPECT_NE(verified.output.find(file + ": changed since it was ingested"), std::string::npos) << verified.output;
  // A newer modification time alone makes ingest hash the file: same bytes, still skipped.
  ASSERT_EQ(RunCommand("cp -p '" + ref + "' '" + file + "' && touch '" + file + "'").exit_code, 0);
  const CommandResult touched = IngestSayingSkips(file);
  EXPECT_EQ(touched.exit_code, 0) << touched.output;
  EXPECT_NE(touched.output.find(file + ": skipped, already ingested"), std::string::npos) << touched.output;
}

// An hour served or saved empty (a gzip member of no bytes) is recorded as such, and said; the
// real copy of the hour, read later under the same name, takes its place and counts exactly as if
// the empty copy had never been read. Before, the real copy was refused for good ("changed since
// it was ingested", and --replace took only copies with bad lines).
TEST_F(BadInputTest, AnEmptyHourGivesWayToItsRealCopy) {
  GenCorpus(dir_ / "two", 2, 200, 11, "gz");
  const std::string name = "2024-01-01-1.json.gz";
  ASSERT_EQ(RunCommand("mkdir -p '" + (dir_ / "served") + "'").exit_code, 0);
  const std::string empty = dir_ / ("served/" + name);
  WriteAll(empty, std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x03\x00", 12) + std::string(8, '\0'));
  const auto before = Stats();
  const CommandResult first = Ingest(empty);
  EXPECT_EQ(first.exit_code, 0) << first.output;
  EXPECT_NE(first.output.find(empty + ": holds no event: recorded as an empty hour (a copy of it with events takes "
                                      "its place)"),
            std::string::npos)
      << first.output;
  EXPECT_EQ(Get(Stats(), "files"), Get(before, "files") + 1);

  const std::string real = dir_ / ("two/" + name);
  const CommandResult second = Ingest(real);
  EXPECT_EQ(second.exit_code, 0) << second.output;
  EXPECT_NE(second.output.find(real + ": took the place of the empty copy of this hour the store held"),
            std::string::npos)
      << second.output;
  // The store now equals one that read the good hour and the real copy only.
  const auto replaced = Stats();
  const std::string mine = store_;
  store_ = dir_ / "reference";
  ASSERT_EQ(Ingest(dir_ / "good/2024-01-01-0.json.gz").exit_code, 0);
  ASSERT_EQ(Ingest(real).exit_code, 0);
  EXPECT_EQ(replaced, Stats());
  const std::string query = " query --kind all --by repo,type --metric events --format csv --store ";
  EXPECT_EQ(RunCommand(Ghsift() + query + "'" + mine + "'").output,
            RunCommand(Ghsift() + query + "'" + store_ + "'").output);
  // A copy the store holds with events is not replaced by another without --replace.
  const CommandResult again = Ingest(empty);
  EXPECT_EQ(again.exit_code, 2) << again.output;
  EXPECT_NE(again.output.find("changed since it was ingested"), std::string::npos) << again.output;
}

// One hour read as .json.gz and again as .json.zst (or .json, or with its hour written 02) is
// counted once: the later copy is refused by name, whether the store holds the other or this run
// reads it. Before, each name was a file of its own and the hour counted two or three times.
TEST_F(BadInputTest, OneHourUnderTwoNamesIsCountedOnce) {
  GenCorpus(dir_ / "zst", 1, 200, 11, "zst");
  const std::string zst = dir_ / "zst/2024-01-01-0.json.zst";
  const auto before = Stats();
  const CommandResult held = Ingest(zst);
  EXPECT_EQ(held.exit_code, 2) << held.output;
  EXPECT_NE(held.output.find(zst + ": the store holds this hour as 2024-01-01-0.json.gz (another copy of the same "
                                   "hour); refusing to count it twice"),
            std::string::npos)
      << held.output;
  EXPECT_EQ(Stats(), before);

  // In one run into a new store: the first name read, the second refused.
  ASSERT_EQ(RunCommand("mkdir -p '" + (dir_ / "padded") + "' && cp '" + (dir_ / "good/2024-01-01-0.json.gz") + "' '" +
                       (dir_ / "padded/2024-01-01-00.json.gz") + "'")
                .exit_code,
            0);
  store_ = dir_ / "one-run";
  const CommandResult both = RunCommand(Ghsift() + " ingest -q --all-repos --store '" + store_ + "' '" + zst + "' '" +
                                        (dir_ / "padded/2024-01-01-00.json.gz") + "'");
  EXPECT_EQ(both.exit_code, 2) << both.output;
  EXPECT_NE(both.output.find("2024-01-01-00.json.gz: the same hour as 2024-01-01-0.json.zst, named before it in "
                             "this run; only that one is read"),
            std::string::npos)
      << both.output;
  EXPECT_EQ(Get(Stats(), "files"), 1);
  EXPECT_EQ(Get(Stats(), "events"), Get(before, "events"));
}

// A FIFO named as an input is refused at once: opened for reading it would wait for a writer,
// and that wait ignored a stop request.
TEST_F(BadInputTest, AFifoIsRefusedWithoutWaitingForAWriter) {
  const std::string fifo = dir_ / "2024-01-01-3.json.gz";
  ASSERT_EQ(RunCommand("mkfifo '" + fifo + "'").exit_code, 0);
  const auto before = Stats();
  const CommandResult r = RunCommand("timeout 60 " + Ghsift() + " ingest -q --all-repos --store '" + store_ + "' '" +
                                     fifo + "'");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(fifo + ": not a regular file"), std::string::npos) << r.output;
  auto after = Stats();
  EXPECT_EQ(Get(after, "failed_files"), Get(before, "failed_files") + 1);
}

TEST_F(BadInputTest, DirectoryWithoutDumpsIsAnError) {
  const std::string empty = dir_ / "nothing-here";
  ASSERT_EQ(RunCommand("mkdir -p '" + empty + "/sub' && cp '" + (dir_ / "good/2024-01-01-0.json.gz") + "' '" + empty +
                       "/sub/'")
                .exit_code,
            0);
  const CommandResult r = Ingest(empty);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(empty + ": no GH Archive dumps in this directory"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--recursive descends"), std::string::npos) << r.output;
  // --recursive finds the hour below (already in the store: skipped, not an error).
  const CommandResult deep = RunCommand(Ghsift() + " ingest --all-repos --recursive --store '" + store_ + "' '" + empty + "'");
  EXPECT_EQ(deep.exit_code, 0) << deep.output;
  EXPECT_NE(deep.output.find("sub/2024-01-01-0.json.gz: skipped, already ingested"), std::string::npos) << deep.output;
}

// ---- rule files ---------------------------------------------------------------------------

class BadRulesTest : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("GHSIFT_NO_RULE_CACHE", "1", 1); }
  void TearDown() override { ::unsetenv("GHSIFT_NO_RULE_CACHE"); }

  //! `rules check` and `ingest` both refuse the rule file with `message`, and ingest creates
  //! no store.
  void ExpectRefused(const std::string& yaml, const std::string& message) {
    const std::string rules = dir_ / "rules.yaml";
    WriteAll(rules, yaml);
    const CommandResult check = RunCommand(Ghsift() + " rules check --rules '" + rules + "'");
    EXPECT_EQ(check.exit_code, 2) << check.output;
    EXPECT_NE(check.output.find(rules + ": " + message), std::string::npos) << check.output;
    WriteAll(dir_ / "one.json", Sandwich(PushLine(2)));
    const CommandResult ingest = RunCommand(Ghsift() + " ingest -q --all-repos --store '" + (dir_ / "store") +
                                            "' --rules '" + rules + "' '" + (dir_ / "one.json") + "'");
    EXPECT_EQ(ingest.exit_code, 2) << ingest.output;
    EXPECT_NE(ingest.output.find(rules + ": " + message), std::string::npos) << ingest.output;
    EXPECT_FALSE(std::filesystem::exists(dir_ / "store")) << "a refused rule set created a store";
  }
  TempDir dir_;
};

TEST_F(BadRulesTest, InvalidPatternNamesFileRuleAndHyperscanMessage) {
  ExpectRefused("rules:\n  - id: perf.ok\n    tag: performance/speed\n    pattern: 'slow'\n"
                "  - id: perf.broken\n    tag: performance/speed\n    pattern: 'slow(er'\n",
                "rule 'perf.broken' (line 5): pattern 'slow(er': Missing close parenthesis");
}

TEST_F(BadRulesTest, DuplicateIdIsRefused) {
  ExpectRefused("rules:\n  - id: perf.same\n    tag: performance/speed\n    pattern: 'slow'\n"
                "  - id: perf.same\n    tag: performance/speed\n    pattern: 'fast'\n",
                "rule 'perf.same' (line 5): duplicate id");
}

}  // namespace
}  // namespace ghsift
