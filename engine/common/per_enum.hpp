#pragma once
// One value per member of a dense enum (0 .. N-1), indexed by the enum itself: the shape of
// PerField (json/text_field.hpp) and PerAttribute (json/report_attribute.hpp).
#include <array>
#include <cstddef>

namespace ghsift {

template <typename Enum, size_t N, typename T>
struct PerEnum {
  std::array<T, N> by_id{};
  T& operator[](Enum e) { return by_id[static_cast<size_t>(e)]; }
  const T& operator[](Enum e) const { return by_id[static_cast<size_t>(e)]; }
  bool operator==(const PerEnum&) const = default;
};

}  // namespace ghsift
