#pragma once
// Short values a report's snapshot names besides its texts (who opened it, ...), one row each in
// kReportAttributes: where the issue or pull request object holds it, how two sightings of one
// report combine, its tag in the store's issue records, and how questions group, filter and
// export it. The extractor, the aggregator, the issue record and the query dimensions all read the
// table: a new attribute is a new Attribute and a new row, nothing else.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "common/per_enum.hpp"

namespace ghsift {

//! An attribute's id: its index in PerAttribute. Never renumbered.
enum class Attribute : uint8_t {
  kAuthor = 0,
  kAssociation = 1,
  kAuthorType = 2,
};
inline constexpr int kAttributeCount = 3;

//! How the values of two sightings of one report combine (a merge must not depend on the order
//! in which files are read).
enum class AttributeMerge : uint8_t {
  //! The smallest non-empty value: for a value that never changes, so two sightings differ only
  //! by the archive's own inconsistency.
  kSmallest,
  //! The latest snapshot's, as its title and state: for a value that changes over a report's life.
  kLatestSnapshot,
};

struct AttributeSpec {
  Attribute attribute;
  //! As `query --by`, the `--NAME` filter of issues/sample/query and the export column spell it.
  std::string_view name;
  std::string_view member;     //!< the issue or pull request object's member holding it ...
  std::string_view submember;  //!< ... or, when set, the member of that member's object
  //! Where the object has none and the event opened the report, the event's actor is its value
  //! (2012-2014 Timeline records name the actor but give the report as ids only).
  bool actor_when_opened;
  AttributeMerge merge;
  //! Filter values select whatever their case (GitHub logins are one whatever their case; `owner`
  //! is as clear as `OWNER`).
  bool any_case;
  //! Its tag among the tagged fields of the store's issue records (tagged_fields.hpp). A new
  //! attribute takes the next number; never reuse one.
  uint8_t record_tag;
  std::string_view help;         //!< `--by` help and the README: a few words
  std::string_view filter_help;  //!< the filter option's help
  //! The values GitHub documents for it, when the set is closed (the filter refuses any other,
  //! with the closest one named); empty: an open set (logins).
  std::span<const std::string_view> values = {};
};

//! GitHub's author_association values.
inline constexpr std::string_view kAssociationValues[] = {
    "COLLABORATOR", "CONTRIBUTOR", "FIRST_TIMER", "FIRST_TIME_CONTRIBUTOR", "MANNEQUIN", "MEMBER", "NONE", "OWNER"};
//! GitHub's account types (`user.type`).
inline constexpr std::string_view kAuthorTypeValues[] = {"Bot", "Mannequin", "Organization", "User"};

inline constexpr std::array<AttributeSpec, kAttributeCount> kReportAttributes = {{
    {Attribute::kAuthor, "author", "user", "login", true, AttributeMerge::kSmallest, true, 1,
     "who opened the report, as the archive spells the login ((unknown) when no event said)",
     "Only reports opened by any of these logins (any case)"},
    {Attribute::kAssociation, "association", "author_association", {}, false, AttributeMerge::kLatestSnapshot, true,
     2,
     "the opener's tie to the repository: OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE, ... (latest snapshot; "
     "the archive gives it from 2017, (unknown) before)",
     "Only reports whose opener had any of these ties to the repository (OWNER, MEMBER, CONTRIBUTOR, NONE, ...; "
     "any case)",
     kAssociationValues},
    {Attribute::kAuthorType, "author_type", "user", "type", false, AttributeMerge::kSmallest, true, 3,
     "the opener's account type: User, Bot (dependabot[bot], ...) or Organization ((unknown) when no event said)",
     "Only reports whose opener's account is of any of these types (User, Bot, Organization; any case)",
     kAuthorTypeValues},
}};

namespace detail {
constexpr bool EachAttributeHasOneRow() {
  std::array<int, kAttributeCount> rows{};
  std::array<int, 256> tags{};
  for (const AttributeSpec& spec : kReportAttributes) {
    ++rows[static_cast<size_t>(spec.attribute)];
    if (spec.record_tag == 0 || ++tags[spec.record_tag] != 1) return false;
  }
  for (int n : rows) {
    if (n != 1) return false;
  }
  return true;
}
}  // namespace detail
static_assert(detail::EachAttributeHasOneRow(),
              "kReportAttributes has exactly one row per Attribute, each with its own non-zero record tag");

//! One value per attribute, indexed by Attribute.
template <typename T>
using PerAttribute = PerEnum<Attribute, kAttributeCount, T>;

}  // namespace ghsift
