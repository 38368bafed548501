#pragma once
// The named parts of a report that rules apply to.
#include <cstdint>
#include <optional>
#include <string_view>

namespace ghsift {

enum class Field : uint8_t {
  kTitle = 0,    //!< issue / PR title
  kBody = 1,     //!< body prose, outside fenced code blocks
  kCode = 2,     //!< inside fenced code blocks of the body or of comments
  kComment = 3,  //!< comment prose, outside fenced code blocks
  kLabel = 4,    //!< each label name, matched as its own string
};
inline constexpr int kFieldCount = 5;

using FieldMask = uint8_t;
inline constexpr FieldMask MaskOf(Field f) { return static_cast<FieldMask>(1u << static_cast<int>(f)); }

inline std::string_view FieldName(Field f) {
  switch (f) {
    case Field::kTitle: return "title";
    case Field::kBody: return "body";
    case Field::kCode: return "code";
    case Field::kComment: return "comment";
    case Field::kLabel: return "label";
  }
  return "?";
}

inline std::optional<Field> FieldFromName(std::string_view name) {
  for (int i = 0; i < kFieldCount; ++i) {
    if (FieldName(static_cast<Field>(i)) == name) return static_cast<Field>(i);
  }
  return std::nullopt;
}

}  // namespace ghsift
