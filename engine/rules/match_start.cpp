#include "rules/match_start.hpp"

#include "rules/rule_database.hpp"

namespace ghsift {

Result<std::unique_ptr<MatchStartFinder>> MatchStartFinder::Compile(const Rule& rule) {
  auto flags = HyperscanFlags(rule, RuleDatabase::Mode::kFlag);
  if (!flags.ok()) return flags.status();
  // Every end offset is wanted, so no single-match; start offsets are what failed, so none.
  const unsigned anchored_flags = *flags & ~static_cast<unsigned>(HS_FLAG_SINGLEMATCH);
  const std::string pattern = "\\A(?:" + rule.pattern + ")";
  // Cached like the rule databases: anchoring a rule with long gaps compiles for seconds.
  auto db = CompileExpressionCached(pattern, anchored_flags, RulePlace(rule) + ": anchored pattern");
  if (!db.ok()) return db.status();
  std::unique_ptr<MatchStartFinder> finder(new MatchStartFinder());
  finder->db_ = *db;
  if (hs_alloc_scratch(finder->db_, &finder->scratch_) != HS_SUCCESS) {
    return Status::InvalidArgument("Hyperscan could not allocate scratch space");
  }
  return finder;
}

MatchStartFinder::~MatchStartFinder() {
  if (db_ != nullptr) hs_free_database(db_);
  if (scratch_ != nullptr) hs_free_scratch(scratch_);
}

size_t MatchStartFinder::StartOf(std::string_view text, size_t end, size_t max_length) const {
  // Try each start from the farthest back: the first whose anchored match ends exactly at `end`
  // is the leftmost start, which is what start-of-match mode would have reported.
  const size_t first = end > max_length ? end - max_length : 0;
  for (size_t start = first; start < end; ++start) {
    bool found = false;
    const size_t wanted = end - start;
    struct Context {
      size_t wanted;
      bool* found;
    } context{wanted, &found};
    auto handler = [](unsigned, unsigned long long, unsigned long long to, unsigned, void* ctx) -> int {
      auto* c = static_cast<Context*>(ctx);
      if (to == c->wanted) {
        *c->found = true;
        return 1;  // stop: found
      }
      return 0;
    };
    hs_scan(db_, text.data() + start, static_cast<unsigned>(wanted), 0, scratch_, handler, &context);
    if (found) return start;
  }
  return end;
}

}  // namespace ghsift
