#pragma once
// Rules compiled into Hyperscan block-mode databases, one per field (or one per rule, see
// Layout), so that a scan of a field only runs the rules that apply to it.
#include <hs/hs.h>

#include <array>
#include <memory>
#include <set>
#include <vector>

#include "common/result.hpp"
#include "rules/rule_set.hpp"

namespace ghsift {

class RuleDatabase {
 public:
  enum class Mode {
    kFlag,     //!< one match per rule and scan (HS_FLAG_SINGLEMATCH): what ingest needs
    kExplain,  //!< every match with its start offset (HS_FLAG_SOM_LEFTMOST): for `rules explain`
  };

  enum class Layout {
    //! One database per field, or per group of fields whose rules mostly coincide (title and
    //! body): the fastest scan (ingest, rescan). Compiled databases are cached whole, so an edit
    //! of one rule recompiles every field it applies to (seconds).
    kCombined,
    //! One database per rule, each cached on its own (pattern and flags): an edit recompiles
    //! that rule only, at the price of several scans per field. For the rule-editing commands.
    kPerRule,
  };

  //! A compiled database and the rules it reports.
  struct Piece {
    const hs_database_t* db = nullptr;
    //! Rule index of each Hyperscan id; empty when the ids are the rule indices themselves.
    std::vector<uint32_t> rule_of;
    //! When the database is shared with other fields: the fields of each rule (by rule index),
    //! so that a match of a rule that does not apply to the scanned field is dropped.
    const std::vector<FieldMask>* fields_of = nullptr;
  };

  //! Compiles every rule; a bad pattern is reported with its file, rule id and Hyperscan's message.
  static Result<std::shared_ptr<const RuleDatabase>> Compile(const RuleSet& rules, Mode mode = Mode::kFlag,
                                                             Layout layout = Layout::kCombined);
  ~RuleDatabase();

  const RuleSet& rules() const { return rules_; }
  Layout layout() const { return layout_; }
  //! The databases to scan a field with (none when no rule applies to it).
  const std::vector<Piece>& pieces(Field f) const { return pieces_[static_cast<int>(f)]; }
  //! The field's first database: the only one with Layout::kCombined; nullptr when none.
  const hs_database_t* database(Field f) const {
    const auto& p = pieces(f);
    return p.empty() ? nullptr : p.front().db;
  }
  //! A scratch prototype sized for all field databases; clone it per thread.
  const hs_scratch_t* scratch_prototype() const { return scratch_; }
  Mode mode() const { return mode_; }
  //! Explain mode: rules Hyperscan could not give start offsets for (their spans start at 0).
  bool ReportsStart(uint32_t rule) const { return !without_start_.count(rule); }
  //! Bytes of compiled database (all fields).
  size_t database_bytes() const;

 private:
  RuleDatabase(RuleSet rules, Mode mode, Layout layout) : rules_(std::move(rules)), mode_(mode), layout_(layout) {}
  Status AddPiece(Field field, hs_database_t* db, std::vector<uint32_t> rule_of,
                  const std::vector<FieldMask>* fields_of = nullptr);
  RuleSet rules_;
  Mode mode_;
  Layout layout_;
  std::array<std::vector<Piece>, kFieldCount> pieces_{};
  std::vector<hs_database_t*> owned_;
  hs_scratch_t* scratch_ = nullptr;
  std::set<uint32_t> without_start_;
  std::vector<FieldMask> fields_of_;  //!< each rule's fields, for databases shared by fields
};

//! One expression compiled with Hyperscan id 0, through the same cache as rule databases; the
//! caller frees it. A compile error is prefixed with `where`.
Result<hs_database_t*> CompileExpressionCached(const std::string& expression, unsigned flags, const std::string& where);

//! Hyperscan flags for a rule.
Result<unsigned> HyperscanFlags(const Rule& rule, RuleDatabase::Mode mode);

//! Whether Hyperscan accepts the rule's pattern with `flags`, parsed alone (no database is
//! built): the error names the rule's place and pattern.
Status CheckPatternAlone(const Rule& rule, unsigned flags);

}  // namespace ghsift
