#include "rules/rule_database.hpp"

#include "common/hash.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <set>
#include <vector>

namespace ghsift {
namespace {

// Compiling the default rule set takes seconds; a serialized database loads in milliseconds.
// Databases are cached by a hash of everything that shapes them (patterns, flags, ids, mode,
// Hyperscan version); a damaged or foreign cache file is ignored and rewritten.
std::string CacheDir() {
  if (const char* dir = std::getenv("GHSIFT_CACHE_DIR")) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME")) return std::string(xdg) + "/ghsift";
  if (const char* home = std::getenv("HOME")) return std::string(home) + "/.cache/ghsift";
  return {};
}

std::string CacheFile(const std::vector<const char*>& patterns, const std::vector<unsigned>& flags,
                      const std::vector<unsigned>& ids) {
  const std::string dir = CacheDir();
  if (dir.empty() || std::getenv("GHSIFT_NO_RULE_CACHE") != nullptr) return {};
  std::ostringstream key;
  key << hs_version() << '\n';
  for (size_t i = 0; i < patterns.size(); ++i) key << ids[i] << ' ' << flags[i] << ' ' << patterns[i] << '\n';
  const std::string text = key.str();
  char name[64];
  std::snprintf(name, sizeof name, "/%016llx-%zu.hsdb", static_cast<unsigned long long>(Fnv1a64(text)), text.size());
  return dir + name;
}

hs_database_t* LoadCached(const std::string& file) {
  if (file.empty()) return nullptr;
  std::ifstream in(file, std::ios::binary);
  if (!in) return nullptr;
  std::stringstream bytes;
  bytes << in.rdbuf();
  const std::string data = bytes.str();
  hs_database_t* db = nullptr;
  if (hs_deserialize_database(data.data(), data.size(), &db) != HS_SUCCESS) return nullptr;
  return db;
}

void StoreCached(const std::string& file, const hs_database_t* db) {
  if (file.empty()) return;
  char* bytes = nullptr;
  size_t length = 0;
  if (hs_serialize_database(db, &bytes, &length) != HS_SUCCESS) return;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(file).parent_path(), ec);
  // Write then rename, so that a concurrent reader never sees half a file.
  const std::string temp = file + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::binary);
    out.write(bytes, static_cast<std::streamsize>(length));
  }
  std::free(bytes);
  std::filesystem::rename(temp, file, ec);
  if (ec) std::filesystem::remove(temp, ec);
}

}  // namespace

Result<unsigned> HyperscanFlags(const Rule& rule, RuleDatabase::Mode mode) {
  unsigned flags = HS_FLAG_UTF8;
  flags |= mode == RuleDatabase::Mode::kFlag ? HS_FLAG_SINGLEMATCH : HS_FLAG_SOM_LEFTMOST;
  for (const std::string& f : rule.flags) {
    if (f == "caseless") flags |= HS_FLAG_CASELESS;
    else if (f == "dotall") flags |= HS_FLAG_DOTALL;
    else if (f == "multiline") flags |= HS_FLAG_MULTILINE;
    else if (f == "ucp") flags |= HS_FLAG_UCP;
    else return Status::InvalidArgument(rule.source + ": rule '" + rule.id + "': unknown flag '" + f + "'");
  }
  return flags;
}

namespace {

//! Compiles the rules of one field into `out` (or loads them from the cache).
Status CompileField(const RuleSet& rules, Field field, RuleDatabase::Mode mode, hs_database_t** out,
                    std::set<uint32_t>* without_start) {
  std::vector<const char*> patterns;
  std::vector<unsigned> flags;
  std::vector<unsigned> ids;
  for (size_t i = 0; i < rules.rules.size(); ++i) {
    const Rule& rule = rules.rules[i];
    if (!(rule.fields & MaskOf(field))) continue;
    auto rule_flags = HyperscanFlags(rule, mode);
    if (!rule_flags.ok()) return rule_flags.status();
    patterns.push_back(rule.pattern.c_str());
    flags.push_back(*rule_flags);
    ids.push_back(static_cast<unsigned>(i));
  }
  if (patterns.empty()) return Status::Ok();
  const std::string cache_file = CacheFile(patterns, flags, ids);
  *out = LoadCached(cache_file);
  if (*out != nullptr) {
    // Rules compiled without start offsets are listed beside the cached database.
    std::ifstream list(cache_file + ".nostart");
    for (uint32_t id; without_start != nullptr && list >> id;) without_start->insert(id);
    return Status::Ok();
  }
  hs_compile_error_t* error = nullptr;
  hs_error_t rc;
  while (true) {
    rc = hs_compile_multi(patterns.data(), flags.data(), ids.data(), static_cast<unsigned>(patterns.size()),
                          HS_MODE_BLOCK, nullptr, out, &error);
    // Start offsets (explain mode) are refused for some patterns with long gaps: such a rule
    // then reports where its matches end only, instead of failing the whole explanation.
    const bool retry = rc != HS_SUCCESS && error != nullptr && error->expression >= 0 &&
                       (flags[static_cast<size_t>(error->expression)] & HS_FLAG_SOM_LEFTMOST);
    if (!retry) break;
    flags[static_cast<size_t>(error->expression)] &= ~static_cast<unsigned>(HS_FLAG_SOM_LEFTMOST);
    if (without_start != nullptr) without_start->insert(ids[static_cast<size_t>(error->expression)]);
    hs_free_compile_error(error);
    error = nullptr;
  }
  if (rc != HS_SUCCESS) {
    std::string message = error != nullptr && error->message != nullptr ? error->message : "compile failed";
    std::string where = "rule set";
    if (error != nullptr && error->expression >= 0 && static_cast<size_t>(error->expression) < ids.size()) {
      const Rule& bad = rules.rules[ids[static_cast<size_t>(error->expression)]];
      where = bad.source + ": rule '" + bad.id + "': pattern '" + bad.pattern + "'";
    }
    hs_free_compile_error(error);
    return Status::InvalidArgument(where + ": " + message);
  }
  if (without_start != nullptr && !without_start->empty() && !cache_file.empty()) {
    std::ofstream list(cache_file + ".nostart");
    for (uint32_t id : *without_start) list << id << '\n';
  }
  StoreCached(cache_file, *out);
  return Status::Ok();
}

}  // namespace

Result<std::shared_ptr<const RuleDatabase>> RuleDatabase::Compile(const RuleSet& rules, Mode mode) {
  std::shared_ptr<RuleDatabase> db(new RuleDatabase(rules, mode));
  for (int f = 0; f < kFieldCount; ++f) {
    GHSIFT_TRY(CompileField(rules, static_cast<Field>(f), mode, &db->databases_[f], &db->without_start_));
    if (db->databases_[f] != nullptr && hs_alloc_scratch(db->databases_[f], &db->scratch_) != HS_SUCCESS) {
      return Status::InvalidArgument("Hyperscan could not allocate scratch space");
    }
  }
  return std::shared_ptr<const RuleDatabase>(std::move(db));
}

RuleDatabase::~RuleDatabase() {
  for (hs_database_t* db : databases_) {
    if (db != nullptr) hs_free_database(db);
  }
  if (scratch_ != nullptr) hs_free_scratch(scratch_);
}

size_t RuleDatabase::database_bytes() const {
  size_t total = 0;
  for (const hs_database_t* db : databases_) {
    size_t size = 0;
    if (db != nullptr && hs_database_size(db, &size) == HS_SUCCESS) total += size;
  }
  return total;
}

}  // namespace ghsift
