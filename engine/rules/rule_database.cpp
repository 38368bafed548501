#include "rules/rule_database.hpp"

#include "common/hash.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
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

// Hyperscan zeroes a database's memory and then copies the bytecode in: on a fresh allocation
// every page faults at its first touch, one trap per 4 KiB (about 900 for the default set's
// 3.5 MB, most of the 12 ms its load took on these virtual machines, on every run's critical
// path). A mapping populated in one call gives the pages without the traps. Every database,
// compiled or loaded, comes from here, so that hs_free_database() frees each the same way; the
// allocator is set during static initialization, before any database exists.
constexpr size_t kDatabaseHeader = 64;  // room for the size, keeping the bytecode 64-byte aligned

void* AllocateDatabase(size_t size) {
  const size_t total = size + kDatabaseHeader;
  void* base = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (base == MAP_FAILED) return nullptr;
  *static_cast<size_t*>(base) = total;
  return static_cast<char*>(base) + kDatabaseHeader;
}

void FreeDatabase(void* memory) {
  if (memory == nullptr) return;
  char* base = static_cast<char*>(memory) - kDatabaseHeader;
  ::munmap(base, *reinterpret_cast<const size_t*>(base));
}

[[maybe_unused]] const bool kDatabaseAllocatorSet = hs_set_database_allocator(AllocateDatabase, FreeDatabase) == HS_SUCCESS;

hs_database_t* LoadCached(const std::string& file) {
  if (file.empty()) return nullptr;
  // Deserialized straight from a mapping of the file: a database is megabytes, and reading it
  // through a stream, or into a zero-filled buffer, copied it more than once (a tenth of a second
  // of every run's start).
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st {};
  void* bytes = MAP_FAILED;
  if (::fstat(fd, &st) == 0 && st.st_size > 0) {
    bytes = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  }
  ::close(fd);
  if (bytes == MAP_FAILED) return nullptr;
  hs_database_t* db = nullptr;
  const hs_error_t rc = hs_deserialize_database(static_cast<const char*>(bytes), static_cast<size_t>(st.st_size), &db);
  ::munmap(bytes, static_cast<size_t>(st.st_size));
  return rc == HS_SUCCESS ? db : nullptr;
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
    else return Status::InvalidArgument(RulePlace(rule) + ": unknown flag '" + f + "'");
  }
  return flags;
}

Status CheckPatternAlone(const Rule& rule, unsigned flags) {
  hs_expr_info_t* info = nullptr;
  hs_compile_error_t* error = nullptr;
  Status status;
  if (hs_expression_info(rule.pattern.c_str(), flags, &info, &error) != HS_SUCCESS) {
    const std::string message = error != nullptr && error->message != nullptr ? error->message : "compile failed";
    status = Status::InvalidArgument(RulePlace(rule) + ": pattern '" + rule.pattern + "': " + message);
  }
  hs_free_compile_error(error);
  std::free(info);
  return status;
}

namespace {

//! Every pattern of `members` Hyperscan refuses on its own, each with its rule's place, after a
//! compile that failed with `first` (the first of them). This costs a failed load only.
Status EveryBadPattern(const RuleSet& rules, const std::vector<uint32_t>& members, const std::vector<unsigned>& flags,
                       const std::string& first) {
  std::vector<std::string> errors;
  for (size_t k = 0; k < members.size(); ++k) {
    if (Status s = CheckPatternAlone(rules.rules[members[k]], flags[k]); !s.ok()) errors.push_back(s.message());
  }
  if (errors.size() <= 1) return Status::InvalidArgument(first);  // a pattern too large together, say
  std::string text = std::to_string(errors.size()) + " rules do not compile:";
  for (const std::string& error : errors) text += "\n" + error;
  return Status::InvalidArgument(text);
}

//! Compiles the rules `members` (indices into `rules`) into one database, or loads it from the
//! cache. With `local_ids` Hyperscan ids are 0..n-1 (so the cached database does not depend on
//! where the rules sit in the set), else they are the rule indices.
Status CompileRules(const RuleSet& rules, const std::vector<uint32_t>& members, bool local_ids,
                    RuleDatabase::Mode mode, hs_database_t** out, std::set<uint32_t>* without_start) {
  std::vector<const char*> patterns;
  std::vector<unsigned> flags;
  std::vector<unsigned> ids;
  for (size_t k = 0; k < members.size(); ++k) {
    const Rule& rule = rules.rules[members[k]];
    auto rule_flags = HyperscanFlags(rule, mode);
    if (!rule_flags.ok()) return rule_flags.status();
    patterns.push_back(rule.pattern.c_str());
    flags.push_back(*rule_flags);
    ids.push_back(local_ids ? static_cast<unsigned>(k) : members[k]);
  }
  // Hyperscan id -> rule index, for the start-offset list kept beside a cached database.
  auto rule_of_id = [&](unsigned id) { return local_ids ? members[id] : id; };
  const std::string cache_file = CacheFile(patterns, flags, ids);
  *out = LoadCached(cache_file);
  if (*out != nullptr) {
    // Rules compiled without start offsets are listed beside the cached database.
    std::ifstream list(cache_file + ".nostart");
    for (uint32_t id; without_start != nullptr && list >> id;) without_start->insert(rule_of_id(id));
    return Status::Ok();
  }
  std::set<unsigned> no_start_ids;
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
    no_start_ids.insert(ids[static_cast<size_t>(error->expression)]);
    hs_free_compile_error(error);
    error = nullptr;
  }
  if (rc != HS_SUCCESS) {
    std::string message = error != nullptr && error->message != nullptr ? error->message : "compile failed";
    std::string where = "rule set";
    if (error != nullptr && error->expression >= 0 && static_cast<size_t>(error->expression) < members.size()) {
      const Rule& bad = rules.rules[members[static_cast<size_t>(error->expression)]];
      where = RulePlace(bad) + ": pattern '" + bad.pattern + "'";
      hs_free_compile_error(error);
      // Hyperscan names the first bad pattern only: the others are found here, so that one run
      // names every pattern to mend.
      return EveryBadPattern(rules, members, flags, where + ": " + message);
    }
    hs_free_compile_error(error);
    return Status::InvalidArgument(where + ": " + message);
  }
  for (unsigned id : no_start_ids) {
    if (without_start != nullptr) without_start->insert(rule_of_id(id));
  }
  if (!no_start_ids.empty() && !cache_file.empty()) {
    std::ofstream list(cache_file + ".nostart");
    for (unsigned id : no_start_ids) list << id << '\n';
  }
  StoreCached(cache_file, *out);
  return Status::Ok();
}

}  // namespace

Result<hs_database_t*> CompileExpressionCached(const std::string& expression, unsigned flags, const std::string& where) {
  const std::vector<const char*> patterns = {expression.c_str()};
  const std::string cache_file = CacheFile(patterns, {flags}, {0});
  if (hs_database_t* cached = LoadCached(cache_file)) return cached;
  hs_database_t* db = nullptr;
  hs_compile_error_t* error = nullptr;
  if (hs_compile(expression.c_str(), flags, HS_MODE_BLOCK, nullptr, &db, &error) != HS_SUCCESS) {
    const std::string message = error != nullptr && error->message != nullptr ? error->message : "compile failed";
    hs_free_compile_error(error);
    return Status::InvalidArgument(where + ": " + message);
  }
  StoreCached(cache_file, db);
  return db;
}

Status RuleDatabase::AddPiece(Field field, hs_database_t* db, std::vector<uint32_t> rule_of,
                              const std::vector<FieldMask>* fields_of) {
  if (hs_alloc_scratch(db, &scratch_) != HS_SUCCESS) {
    return Status::InvalidArgument("Hyperscan could not allocate scratch space");
  }
  pieces_[static_cast<int>(field)].push_back({db, std::move(rule_of), fields_of});
  return Status::Ok();
}

namespace {

//! Fields compiled into one database, and its rules (the union of theirs).
struct FieldGroup {
  FieldMask fields = 0;
  std::vector<uint32_t> members;
};

//! Groups the fields for Layout::kCombined. A field joins a group when at least half of the
//! rules of the two together apply to both (Jaccard >= 1/2): the default rules' title and body
//! share 54 of 97 rules, and one of those alone compiles to 8 MB, so two databases cost a
//! second copy of it to load (a tenth of a short run) and to keep in memory, for a scan of the
//! shared database that drops the other field's matches.
std::vector<FieldGroup> GroupFields(const RuleSet& rules) {
  std::vector<FieldGroup> groups;
  for (int f = 0; f < kFieldCount; ++f) {
    const FieldMask mask = MaskOf(static_cast<Field>(f));
    std::vector<uint32_t> members;
    for (uint32_t i = 0; i < rules.rules.size(); ++i) {
      if (rules.rules[i].fields & mask) members.push_back(i);
    }
    if (members.empty()) continue;
    FieldGroup* joined = nullptr;
    std::vector<uint32_t> joined_union;
    for (FieldGroup& group : groups) {
      std::vector<uint32_t> both, either;
      std::set_intersection(group.members.begin(), group.members.end(), members.begin(), members.end(),
                            std::back_inserter(both));
      std::set_union(group.members.begin(), group.members.end(), members.begin(), members.end(),
                     std::back_inserter(either));
      if (2 * both.size() >= either.size()) {
        joined = &group;
        joined_union = std::move(either);
        break;
      }
    }
    if (joined != nullptr) {
      joined->fields |= mask;
      joined->members = std::move(joined_union);
    } else {
      groups.push_back({mask, std::move(members)});
    }
  }
  return groups;
}

}  // namespace

Result<std::shared_ptr<const RuleDatabase>> RuleDatabase::Compile(const RuleSet& rules, Mode mode, Layout layout) {
  std::shared_ptr<RuleDatabase> db(new RuleDatabase(rules, mode, layout));
  if (layout == Layout::kCombined) {
    for (const Rule& rule : rules.rules) db->fields_of_.push_back(rule.fields);
    for (const FieldGroup& group : GroupFields(rules)) {
      hs_database_t* compiled = nullptr;
      GHSIFT_TRY(CompileRules(rules, group.members, false, mode, &compiled, &db->without_start_));
      db->owned_.push_back(compiled);
      for (int f = 0; f < kFieldCount; ++f) {
        const FieldMask mask = MaskOf(static_cast<Field>(f));
        if (!(group.fields & mask)) continue;
        // Matches need sorting out only when a rule of the group does not apply to this field.
        const bool all_apply = std::all_of(group.members.begin(), group.members.end(),
                                           [&](uint32_t i) { return rules.rules[i].fields & mask; });
        GHSIFT_TRY(db->AddPiece(static_cast<Field>(f), compiled, {}, all_apply ? nullptr : &db->fields_of_));
      }
    }
  } else {
    // One database per rule, shared by every field the rule applies to. A rule that does not
    // compile is reported with every other one that does not, so one run lists them all.
    std::string errors;
    size_t failed = 0;
    for (uint32_t i = 0; i < rules.rules.size(); ++i) {
      hs_database_t* compiled = nullptr;
      if (Status s = CompileRules(rules, {i}, true, mode, &compiled, &db->without_start_); !s.ok()) {
        errors += (failed++ ? "\n" : "") + s.message();
        continue;
      }
      db->owned_.push_back(compiled);
      for (int f = 0; f < kFieldCount; ++f) {
        if (rules.rules[i].fields & MaskOf(static_cast<Field>(f))) GHSIFT_TRY(db->AddPiece(static_cast<Field>(f), compiled, {i}));
      }
    }
    if (failed > 1) return Status::InvalidArgument(std::to_string(failed) + " rules do not compile:\n" + errors);
    if (failed == 1) return Status::InvalidArgument(errors);
  }
  return std::shared_ptr<const RuleDatabase>(std::move(db));
}

RuleDatabase::~RuleDatabase() {
  for (hs_database_t* db : owned_) hs_free_database(db);
  if (scratch_ != nullptr) hs_free_scratch(scratch_);
}

size_t RuleDatabase::database_bytes() const {
  size_t total = 0;
  for (const hs_database_t* db : owned_) {
    size_t size = 0;
    if (db != nullptr && hs_database_size(db, &size) == HS_SUCCESS) total += size;
  }
  return total;
}

}  // namespace ghsift
