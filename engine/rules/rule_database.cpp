#include "rules/rule_database.hpp"

#include <vector>

namespace ghsift {

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

Result<std::shared_ptr<const RuleDatabase>> RuleDatabase::Compile(const RuleSet& rules, Mode mode) {
  std::shared_ptr<RuleDatabase> db(new RuleDatabase(rules, mode));
  for (int f = 0; f < kFieldCount; ++f) {
    std::vector<const char*> patterns;
    std::vector<unsigned> flags;
    std::vector<unsigned> ids;
    for (size_t i = 0; i < rules.rules.size(); ++i) {
      const Rule& rule = rules.rules[i];
      if (!(rule.fields & MaskOf(static_cast<Field>(f)))) continue;
      auto rule_flags = HyperscanFlags(rule, mode);
      if (!rule_flags.ok()) return rule_flags.status();
      patterns.push_back(rule.pattern.c_str());
      flags.push_back(*rule_flags);
      ids.push_back(static_cast<unsigned>(i));
    }
    if (patterns.empty()) continue;
    hs_compile_error_t* error = nullptr;
    const hs_error_t rc = hs_compile_multi(patterns.data(), flags.data(), ids.data(),
                                           static_cast<unsigned>(patterns.size()), HS_MODE_BLOCK, nullptr,
                                           &db->databases_[f], &error);
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
    if (hs_alloc_scratch(db->databases_[f], &db->scratch_) != HS_SUCCESS) {
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
