#pragma once
// The texts of a report that rules apply to, one row each in kTextFields: the name rule files
// give it (`fields:`), where an event carries it, whether it takes the markdown split, and how
// labeled input, the labeling export and the store's text records spell it. The extractor, the
// scan, rescan, `rules eval|explain|suggest|learn`, the kept texts and the export all read the
// table: a new field is a new Field and a new row.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/per_enum.hpp"

namespace ghsift {

//! A field's id: its bit in a FieldMask and its index in PerField. Never renumbered (rules are
//! grouped into Hyperscan databases in this order).
enum class Field : uint8_t {
  kTitle = 0,
  kBody = 1,
  kCode = 2,
  kComment = 3,
  kLabel = 4,
  kReview = 5,
};
inline constexpr int kFieldCount = 6;

using FieldMask = uint8_t;
static_assert(kFieldCount <= 8, "a FieldMask holds one bit per field");
inline constexpr FieldMask MaskOf(Field f) { return static_cast<FieldMask>(1u << static_cast<int>(f)); }

//! Where a field's text comes from.
enum class TextSource : uint8_t {
  kSnapshot,   //!< a member of the issue or pull request object: the event's snapshot of the report
  kLabels,     //!< the snapshot's label names, each matched as a text of its own
  kEventText,  //!< the `body` of a payload object the event itself adds (a comment): one per event
  kFences,     //!< none of its own: the fenced code of the markdown fields, and code given apart
};

//! An event type whose payload object's `body` is a TextSource::kEventText field's text.
struct EventTextSource {
  std::string_view event_type;      //!< "IssueCommentEvent"
  std::string_view payload_object;  //!< "comment": the text is payload.comment.body
};

struct TextFieldSpec {
  Field field;
  std::string_view name;  //!< as rule files (`fields:`), `rules explain` and `--field` spell it
  TextSource source;
  std::string_view member;                //!< kSnapshot, kLabels: the report object's member holding it
  std::array<EventTextSource, 2> events;  //!< kEventText: the events carrying it (the rest empty)
  bool markdown;                          //!< its fenced code goes to `code`, its prose stays
  std::string_view jsonl_key;   //!< labeled JSONL, `rules explain --file`, the jsonl exports
  std::string_view csv_column;  //!< the labeled CSV (MHNurf's columns) and the csv exports
  //! Its tag among the tagged fields of the store's text records (tagged_fields.hpp); 0 for the
  //! fields their first formats hold at fixed places (title, body, labels, comment). A new field
  //! takes the next number; never reuse one.
  uint8_t store_tag;
  std::string_view help;  //!< what it is, in a few words
};

//! In the order fields are listed to users (messages, exports: MHNurf's column order first).
inline constexpr std::array<TextFieldSpec, kFieldCount> kTextFields = {{
    {Field::kTitle, "title", TextSource::kSnapshot, "title", {}, false, "title", "Title", 0,
     "the issue or pull request title"},
    {Field::kBody, "body", TextSource::kSnapshot, "body", {}, true, "body", "Body", 0,
     "its description, outside fenced code blocks"},
    {Field::kLabel, "label", TextSource::kLabels, "labels", {}, false, "labels", "Labels", 0,
     "each label name, matched as its own string"},
    {Field::kComment, "comment", TextSource::kEventText, {}, {{{"IssueCommentEvent", "comment"}}}, true, "comments",
     "Comments", 0, "issue and pull request comments, outside fenced code blocks"},
    {Field::kCode, "code", TextSource::kFences, {}, {}, false, "code", "Codes", 0,
     "inside fenced code blocks of every markdown field (and code given apart)"},
    {Field::kReview, "review", TextSource::kEventText, {},
     {{{"PullRequestReviewCommentEvent", "comment"}, {"PullRequestReviewEvent", "review"}}}, true, "review", "Review", 1,
     "pull request review comments and review bodies, outside fenced code blocks"},
}};

namespace detail {
constexpr bool EachFieldHasOneRow() {
  std::array<int, kFieldCount> rows{};
  for (const TextFieldSpec& spec : kTextFields) ++rows[static_cast<size_t>(spec.field)];
  for (int n : rows) {
    if (n != 1) return false;
  }
  return true;
}
}  // namespace detail
static_assert(detail::EachFieldHasOneRow(), "kTextFields has exactly one row per Field");

constexpr const TextFieldSpec& Spec(Field f) {
  for (const TextFieldSpec& spec : kTextFields) {
    if (spec.field == f) return spec;
  }
  return kTextFields[0];  // not reached: every field has a row
}

inline std::string_view FieldName(Field f) { return Spec(f).name; }

inline std::optional<Field> FieldFromName(std::string_view name) {
  for (const TextFieldSpec& spec : kTextFields) {
    if (spec.name == name) return spec.field;
  }
  return std::nullopt;
}

//! The names of the fields for which `keep(spec)` holds, in table order: "title, body, ...".
template <typename Keep>
std::string FieldNames(Keep&& keep) {
  std::string out;
  for (const TextFieldSpec& spec : kTextFields) {
    if (keep(spec)) out += (out.empty() ? "" : ", ") + std::string(spec.name);
  }
  return out;
}
inline std::string AllFieldNames() {
  return FieldNames([](const TextFieldSpec&) { return true; });
}

//! A field of prose a phrase can be mined from (not code, not a label).
constexpr bool IsProse(const TextFieldSpec& spec) {
  return spec.source == TextSource::kSnapshot || spec.source == TextSource::kEventText;
}

//! One value per field, indexed by Field.
template <typename T>
using PerField = PerEnum<Field, kFieldCount, T>;

}  // namespace ghsift
