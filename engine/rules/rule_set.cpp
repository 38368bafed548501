#include "rules/rule_set.hpp"
#include "rules/rule_database.hpp"

#include "common/closest_name.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace ghsift {
namespace {

bool ValidId(const std::string& id) {
  if (id.empty()) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
  });
}

bool ValidTagPart(const std::string& s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '/';
  });
}

// ---------------------------------------------------------------------------------------------
// A layer is read whole (every file of it) before it is applied, so that an id given twice in
// it is found wherever the two entries are, and so that a refused layer changes nothing.

//! One entry of a layer's `rules:` list, kept as YAML until it is applied: whether it defines
//! a rule or overrides some keys of one depends on the layers before it.
struct LayerEntry {
  YAML::Node node;
  std::string id;
  std::string source;
  std::string place;  //!< "file: rule #N (line L)"
  int line = 0;
};

struct LayerThreshold {
  double value = 0;
  std::string source;
};

struct Layer {
  std::vector<LayerEntry> entries;
  //! Entries that could not be read as rules (no id, a bad or repeated id): said with the other
  //! mistakes of the layer, in one run.
  std::vector<std::string> entry_errors;
  std::map<std::string, size_t> entry_by_id;
  std::map<std::string, LayerThreshold> thresholds;
  std::map<std::string, bool> facets;  //!< categories whose `facet:` mark this layer sets
  std::map<std::string, bool> verdicts;  //!< categories whose `verdict:` mark this layer sets
  std::vector<FittedLayer> fitted;     //!< `fitted: {groups: [...], logo: X}` of its files
  std::map<std::string, std::string> fragments;         //!< `fragments:` of its files
  std::map<std::string, std::string> fragment_sources;  //!< the file that defines each
  //! `base: default`: the layer goes on top of the default rule set (DefaultRulesPath) without
  //! naming its path; `base: none` (or no key): on top of the layers before it only.
  std::string base_source;  //!< the file that says `base: default` ("" none)
};

Status ReadFitted(const YAML::Node& node, const std::string& source, Layer& layer) {
  if (!node.IsMap() || !node["groups"] || !node["groups"].IsSequence() || !node["logo"]) {
    return Status::InvalidArgument(source + ": 'fitted' must be {groups: [...], logo: X} (as `rules tune --write` "
                                   "writes it)");
  }
  FittedLayer fitted{source, {}, node["logo"].as<double>()};
  for (const auto& group : node["groups"]) fitted.groups.push_back(group.as<std::string>());
  if (node["data"]) fitted.data_digest = node["data"].as<std::string>();
  if (node["rules"]) fitted.rules_digest = node["rules"].as<std::string>();
  if (node["ghsift"]) fitted.ghsift = node["ghsift"].as<std::string>();
  layer.fitted.push_back(std::move(fitted));
  return Status::Ok();
}

Status ReadRuleEntries(const YAML::Node& list, const std::string& source, Layer& layer) {
  if (!list.IsSequence()) return Status::InvalidArgument(source + ": 'rules' must be a list");
  size_t index = 0;
  for (const YAML::Node& node : list) {
    ++index;
    LayerEntry entry;
    entry.node = node;
    entry.source = source;
    entry.line = static_cast<int>(node.Mark().line) + 1;
    entry.place = source + ": rule #" + std::to_string(index) + " (line " + std::to_string(entry.line) + ")";
    if (!node.IsMap()) {
      layer.entry_errors.push_back(entry.place + ": a rule must be a mapping");
      continue;
    }
    if (!node["id"] || !node["id"].IsScalar()) {
      layer.entry_errors.push_back(entry.place + ": missing 'id'");
      continue;
    }
    entry.id = node["id"].as<std::string>();
    if (!ValidId(entry.id)) {
      layer.entry_errors.push_back(RulePlace(source, entry.id, entry.line) + ": id must match [a-z0-9._-]+");
      continue;
    }
    const auto [it, added] = layer.entry_by_id.emplace(entry.id, layer.entries.size());
    if (!added) {
      layer.entry_errors.push_back(RulePlace(source, entry.id, entry.line) + ": duplicate id in one layer (rule #" +
                                   std::to_string(index) + "; first defined in " + layer.entries[it->second].place +
                                   ")");
      continue;
    }
    layer.entries.push_back(std::move(entry));
  }
  return Status::Ok();
}

//! A fragment's name: a letter, then letters, digits, '_' or '-'.
bool FragmentName(const std::string& name) {
  if (name.empty() || name[0] < 'a' || name[0] > 'z') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

//! The `fragments:` map: name -> a piece of pattern, for `{{name}}` in the rules' patterns.
Status ReadFragments(const YAML::Node& map, const std::string& source, Layer& layer) {
  if (!map.IsMap()) return Status::InvalidArgument(source + ": 'fragments' must be a mapping of name: pattern piece");
  for (const auto& entry : map) {
    const std::string name = entry.first.as<std::string>();
    if (!FragmentName(name)) {
      return Status::InvalidArgument(source + ": fragment '" + name + "': a name must match [a-z][a-z0-9_-]*");
    }
    if (!entry.second.IsScalar() || entry.second.as<std::string>().empty()) {
      return Status::InvalidArgument(source + ": fragment '" + name + "' must be a non-empty string");
    }
    const auto [it, added] = layer.fragment_sources.emplace(name, source);
    if (!added) {
      return Status::InvalidArgument(source + ": fragment '" + name + "' is defined twice in one layer (also in " +
                                     it->second + ")");
    }
    layer.fragments[name] = entry.second.as<std::string>();
  }
  return Status::Ok();
}

//! `pattern` with every `{{name}}` replaced by its fragment.
Result<std::string> ExpandFragments(const std::string& pattern, const std::map<std::string, std::string>& fragments,
                                    const std::string& named) {
  std::string out;
  size_t at = 0;
  while (true) {
    const size_t open = pattern.find("{{", at);
    const size_t close = open == std::string::npos ? std::string::npos : pattern.find("}}", open + 2);
    if (close == std::string::npos) break;
    const std::string name = pattern.substr(open + 2, close - open - 2);
    if (!FragmentName(name)) {  // not a reference: regex text (such as a{{2}} would be)
      out.append(pattern, at, open + 2 - at);
      at = open + 2;
      continue;
    }
    const auto found = fragments.find(name);
    if (found == fragments.end()) {
      std::vector<std::string> names;
      for (const auto& [n, text] : fragments) names.push_back(n);
      return Status::InvalidArgument(named + ": pattern uses fragment '{{" + name + "}}', which no file defines" +
                                     (names.empty() ? std::string() : " (the fragments: " + JoinNames(names) + ")"));
    }
    out.append(pattern, at, open - at);
    out += found->second;
    at = close + 2;
  }
  out.append(pattern, at, std::string::npos);
  return out;
}

//! A weight or threshold: a number, and finite (YAML reads .nan and .inf as numbers, and a NaN
//! threshold flagged every report that matched anything). Empty otherwise.
std::optional<double> FiniteNumber(const YAML::Node& node) {
  double value = 0;
  if (!node.IsScalar() || !YAML::convert<double>::decode(node, value) || !std::isfinite(value)) return std::nullopt;
  return value;
}

//! The `categories:` map: per-category settings (threshold, facet and verdict marks).
Status ReadCategorySettings(const YAML::Node& map, const std::string& source, Layer& layer) {
  if (!map.IsMap()) return Status::InvalidArgument(source + ": 'categories' must be a mapping");
  for (const auto& entry : map) {
    const std::string name = entry.first.as<std::string>();
    if (!entry.second.IsMap()) {
      return Status::InvalidArgument(source + ": category '" + name + "': settings must be a mapping {threshold: X}");
    }
    const YAML::Node threshold = entry.second["threshold"];
    if (!threshold) return Status::InvalidArgument(source + ": category '" + name + "': missing 'threshold'");
    static const std::vector<std::string> kKeys = {"facet", "threshold", "verdict"};
    for (const auto& setting : entry.second) {
      const std::string key = setting.first.as<std::string>();
      if (std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end()) continue;
      return Status::InvalidArgument(source + ": category '" + name + "': unknown key '" + key + "'" +
                                     DidYouMean(key, kKeys) +
                                     "; the keys: " + JoinNames(kKeys));
    }
    const auto earlier = layer.thresholds.find(name);
    if (earlier != layer.thresholds.end()) {
      return Status::InvalidArgument(source + ": category '" + name + "': threshold defined twice in one layer (also in " +
                                     earlier->second.source + ")");
    }
    const std::optional<double> value = FiniteNumber(threshold);
    if (!value) {
      return Status::InvalidArgument(source + ": category '" + name + "' (line " +
                                     std::to_string(threshold.Mark().line + 1) + "): threshold must be a finite "
                                     "number, not '" + YAML::Dump(threshold) + "'");
    }
    layer.thresholds[name] = {*value, source};
    // A facet (stage, info, verdict) describes a report; only the other categories flag it.
    if (const YAML::Node facet = entry.second["facet"]; facet) layer.facets[name] = facet.as<bool>();
    // The verdict (bug or not) is an answer of its own, never a problem category: a facet too.
    if (const YAML::Node verdict = entry.second["verdict"]; verdict) layer.verdicts[name] = verdict.as<bool>();
  }
  return Status::Ok();
}

//! Where the quoted scalar that opens at text[open] closes; npos when the text ends first.
//! Inside double quotes a backslash escapes the next character, inside single quotes '' is one.
size_t ClosingQuote(const std::string& text, size_t open) {
  const char quote = text[open];
  for (size_t at = open + 1; at < text.size(); ++at) {
    if (quote == '"' && text[at] == '\\') {
      ++at;
    } else if (text[at] == quote) {
      if (quote == '\'' && at + 1 < text.size() && text[at + 1] == '\'') {
        ++at;
      } else {
        return at;
      }
    }
  }
  return std::string::npos;
}

//! What yaml-cpp lets through, checked over the whole file so each is an error naming its line:
//! - a quoted value the file ends in without its closing quote (`pattern: "a` at the end of a
//!   file reads as "a "), so that a rule cut short is not a different pattern;
//! - a key given twice in one mapping (`pattern: x` then `pattern: y`), of which one would be
//!   read and the other silently dropped.
Status CheckFileShape(const YAML::Node& node, const std::string& text, const std::string& source) {
  if (node.IsScalar()) {
    const YAML::Mark mark = node.Mark();
    if (mark.pos < 0 || static_cast<size_t>(mark.pos) >= text.size()) return Status::Ok();
    const size_t open = static_cast<size_t>(mark.pos);
    if ((text[open] == '"' || text[open] == '\'') && ClosingQuote(text, open) == std::string::npos) {
      return Status::InvalidArgument(source + ": line " + std::to_string(mark.line + 1) + ", column " +
                                     std::to_string(mark.column + 1) + ": the quoted value opened there (" +
                                     text[open] + ") is not closed before the end of the file");
    }
    return Status::Ok();
  }
  if (node.IsSequence()) {
    for (const YAML::Node& item : node) GHSIFT_TRY(CheckFileShape(item, text, source));
  } else if (node.IsMap()) {
    std::map<std::string, int> line_of_key;
    for (const auto& entry : node) {
      GHSIFT_TRY(CheckFileShape(entry.first, text, source));
      GHSIFT_TRY(CheckFileShape(entry.second, text, source));
      if (!entry.first.IsScalar()) continue;
      const int line = entry.first.Mark().line + 1;
      const auto [earlier, first] = line_of_key.emplace(entry.first.Scalar(), line);
      if (!first) {
        return Status::InvalidArgument(source + ": line " + std::to_string(line) + ": key '" + entry.first.Scalar() +
                                       "' given twice in one mapping (also on line " +
                                       std::to_string(earlier->second) + ")");
      }
    }
  }
  return Status::Ok();
}

Status ReadLayerFile(const std::string& text, const std::string& source, Layer& layer) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return Status::InvalidArgument(source + ": invalid YAML: " + e.what());
  }
  GHSIFT_TRY(CheckFileShape(root, text, source));
  if (root.IsNull()) return Status::Ok();
  if (!root.IsMap()) return Status::InvalidArgument(source + ": top level must be a mapping with 'rules'");
  try {
    for (const auto& entry : root) {
      const std::string key = entry.first.as<std::string>();
      if (key != "rules" && key != "categories" && key != "fitted" && key != "base" && key != "fragments") {
        return Status::InvalidArgument(source + ": unknown top-level key '" + key + "' (the keys: base, rules, "
                                       "categories, fragments, fitted)");
      }
    }
    if (root["base"]) {
      const std::string base = root["base"].as<std::string>();
      if (base != "default" && base != "none") {
        return Status::InvalidArgument(source + ": base must be default (on top of the default rule set) or none, not '" +
                                       base + "'");
      }
      if (base == "default") layer.base_source = source;
    }
    if (root["rules"]) GHSIFT_TRY(ReadRuleEntries(root["rules"], source, layer));
    if (root["categories"]) GHSIFT_TRY(ReadCategorySettings(root["categories"], source, layer));
    if (root["fitted"]) GHSIFT_TRY(ReadFitted(root["fitted"], source, layer));
    if (root["fragments"]) GHSIFT_TRY(ReadFragments(root["fragments"], source, layer));
  } catch (const YAML::Exception& e) {
    return Status::InvalidArgument(source + ": " + e.what());
  }
  return Status::Ok();
}

// ---------------------------------------------------------------------------------------------
// Applying an entry: the keys it gives are written over a rule (a fresh one, or a copy of the
// rule an earlier layer defined), then the rule's categories are worked out from tag and list.

//! What an entry says about categories; resolved once every key is read.
struct CategoryKeys {
  bool has_tag = false, has_list = false;
  std::string tag;
  std::vector<std::string> list;
};

//! The keys a rule entry may give: the only list of them.
const std::set<std::string> kKnownKeys = {"id",    "tag",    "categories", "pattern",     "fields",
                                          "flags", "weight", "enabled",    "description", "written_from"};

//! A misspelt key first, before what it leaves missing (`patern:` is no missing pattern).
Status CheckRuleKeys(const YAML::Node& node, const std::string& named) {
  for (const auto& entry : node) {
    const std::string key = entry.first.as<std::string>();
    if (!kKnownKeys.count(key)) {
      const std::vector<std::string> known(kKnownKeys.begin(), kKnownKeys.end());
      const std::string closest = ClosestName(key, known);
      return Status::InvalidArgument(named + ": unknown key '" + key + "' (line " +
                                     std::to_string(entry.first.Mark().line + 1) + ")" +
                                     (closest.empty() ? "" : "; did you mean " + closest + "?") +
                                     " The keys: " + JoinNames(known));
    }
  }
  return Status::Ok();
}

Status ApplyRuleKeys(const YAML::Node& node, const std::string& named, const std::map<std::string, std::string>& fragments,
                     Rule& rule, CategoryKeys& categories) {
  if (node["tag"]) {
    if (!node["tag"].IsScalar()) return Status::InvalidArgument(named + ": 'tag' must be a string");
    categories.has_tag = true;
    categories.tag = node["tag"].as<std::string>();
  }
  if (node["categories"]) {
    if (!node["categories"].IsSequence() || node["categories"].size() == 0) {
      return Status::InvalidArgument(named + ": 'categories' must be a non-empty list of category names");
    }
    categories.has_list = true;
    for (const auto& c : node["categories"]) categories.list.push_back(c.as<std::string>());
  }
  if (node["pattern"]) {
    if (!node["pattern"].IsScalar()) return Status::InvalidArgument(named + ": 'pattern' must be a string");
    GHSIFT_ASSIGN_OR_RETURN(rule.pattern, ExpandFragments(node["pattern"].as<std::string>(), fragments, named));
    if (rule.pattern.empty()) return Status::InvalidArgument(named + ": empty pattern");
  }
  if (node["fields"]) {
    if (!node["fields"].IsSequence() || node["fields"].size() == 0) {
      return Status::InvalidArgument(named + ": 'fields' must be a non-empty list");
    }
    rule.fields = 0;
    for (const auto& f : node["fields"]) {
      const auto field = FieldFromName(f.as<std::string>());
      if (!field) {
        return Status::InvalidArgument(named + ": unknown field '" + f.as<std::string>() +
                                       "' (" + AllFieldNames() + ")");
      }
      rule.fields |= MaskOf(*field);
    }
  }
  if (node["flags"]) {
    if (!node["flags"].IsSequence()) return Status::InvalidArgument(named + ": 'flags' must be a list");
    static const std::set<std::string> kFlags = {"caseless", "dotall", "multiline", "ucp"};
    rule.flags.clear();
    for (const auto& f : node["flags"]) {
      const std::string flag = f.as<std::string>();
      if (!kFlags.count(flag)) {
        return Status::InvalidArgument(named + ": unknown flag '" + flag + "' (caseless, dotall, multiline, ucp)");
      }
      rule.flags.push_back(flag);
    }
  }
  if (node["written_from"]) {
    if (!node["written_from"].IsSequence()) {
      return Status::InvalidArgument(named + ": 'written_from' must be a list of labeled group names");
    }
    rule.written_from.clear();
    for (const auto& g : node["written_from"]) {
      if (!g.IsScalar() || g.as<std::string>().empty()) {
        return Status::InvalidArgument(named + ": 'written_from' must be a list of labeled group names");
      }
      rule.written_from.push_back(g.as<std::string>());
    }
  }
  if (node["weight"]) {
    const std::optional<double> weight = FiniteNumber(node["weight"]);
    if (!weight) {
      return Status::InvalidArgument(named + ": weight must be a finite number, not '" + YAML::Dump(node["weight"]) +
                                     "'");
    }
    rule.weight = *weight;
  }
  return Status::Ok();
}

//! Sets tag, category and categories. With one category (the tag's prefix) `categories` stays
//! empty; with a list, the tag (optional) names the kind, e.g. `not-a-bug`, and is stored as
//! "<first listed category>/<kind>" so that code asking for a rule's tag still gets a category.
Status ResolveCategories(const CategoryKeys& given, const std::string& named, Rule& rule) {
  std::string tag = given.has_tag ? given.tag : rule.tag;
  std::vector<std::string> list = given.has_list ? given.list : rule.categories;
  // A new tag alone (an override) makes the rule a one-category rule again.
  if (given.has_tag && !given.has_list) list.clear();
  if (list.empty()) {
    if (tag.empty()) return Status::InvalidArgument(named + ": missing 'tag'");
    if (!ValidTagPart(tag) || tag.front() == '/') {
      return Status::InvalidArgument(named + ": tag must be category[/subcategory] in [a-z0-9_-]");
    }
    rule.tag = tag;
    rule.category = tag.substr(0, tag.find('/'));
    rule.categories.clear();
    return Status::Ok();
  }
  std::set<std::string> seen;
  for (const std::string& c : list) {
    if (!ValidTagPart(c) || c.find('/') != std::string::npos) {
      return Status::InvalidArgument(named + ": category '" + c + "' must be a name in [a-z0-9_-]");
    }
    if (!seen.insert(c).second) return Status::InvalidArgument(named + ": category '" + c + "' listed twice");
  }
  // An override that gives a new list keeps the kind of the earlier tag.
  std::string kind = given.has_tag ? tag : tag.substr(tag.find('/') == std::string::npos ? tag.size() : tag.find('/') + 1);
  if (given.has_tag && kind.find('/') != std::string::npos) {
    const std::string prefix = kind.substr(0, kind.find('/'));
    if (!seen.count(prefix)) {
      return Status::InvalidArgument(named + ": tag '" + kind + "' names a category not in 'categories'");
    }
    kind = kind.substr(kind.find('/') + 1);
  }
  if (!kind.empty() && (!ValidTagPart(kind) || kind.front() == '/')) {
    return Status::InvalidArgument(named + ": tag must be a kind in [a-z0-9_-] when 'categories' is a list");
  }
  rule.category = list.front();
  rule.tag = kind.empty() ? rule.category : rule.category + "/" + kind;
  rule.categories = list.size() == 1 ? std::vector<std::string>{} : list;
  return Status::Ok();
}

Status ApplyEntry(const LayerEntry& entry, std::map<std::string, size_t>& index_by_id, RuleSet& into,
                  std::vector<char>& removed) {
  const YAML::Node& node = entry.node;
  const std::string named = RulePlace(entry.source, entry.id, entry.line);
  GHSIFT_TRY(CheckRuleKeys(node, named));
  const auto existing = index_by_id.find(entry.id);
  const bool defined = existing != index_by_id.end() && !removed[existing->second];
  bool enabled = true;
  if (node["enabled"]) {
    try {
      enabled = node["enabled"].as<bool>();
    } catch (const YAML::Exception&) {
      return Status::InvalidArgument(named + ": 'enabled' must be true or false");
    }
  }
  const bool has_pattern = static_cast<bool>(node["pattern"]);
  if (!has_pattern && !defined) {
    return Status::InvalidArgument(named + ": missing 'pattern' (an entry without one overrides a rule of an "
                                   "earlier --rules layer, and none defines '" + entry.id + "')");
  }
  // A fresh rule for a definition; the earlier rule for an override of some of its keys.
  Rule rule = has_pattern ? Rule{} : into.rules[existing->second];
  CategoryKeys categories;
  GHSIFT_TRY(ApplyRuleKeys(node, named, into.fragments, rule, categories));
  GHSIFT_TRY(ResolveCategories(categories, named, rule));
  rule.id = entry.id;
  if (has_pattern) {
    rule.source = entry.source;
    rule.line = entry.line;
  }
  if (!enabled) {
    if (defined) removed[existing->second] = 1;
    return Status::Ok();
  }
  if (defined) {
    into.rules[existing->second] = std::move(rule);
  } else {
    index_by_id[entry.id] = into.rules.size();
    into.rules.push_back(std::move(rule));
    removed.push_back(0);
  }
  return Status::Ok();
}

Status ApplyLayer(const Layer& layer, RuleSet& into) {
  std::map<std::string, size_t> index_by_id;
  for (size_t i = 0; i < into.rules.size(); ++i) index_by_id[into.rules[i].id] = i;
  std::vector<char> removed(into.rules.size(), 0);
  RuleSet result = into;  // the layer is applied whole or not at all
  // The layer's fragments first: its rules may use them, wherever in the layer they are defined.
  for (const auto& [name, text] : layer.fragments) result.fragments[name] = text;
  // Every entry is tried, so that one run names every mistake of a layer, not the first alone.
  std::string errors;
  size_t failed = 0;
  for (const std::string& error : layer.entry_errors) errors += (failed++ ? "\n" : "") + error;
  std::vector<std::string> applied;  // ids of the entries that read as rules
  for (const LayerEntry& entry : layer.entries) {
    Status s;
    try {
      s = ApplyEntry(entry, index_by_id, result, removed);
    } catch (const YAML::Exception& e) {
      s = Status::InvalidArgument(entry.place + ": " + e.what());
    }
    if (s.ok()) applied.push_back(entry.id);
    else errors += (failed++ ? "\n" : "") + s.message();
  }
  // With mistakes in the entries, the patterns of the others are checked here too, so that one
  // run names the patterns to mend as well (without mistakes, the compile that follows names
  // them; parsing each pattern alone on every load would cost more than the load).
  for (size_t k = 0; failed > 0 && k < applied.size(); ++k) {
    const auto it = index_by_id.find(applied[k]);
    if (it == index_by_id.end() || removed[it->second]) continue;
    const Rule& rule = result.rules[it->second];
    Result<unsigned> flags = HyperscanFlags(rule, RuleDatabase::Mode::kFlag);
    const Status s = flags.ok() ? CheckPatternAlone(rule, *flags) : flags.status();
    if (!s.ok()) {
      errors += "\n" + s.message();
      ++failed;
    }
  }
  if (failed > 1) return Status::InvalidArgument(std::to_string(failed) + " rules are wrong:\n" + errors);
  if (failed == 1) return Status::InvalidArgument(errors);
  std::vector<Rule> kept;
  for (size_t i = 0; i < result.rules.size(); ++i) {
    if (!removed[i]) kept.push_back(std::move(result.rules[i]));
  }
  result.rules = std::move(kept);
  const std::vector<std::string> categories = result.Categories();
  for (const auto& [category, threshold] : layer.thresholds) {
    // A threshold for a category no rule has would change nothing: most likely a misspelt name.
    if (!std::binary_search(categories.begin(), categories.end(), category)) {
      return Status::InvalidArgument(threshold.source + ": threshold for category '" + category + "', which no rule has" +
                                     DidYouMean(category, categories) +
                                     "; the categories: " + JoinNames(categories));
    }
    result.thresholds[category] = threshold.value;
  }
  result.fitted.insert(result.fitted.end(), layer.fitted.begin(), layer.fitted.end());
  for (const auto& [category, facet] : layer.facets) {
    if (facet) {
      result.facets.insert(category);
    } else {
      result.facets.erase(category);
    }
  }
  for (const auto& [category, verdict] : layer.verdicts) {
    if (!verdict) {
      if (result.verdict == category) result.verdict.clear();
      continue;
    }
    if (!result.verdict.empty() && result.verdict != category) {
      return Status::InvalidArgument(layer.thresholds.at(category).source + ": category '" + category +
                                     "' marked verdict, but '" + result.verdict + "' already is (one verdict per rule set)");
    }
    result.verdict = category;
    result.facets.insert(category);
  }
  into = std::move(result);
  return Status::Ok();
}

//! The files of one layer: the file itself, or a directory's *.yaml / *.yml in name order.
Result<std::vector<std::string>> LayerFiles(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::string> files;
  if (fs::is_directory(path, ec)) {
    for (const auto& entry : fs::directory_iterator(path, ec)) {
      const std::string ext = entry.path().extension().string();
      if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml")) files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) return Status::InvalidArgument(path + ": no *.yaml rule files in directory");
  } else if (fs::is_regular_file(path, ec)) {
    files.push_back(path);
  } else {
    return Status::NotFound(path + ": no such rule file or directory");
  }
  return files;
}

}  // namespace

double RuleSet::ThresholdOf(const std::string& category) const {
  auto it = thresholds.find(category);
  return it == thresholds.end() ? kDefaultThreshold : it->second;
}

std::vector<std::string> RuleSet::Categories() const {
  std::set<std::string> names;
  for (const Rule& r : rules) {
    for (const std::string& c : r.ScoredCategories()) names.insert(c);
  }
  return {names.begin(), names.end()};
}

Status ParseRuleYaml(const std::string& text, const std::string& source, RuleSet& into) {
  Layer layer;
  GHSIFT_TRY(ReadLayerFile(text, source, layer));
  return ApplyLayer(layer, into);
}

namespace {

Result<Layer> ReadLayer(const std::string& path) {
  auto files = LayerFiles(path);
  if (!files.ok()) return files.status();
  Layer layer;
  for (const std::string& file : *files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return Status::IoErrorFromErrno(file + ": cannot read");
    std::stringstream text;
    text << in.rdbuf();
    GHSIFT_TRY(ReadLayerFile(text.str(), file, layer));
  }
  return layer;
}

//! What a layer changes of rules and categories it does not define itself: entries without a
//! pattern (overrides, `enabled: false`) and category settings for categories none of its own
//! rules has. On a layer below they are an overlay's edits; with nothing below they edit nothing.
struct LayerLeans {
  std::vector<std::string> rules;       //!< ids of entries without a pattern
  std::vector<std::string> categories;  //!< categories set but not defined by the layer's rules
  bool defines_rules = false;           //!< some entry has a pattern (a rule of its own)
  bool empty() const { return rules.empty() && categories.empty(); }
};

//! The categories a layer's own rules (entries with a pattern) name, from `tag` or `categories`.
std::set<std::string> OwnCategories(const Layer& layer) {
  std::set<std::string> own;
  for (const LayerEntry& entry : layer.entries) {
    if (!entry.node["pattern"]) continue;
    if (const YAML::Node tag = entry.node["tag"]; tag && tag.IsScalar()) {
      const std::string text = tag.as<std::string>();
      own.insert(text.substr(0, text.find('/')));
    }
    if (const YAML::Node list = entry.node["categories"]; list && list.IsSequence()) {
      for (const auto& c : list) {
        if (c.IsScalar()) own.insert(c.as<std::string>());
      }
    }
  }
  return own;
}

LayerLeans LeansOfLayer(const Layer& layer) {
  LayerLeans leans;
  for (const LayerEntry& entry : layer.entries) {
    if (entry.node["pattern"]) {
      leans.defines_rules = true;
    } else {
      leans.rules.push_back(entry.id);
    }
  }
  const std::set<std::string> own = OwnCategories(layer);
  for (const auto& [category, threshold] : layer.thresholds) {
    if (!own.count(category)) leans.categories.push_back(category);
  }
  return leans;
}

//! The default set a first layer lies on (`base: default`): DefaultRulesPath, unless GHSIFT_RULES
//! names this very layer, which would then lie on itself and nothing else; the bundled set then.
std::string BaseRulesPathFor(const std::string& layer_path) {
  const std::string path = DefaultRulesPath();
  std::error_code ec;
  return std::filesystem::equivalent(path, layer_path, ec) ? BundledRulesPath() : path;
}

//! The first layer with no `base: default` lies on nothing: an overlay (`rules tune --write`'s
//! weights and thresholds, `rules learn --write`'s phrases and overrides) given alone would fail
//! entry by entry ("missing 'pattern'", "which no rule has; the categories: " with an empty
//! list), which says nothing of the mistake: the rule set it goes on was not given. Said once,
//! from what the file holds, with the command line that works.
Status RefuseOverlayWithoutBase(const Layer& layer, const std::string& path) {
  // A layer with mistakes of its own (a bad id, a misspelt key such as `patern`, which leaves an
  // entry without a pattern) is no overlay: those are said entry by entry, with their lines.
  if (!layer.entry_errors.empty()) return Status::Ok();
  for (const LayerEntry& entry : layer.entries) {
    if (!entry.node.IsMap()) return Status::Ok();
    for (const auto& key : entry.node) {
      if (!key.first.IsScalar() || !kKnownKeys.count(key.first.Scalar())) return Status::Ok();
    }
  }
  const LayerLeans leans = LeansOfLayer(layer);
  // Every entry a whole rule, and thresholds of categories none of them names: a standalone file
  // whose tags and thresholds disagree (`perf:` above rules tagged `performance/...`). An overlay
  // always overrides some entry or holds no rule; this one is said with the categories it has.
  if (leans.empty() || (leans.rules.empty() && leans.defines_rules)) return Status::Ok();
  const std::string fix = ": an overlay is layered on a rule set, give the base first: --rules " + BaseRulesPathFor(path) +
                          " --rules " + path + " (or begin it with 'base: default')";
  if (!leans.defines_rules) return Status::InvalidArgument("--rules " + path + " holds no categories" + fix);
  std::string what;
  if (!leans.rules.empty()) what += "rules " + JoinNames(leans.rules, 5);
  if (!leans.categories.empty()) {
    what += (what.empty() ? "" : "; ") + std::string("thresholds of ") + JoinNames(leans.categories, 5);
  }
  return Status::InvalidArgument("--rules " + path + " overrides what it does not define (" + what + ")" + fix);
}

}  // namespace

std::string RulePlace(const std::string& source, const std::string& id, int line) {
  return source + ": rule '" + id + "'" + (line > 0 ? " (line " + std::to_string(line) + ")" : "");
}

Result<RuleSet> LoadRuleLayers(const std::vector<std::string>& paths) {
  RuleSet set;
  for (size_t i = 0; i < paths.size(); ++i) {
    auto layer = ReadLayer(paths[i]);
    if (!layer.ok()) return layer.status();
    if (!layer->base_source.empty()) {
      // `base: default` stands for the default set as the layer below it: only the first layer
      // can say so (later ones already lie on the layers before them).
      if (i > 0) {
        return Status::InvalidArgument(layer->base_source + ": 'base: default' only in the first --rules layer (this "
                                       "one lies on " + paths[i - 1] + ")");
      }
      auto base = ReadLayer(BaseRulesPathFor(paths[i]));
      if (!base.ok()) return base.status();
      GHSIFT_TRY(ApplyLayer(*base, set));
    } else if (i == 0) {
      GHSIFT_TRY(RefuseOverlayWithoutBase(*layer, paths[i]));
    }
    GHSIFT_TRY(ApplyLayer(*layer, set));
  }
  if (set.rules.empty()) {
    std::string names;
    for (const std::string& p : paths) names += (names.empty() ? "" : " + ") + p;
    return Status::InvalidArgument(names + ": the rule set has no rules");
  }
  return set;
}

Result<RuleSet> LoadRuleSet(const std::string& path) { return LoadRuleLayers({path}); }

std::string DefaultRulesPath() {
  if (const char* env = std::getenv("GHSIFT_RULES")) return env;
  return BundledRulesPath();
}

std::string BundledRulesPath() {
  // An installed binary (PREFIX/bin/ghsift) finds the rules installed beside it, wherever the
  // prefix was moved; a binary in the build tree uses the source tree's rules.
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path installed = exe.parent_path().parent_path() / "share" / "ghsift" / "rules";
    if (std::filesystem::is_directory(installed, ec)) return installed.string();
  }
  return GHSIFT_DEFAULT_RULES_DIR;
}

}  // namespace ghsift
