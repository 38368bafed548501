#include "rules/scanner.hpp"

#include "common/assert.hpp"

namespace ghsift {

Scanner::Scanner(std::shared_ptr<const RuleDatabase> database) : database_(std::move(database)) {
  if (database_->scratch_prototype() != nullptr) {
    const hs_error_t rc = hs_clone_scratch(database_->scratch_prototype(), &scratch_);
    GHSIFT_ASSERT(rc == HS_SUCCESS);
  }
}

Scanner::~Scanner() {
  if (scratch_ != nullptr) hs_free_scratch(scratch_);
}

Status Scanner::Run(Field field, std::string_view text, match_event_handler handler, void* context) {
  const hs_database_t* db = database_->database(field);
  if (db == nullptr || text.empty()) return Status::Ok();
  const hs_error_t rc = hs_scan(db, text.data(), static_cast<unsigned>(text.size()), 0, scratch_, handler, context);
  if (rc != HS_SUCCESS && rc != HS_SCAN_TERMINATED) {
    return Status::InvalidArgument("Hyperscan scan failed with code " + std::to_string(rc));
  }
  return Status::Ok();
}

Status Scanner::Scan(Field field, std::string_view text, MatchSet& matches) {
  auto handler = [](unsigned id, unsigned long long, unsigned long long, unsigned, void* ctx) -> int {
    static_cast<MatchSet*>(ctx)->Add(id);
    return 0;
  };
  return Run(field, text, handler, &matches);
}

}  // namespace ghsift
