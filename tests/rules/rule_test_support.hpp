#pragma once
// Helpers shared by the rules unit tests: a rule as the YAML loader would give it.
#include <string>
#include <utility>
#include <vector>

#include "rules/rule_set.hpp"

namespace ghsift::testing {

inline Rule MakeRule(std::string id, std::string pattern, FieldMask fields, std::vector<std::string> flags = {},
                     std::string tag = "performance", std::string source = "test.yaml") {
  Rule r;
  r.id = std::move(id);
  r.category = tag.substr(0, tag.find('/'));
  r.tag = std::move(tag);
  r.pattern = std::move(pattern);
  r.fields = fields;
  r.flags = std::move(flags);
  r.source = std::move(source);
  return r;
}

}  // namespace ghsift::testing
