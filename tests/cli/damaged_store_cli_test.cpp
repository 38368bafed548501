// A store with a table file missing or damaged is refused by every command that reads it, with
// "the store is damaged" and what to do, never answered from as if that part had not been
// written: RocksDB's secondary instance, which readers used even with no writer, opened the newest
// view whose files it could all read, and `issues` then listed nothing with exit 1, `query` and
// `report` answered empty with exit 0, and `stats` said "nothing ingested yet".
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "test_support.hpp"

namespace ghsift::testing {
namespace {

namespace fs = std::filesystem;

class DamagedStoreTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    const CommandResult r =
        RunCommand(Ghsift() + " ingest -q --store " + Intact() + " " + GHSIFT_SOURCE_DIR + "/tests/data/sample");
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string Intact() { return *dir_ / "intact"; }

  //! The store's table files, in name order.
  static std::vector<fs::path> TableFiles(const std::string& store) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(store)) {
      if (entry.path().extension() == ".sst") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
  }

  //! A copy of the intact store, to damage.
  static std::string Copy(const std::string& name) {
    const std::string copy = *dir_ / name;
    fs::remove_all(copy);
    fs::copy(Intact(), copy, fs::copy_options::recursive);
    return copy;
  }

  //! A copy of the intact store with 8 bytes overwritten at offset 200 of its k-th table file (in
  //! its first data block: RocksDB opens the file, and a read of that block fails its checksum),
  //! and with `spread`, every 1,000 bytes after it through the first half of the file (every data
  //! block there); "" when that file is too small to hold a data block there.
  static std::string WithDataBlocksDamaged(size_t k, const std::string& name, bool spread) {
    const std::string store = Copy(name);
    const fs::path damaged = TableFiles(store)[k];
    const auto size = static_cast<std::streamoff>(fs::file_size(damaged));
    if (size < 1024) return "";
    std::fstream file(damaged, std::ios::in | std::ios::out | std::ios::binary);
    for (std::streamoff at = 200; at == 200 || (spread && at < size / 2); at += 1000) {
      file.seekp(at);
      file.write("\xde\xad\xbe\xef\xde\xad\xbe\xef", 8);
    }
    return store;
  }

  //! Every reading command on `store` exits 2 and says the store is damaged, naming `file`.
  static void ExpectRefused(const std::string& store, const std::string& file) {
    const std::string commands[] = {"stats", "query --by category", "issues --category performance",
                                    "sample --category silent --n 5 --seed 1", "report --out " + store + "-report"};
    for (const std::string& command : commands) {
      const CommandResult r = RunCommand(Ghsift() + " " + command + " --store " + store);
      EXPECT_EQ(r.exit_code, 2) << command << " with " << file << ": " << r.output;
      EXPECT_NE(r.output.find("ghsift: " + store + ": cannot open the store: the store is damaged (RocksDB: "),
                std::string::npos)
          << command << " with " << file << ": " << r.output;
      EXPECT_NE(r.output.find(file), std::string::npos) << command << ": " << r.output;
      EXPECT_NE(r.output.find("); restore it from a backup (`ghsift restore`) or ingest its hours into a new store\n"),
                std::string::npos)
          << command << ": " << r.output;
    }
  }

  static TempDir* dir_;
};
TempDir* DamagedStoreTest::dir_ = nullptr;

TEST_F(DamagedStoreTest, TheIntactStoreAnswers) {
  const CommandResult r = RunCommand(Ghsift() + " query --by category --format csv --store " + Intact());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.rfind("category,issues\n", 0), 0u) << r.output;
  EXPECT_GT(TableFiles(Intact()).size(), 3u);
}

// Whichever table file is gone (each family's: the listing index, the counters, the meta), no
// command answers without it.
TEST_F(DamagedStoreTest, EveryCommandRefusesAStoreWithATableFileMissing) {
  const size_t files = TableFiles(Intact()).size();
  for (size_t k = 0; k < files; ++k) {
    const std::string store = Copy("missing-" + std::to_string(k));
    const fs::path gone = TableFiles(store)[k];
    fs::remove(gone);
    ExpectRefused(store, gone.stem().string());
  }
}

// Bytes flipped just before a table file's footer (its metaindex block, which RocksDB reads and
// checks when it opens the file).
TEST_F(DamagedStoreTest, EveryCommandRefusesAStoreWithATableFileDamaged) {
  const size_t files = TableFiles(Intact()).size();
  for (size_t k = 0; k < files; ++k) {
    const std::string store = Copy("damaged-" + std::to_string(k));
    const fs::path damaged = TableFiles(store)[k];
    std::fstream file(damaged, std::ios::in | std::ios::out | std::ios::binary);
    const auto size = static_cast<std::streamoff>(fs::file_size(damaged));
    constexpr std::streamoff kFooterBytes = 53;
    file.seekg(size - kFooterBytes - 12);
    char bytes[8];
    file.read(bytes, sizeof bytes);
    for (char& c : bytes) c = static_cast<char>(~c);
    file.seekp(size - kFooterBytes - 12);
    file.write(bytes, sizeof bytes);
    file.close();
    ExpectRefused(store, damaged.filename().string());
  }
}

// A block that fails its checksum while a command reads is said as such, whichever family's it
// is: never taken for a report that is not there ("the listing index names reports the store
// does not hold", "the store changed while the sample was drawn"), which a key-by-key read did
// when the next seek cleared the iterator's error.
TEST_F(DamagedStoreTest, ADamagedBlockIsSaidNotTakenForAMissingReport) {
  const std::string commands[] = {"stats", "query --by category", "issues --kind all --limit 0",
                                  "issues --kind all --limit 0 --scan", "issues --kind all --limit 3",
                                  "sample --category performance,accuracy,silent --n 1000 --seed 1"};
  size_t refused = 0;
  for (size_t k = 0; k < TableFiles(Intact()).size(); ++k) {
    const std::string store = WithDataBlocksDamaged(k, "block-" + std::to_string(k), false);
    if (store.empty()) continue;
    for (const std::string& command : commands) {
      const CommandResult r = RunCommand(Ghsift() + " " + command + " --store " + store);
      if (r.exit_code == 0) continue;  // a block this command does not read
      ++refused;
      EXPECT_EQ(r.exit_code, 2) << command << ": " << r.output;
      EXPECT_NE(r.output.find(": the store is damaged (RocksDB: Corruption: "),
                std::string::npos)
          << command << " with table file " << k << ": " << r.output;
    }
  }
  EXPECT_GE(refused, 10u);
}

// `sample --out` writes its file whole or not at all: each run that fails leaves the earlier file
// as it was and no temporary beside it; one of them fails part-way, reading the drawn reports'
// texts while it writes the rows (it wrote 47 of 69 rows and kept them).
TEST_F(DamagedStoreTest, ASampleThatFailsPartWayLeavesTheEarlierFile) {
  size_t failed_after_the_draw = 0;
  for (size_t k = 0; k < TableFiles(Intact()).size(); ++k) {
    const std::string store = WithDataBlocksDamaged(k, "sample-block-" + std::to_string(k), true);
    if (store.empty()) continue;
    const std::string out = *dir_ / ("sample-" + std::to_string(k) + ".csv");
    std::ofstream(out) << "an earlier sample\n";
    const CommandResult r = RunCommand(Ghsift() + " sample --category performance,accuracy,silent --n 1000 --seed 1" +
                                       " --store " + store + " --out " + out);
    if (r.exit_code == 0) continue;  // a block the sample does not read
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_EQ(ReadText(out), "an earlier sample\n") << r.output;
    for (const auto& entry : fs::directory_iterator(dir_->path())) {
      EXPECT_EQ(entry.path().filename().string().find(".sample-"), std::string::npos) << entry.path();
    }
    failed_after_the_draw += r.output.find("ghsift: drawn with --seed 1") != std::string::npos;
  }
  EXPECT_GE(failed_after_the_draw, 1u);
}

}  // namespace
}  // namespace ghsift::testing
