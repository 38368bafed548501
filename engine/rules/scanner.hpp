#pragma once
// The fifth stage: runs the compiled rules over a report's fields. One Scanner per thread
// (it owns a Hyperscan scratch); the database is shared and read-only.
#include <memory>
#include <string_view>

#include "common/result.hpp"
#include "rules/match_set.hpp"
#include "rules/rule_database.hpp"

namespace ghsift {

class Scanner {
 public:
  explicit Scanner(std::shared_ptr<const RuleDatabase> database);
  ~Scanner();
  Scanner(const Scanner&) = delete;
  Scanner& operator=(const Scanner&) = delete;

  //! Adds the rules that match `text` in `field` to `matches`.
  Status Scan(Field field, std::string_view text, MatchSet& matches);

  //! Explain mode: calls `on_match(rule_index, from, to)` for every match (database compiled
  //! with Mode::kExplain).
  template <typename Callback>
  Status ScanSpans(Field field, std::string_view text, Callback&& on_match);

  const RuleDatabase& database() const { return *database_; }

 private:
  Status Run(Field field, std::string_view text, match_event_handler handler, void* context);
  std::shared_ptr<const RuleDatabase> database_;
  hs_scratch_t* scratch_ = nullptr;
};

template <typename Callback>
Status Scanner::ScanSpans(Field field, std::string_view text, Callback&& on_match) {
  auto handler = [](unsigned id, unsigned long long from, unsigned long long to, unsigned, void* ctx) -> int {
    (*static_cast<Callback*>(ctx))(id, static_cast<size_t>(from), static_cast<size_t>(to));
    return 0;
  };
  return Run(field, text, handler, &on_match);
}

}  // namespace ghsift
