#pragma once
// Small integer ids for the GitHub event types, so that per-event counting hashes integers.
#include <cstdint>
#include <string_view>

namespace ghsift {

inline constexpr uint16_t kUnknownEventType = 0xffff;

//! Id of a known type name, or kUnknownEventType.
uint16_t EventTypeId(std::string_view type);
//! Name of a known id.
std::string_view EventTypeName(uint16_t id);

}  // namespace ghsift
