#pragma once
// Where a match starts, for rules Hyperscan cannot compile with start offsets
// (HS_FLAG_SOM_LEFTMOST refuses some patterns with long gaps). `rules explain` uses it so that
// such a rule is marked over the whole text it matched, not only its last word.
#include <hs/hs.h>

#include <memory>
#include <string_view>

#include "common/result.hpp"
#include "rules/rule_set.hpp"

namespace ghsift {

class MatchStartFinder {
 public:
  //! Compiles the rule anchored at the start of the scanned text (`\A(?:pattern)`).
  static Result<std::unique_ptr<MatchStartFinder>> Compile(const Rule& rule);
  ~MatchStartFinder();
  MatchStartFinder(const MatchStartFinder&) = delete;
  MatchStartFinder& operator=(const MatchStartFinder&) = delete;

  //! The leftmost start of a match of the rule that ends at `end` in `text` (at most
  //! `max_length` bytes back); `end` itself when none is found.
  size_t StartOf(std::string_view text, size_t end, size_t max_length = 4096) const;

 private:
  MatchStartFinder() = default;
  hs_database_t* db_ = nullptr;
  hs_scratch_t* scratch_ = nullptr;
};

}  // namespace ghsift
