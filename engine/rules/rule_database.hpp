#pragma once
// Rules compiled into Hyperscan block-mode databases, one per field, so that a scan of a field
// only runs the rules that apply to it. Hyperscan ids are indices into RuleSet::rules.
#include <hs/hs.h>

#include <array>
#include <memory>
#include <set>

#include "common/result.hpp"
#include "rules/rule_set.hpp"

namespace ghsift {

class RuleDatabase {
 public:
  enum class Mode {
    kFlag,     //!< one match per rule and scan (HS_FLAG_SINGLEMATCH): what ingest needs
    kExplain,  //!< every match with its start offset (HS_FLAG_SOM_LEFTMOST): for `rules explain`
  };

  //! Compiles every rule; a bad pattern is reported with its file, rule id and Hyperscan's message.
  static Result<std::shared_ptr<const RuleDatabase>> Compile(const RuleSet& rules, Mode mode = Mode::kFlag);
  ~RuleDatabase();

  const RuleSet& rules() const { return rules_; }
  //! nullptr when no rule applies to the field.
  const hs_database_t* database(Field f) const { return databases_[static_cast<int>(f)]; }
  //! A scratch prototype sized for all field databases; clone it per thread.
  const hs_scratch_t* scratch_prototype() const { return scratch_; }
  Mode mode() const { return mode_; }
  //! Explain mode: rules Hyperscan could not give start offsets for (their spans start at 0).
  bool ReportsStart(uint32_t rule) const { return !without_start_.count(rule); }
  //! Bytes of compiled database (all fields).
  size_t database_bytes() const;

 private:
  RuleDatabase(RuleSet rules, Mode mode) : rules_(std::move(rules)), mode_(mode) {}
  RuleSet rules_;
  Mode mode_;
  std::array<hs_database_t*, kFieldCount> databases_{};
  hs_scratch_t* scratch_ = nullptr;
  std::set<uint32_t> without_start_;
};

//! Hyperscan flags for a rule.
Result<unsigned> HyperscanFlags(const Rule& rule, RuleDatabase::Mode mode);

}  // namespace ghsift
