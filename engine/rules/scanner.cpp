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

namespace {

//! Passes a piece's matches on with Hyperscan ids turned into rule indices.
struct MappedHandler {
  match_event_handler handler;
  void* context;
  const std::vector<uint32_t>* rule_of;
};

int MapThenCall(unsigned id, unsigned long long from, unsigned long long to, unsigned flags, void* ctx) {
  const auto* mapped = static_cast<const MappedHandler*>(ctx);
  return mapped->handler((*mapped->rule_of)[id], from, to, flags, mapped->context);
}

//! Passes on the matches of a database shared by several fields that are of rules applying to
//! the field scanned (ids are rule indices there).
struct FilteredHandler {
  match_event_handler handler;
  void* context;
  const std::vector<FieldMask>* fields_of;
  FieldMask field;
};

int FilterThenCall(unsigned id, unsigned long long from, unsigned long long to, unsigned flags, void* ctx) {
  const auto* filtered = static_cast<const FilteredHandler*>(ctx);
  if (!((*filtered->fields_of)[id] & filtered->field)) return 0;
  return filtered->handler(id, from, to, flags, filtered->context);
}

}  // namespace

Status Scanner::Run(Field field, std::string_view text, match_event_handler handler, void* context) {
  if (text.empty()) return Status::Ok();
  for (const RuleDatabase::Piece& piece : database_->pieces(field)) {
    MappedHandler mapped{handler, context, &piece.rule_of};
    FilteredHandler filtered{handler, context, piece.fields_of, MaskOf(field)};
    match_event_handler call = handler;
    void* call_context = context;
    if (!piece.rule_of.empty()) {
      call = MapThenCall;
      call_context = &mapped;
    } else if (piece.fields_of != nullptr) {
      call = FilterThenCall;
      call_context = &filtered;
    }
    const hs_error_t rc =
        hs_scan(piece.db, text.data(), static_cast<unsigned>(text.size()), 0, scratch_, call, call_context);
    if (rc != HS_SUCCESS && rc != HS_SCAN_TERMINATED) {
      return Status::InvalidArgument("Hyperscan scan failed with code " + std::to_string(rc));
    }
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
