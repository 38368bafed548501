#include "rules/decision.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "common/short_digest.hpp"
#include "json/markdown_splitter.hpp"
#include "json/text_field.hpp"

namespace ghsift {

int64_t ToMicro(double value) { return std::llround(value * 1e6); }

namespace {

//! Whether a rule reads what SplitMarkdown makes of a text: a markdown field's prose or the code.
bool ReadsMarkdown(const Rule& rule) {
  for (const TextFieldSpec& spec : kTextFields) {
    const bool split = spec.markdown || spec.source == TextSource::kFences;
    if (split && (rule.fields & MaskOf(spec.field))) return true;
  }
  return false;
}

//! What decides which texts a rule matches, as 16 hex digits: its pattern, flags and fields, and
//! for a rule of markdown fields how the markdown is read.
std::string ScanDigest(const Rule& rule) {
  std::vector<std::string> flags = rule.flags;
  std::sort(flags.begin(), flags.end());
  std::string text = rule.pattern;
  text += '\0';
  for (const std::string& flag : flags) text += flag + ",";
  text += '\0';
  text += std::to_string(rule.fields);
  if (ReadsMarkdown(rule)) {
    text += '\0';
    text += MarkdownReading();
  }
  return ShortDigest(text);
}

}  // namespace

DecisionModel DecisionModel::FromRuleSet(const RuleSet& rules) {
  DecisionModel model;
  for (const Rule& r : rules.rules) {
    model.rules_[r.id] = {r.tag, r.category, r.categories, ToMicro(r.weight), {}, ScanDigest(r)};
    for (const std::string& c : r.ScoredCategories()) model.threshold_micro_[c] = ToMicro(rules.ThresholdOf(c));
    if (rules.facets.count(r.category)) model.facets_.insert(r.category);
  }
  model.verdict_ = rules.verdict;
  model.BuildIndex();
  return model;
}

void DecisionModel::BuildIndex() {
  categories_.clear();
  thresholds_.clear();
  for (const auto& [category, threshold] : threshold_micro_) {
    categories_.push_back(category);
    thresholds_.push_back(threshold);
  }
  for (auto& [id, info] : rules_) {
    info.category_indices.clear();
    for (const std::string& c : info.categories.empty() ? std::vector<std::string>{info.category} : info.categories) {
      const auto it = std::lower_bound(categories_.begin(), categories_.end(), c);
      if (it != categories_.end() && *it == c) info.category_indices.push_back(static_cast<int>(it - categories_.begin()));
    }
  }
}

bool DecisionModel::DecidesLike(const DecisionModel& other) const {
  if (threshold_micro_ != other.threshold_micro_ || verdict_ != other.verdict_) return false;
  if (rules_.size() != other.rules_.size()) return false;
  const auto has_scans = [](const DecisionModel& m) {
    return std::any_of(m.rules_.begin(), m.rules_.end(), [](const auto& entry) { return !entry.second.scan.empty(); });
  };
  const bool compare_scans = has_scans(*this) && has_scans(other);
  for (auto a = rules_.begin(), b = other.rules_.begin(); a != rules_.end(); ++a, ++b) {
    if (a->first != b->first) return false;
    const RuleInfo& x = a->second;
    const RuleInfo& y = b->second;
    if (x.tag != y.tag || x.category != y.category || x.categories != y.categories ||
        x.weight_micro != y.weight_micro || (compare_scans && x.scan != y.scan)) {
      return false;
    }
  }
  return true;
}

bool DecisionModel::MatchesLike(const DecisionModel& other, const std::string& rule_id) const {
  const auto here = rules_.find(rule_id);
  const auto there = other.rules_.find(rule_id);
  return here != rules_.end() && there != other.rules_.end() && !here->second.scan.empty() &&
         here->second.scan == there->second.scan;
}

// One line per rule: "rule ID TAG WEIGHT", plus ",".joined categories when the rule counts
// toward several (a fifth column stores written before it existed do not have).
std::string DecisionModel::Serialize() const {
  std::ostringstream out;
  for (const auto& [id, info] : rules_) {
    out << "rule\t" << id << '\t' << info.tag << '\t' << info.weight_micro;
    for (size_t i = 0; i < info.categories.size(); ++i) out << (i == 0 ? '\t' : ',') << info.categories[i];
    out << '\n';
  }
  // Scan digests apart from the rule lines, whose optional fifth column leaves no room after it.
  for (const auto& [id, info] : rules_) {
    if (!info.scan.empty()) out << "scan\t" << id << '\t' << info.scan << '\n';
  }
  for (const auto& [category, t] : threshold_micro_) out << "threshold\t" << category << '\t' << t << '\n';
  // Written even when empty: a model without this line predates facet marks (see Parse).
  out << "facets";
  for (const std::string& category : facets_) out << '\t' << category;
  out << '\n';
  // Only when there is one: stores built before verdict rules have no such line.
  if (!verdict_.empty()) out << "verdict\t" << verdict_ << '\n';
  return out.str();
}

namespace {
// Stores written before rule files could mark facets hold models without a `facets` line; their
// facets were those of the default rule set, so these names are read as facets there.
const char* const kFacetsBeforeMarks[] = {"stage", "info", "verdict-bug", "verdict-not-a-bug"};
}  // namespace

Result<DecisionModel> DecisionModel::Parse(std::string_view text) {
  DecisionModel model;
  std::istringstream in{std::string(text)};
  std::string line;
  bool facets_line = false;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string kind, name;
    fields >> kind >> name;
    if (kind == "rule") {
      RuleInfo info;
      fields >> info.tag >> info.weight_micro;
      info.category = info.tag.substr(0, info.tag.find('/'));
      std::string list;
      if (fields >> list) {
        std::istringstream names(list);
        for (std::string c; std::getline(names, c, ',');) info.categories.push_back(c);
      }
      model.rules_[name] = info;
    } else if (kind == "threshold") {
      int64_t t = 0;
      fields >> t;
      model.threshold_micro_[name] = t;
    } else if (kind == "scan") {
      const auto rule = model.rules_.find(name);
      std::string digest;
      if (rule == model.rules_.end() || !(fields >> digest)) {
        return Status::StoreError("damaged rule model line: " + line);
      }
      rule->second.scan = digest;
    } else if (kind == "facets") {
      facets_line = true;
      for (std::string category = name; !category.empty(); category.clear(), fields >> category) {
        model.facets_.insert(category);
      }
    } else if (kind == "verdict") {
      model.verdict_ = name;
    } else if (!line.empty()) {
      return Status::StoreError("damaged rule model line: " + line);
    }
  }
  if (!facets_line) {
    for (const char* category : kFacetsBeforeMarks) {
      if (model.threshold_micro_.count(category)) model.facets_.insert(category);
    }
  }
  model.BuildIndex();
  return model;
}

DecisionModel::CategorySums DecisionModel::Sum(const std::vector<std::string>& matched_rule_ids) const {
  // Each rule counts once: a stored report's ids are sorted and distinct already, so a copy is
  // made only for other input.
  const std::vector<std::string>* ids = &matched_rule_ids;
  std::vector<std::string> distinct;
  if (std::adjacent_find(ids->begin(), ids->end(), std::greater_equal<>()) != ids->end()) {
    distinct = matched_rule_ids;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    ids = &distinct;
  }
  CategorySums out{std::vector<int64_t>(categories_.size(), 0), std::vector<char>(categories_.size(), 0)};
  for (const std::string& id : *ids) {
    const auto it = rules_.find(id);
    if (it == rules_.end()) continue;
    for (const int index : it->second.category_indices) {
      const auto c = static_cast<size_t>(index);
      out.micro[c] += it->second.weight_micro;
      out.any[c] = 1;
    }
  }
  return out;
}

bool DecisionModel::CategorySums::Reaches(size_t c, int64_t threshold) const {
  // A category none of whose rules matched is never flagged, even with a threshold <= 0.
  return any[c] && micro[c] >= threshold;
}

std::vector<CategoryScore> DecisionModel::Score(const std::vector<std::string>& matched_rule_ids) const {
  const CategorySums sums = Sum(matched_rule_ids);
  std::vector<CategoryScore> scores;
  for (size_t c = 0; c < categories_.size(); ++c) {
    scores.push_back({categories_[c], sums.micro[c] / 1e6, thresholds_[c] / 1e6, sums.Reaches(c, thresholds_[c])});
  }
  return scores;
}

std::vector<std::string> DecisionModel::Flagged(const std::vector<std::string>& matched_rule_ids) const {
  const CategorySums sums = Sum(matched_rule_ids);
  std::vector<std::string> flagged;
  for (size_t c = 0; c < categories_.size(); ++c) {
    if (sums.Reaches(c, thresholds_[c])) flagged.push_back(categories_[c]);
  }
  return flagged;
}

namespace {
// The verdict of a model without a verdict category: maintainers' labels marked two facets, and
// "not a bug" won when both matched (maintainers add it to close a report out).
// Its three answers, sorted, as VerdictValues lists them.
constexpr const char* kBug = "bug";
constexpr const char* kLegacyNotABug = "not_a_bug";
constexpr const char* kLegacyUnclassified = "unclassified";
std::string VerdictFromLabelFacets(const std::vector<std::string>& flagged) {
  const auto has = [&](const char* c) { return std::find(flagged.begin(), flagged.end(), c) != flagged.end(); };
  if (has("verdict-not-a-bug")) return kLegacyNotABug;
  if (has("verdict-bug")) return kBug;
  return kLegacyUnclassified;
}

//! The kind a not-a-bug tag names: "not-a-bug/question" -> "question"; no subcategory: "not-a-bug".
std::string KindOfTag(const std::string& tag) {
  const size_t slash = tag.find('/');
  return slash == std::string::npos ? "not-a-bug" : tag.substr(slash + 1);
}
}  // namespace

bool IsNotABugVerdict(std::string_view verdict) {
  return verdict != kBug && verdict != kUnknownValue && verdict != kLegacyUnclassified;
}

std::string DecisionModel::Verdict(const std::vector<std::string>& matched_rule_ids) const {
  if (verdict_.empty()) return VerdictFromLabelFacets(Flagged(matched_rule_ids));
  const auto c = static_cast<size_t>(std::lower_bound(categories_.begin(), categories_.end(), verdict_) - categories_.begin());
  if (c >= categories_.size() || categories_[c] != verdict_) return kBug;
  const CategorySums sums = Sum(matched_rule_ids);
  if (!sums.Reaches(c, thresholds_[c])) return kBug;
  // The kind with the most weight among the not-a-bug evidence; ties go to the first name.
  std::map<std::string, int64_t> by_kind;
  std::set<std::string> seen;
  for (const std::string& id : matched_rule_ids) {
    const auto it = rules_.find(id);
    if (it == rules_.end() || it->second.weight_micro <= 0 || !seen.insert(id).second) continue;
    const auto& indices = it->second.category_indices;
    if (std::find(indices.begin(), indices.end(), static_cast<int>(c)) == indices.end()) continue;
    by_kind[KindOfTag(it->second.tag)] += it->second.weight_micro;
  }
  std::string best = "not-a-bug";
  int64_t most = 0;
  for (const auto& [kind, weight] : by_kind) {
    if (weight > most) best = kind, most = weight;
  }
  return best;
}

std::vector<std::string> DecisionModel::VerdictValues() const {
  if (verdict_.empty()) return {kBug, kLegacyNotABug, kLegacyUnclassified};
  std::set<std::string> values = {kBug};
  for (const auto& [id, info] : rules_) {
    const auto& cats = info.categories.empty() ? std::vector<std::string>{info.category} : info.categories;
    if (info.weight_micro > 0 && std::find(cats.begin(), cats.end(), verdict_) != cats.end()) {
      values.insert(KindOfTag(info.tag));
    }
  }
  return {values.begin(), values.end()};
}

std::vector<std::string> DecisionModel::Subcategories() const {
  std::set<std::string> tags;
  for (const auto& [id, info] : rules_) {
    if (info.weight_micro > 0 && info.tag.find('/') != std::string::npos) tags.insert(info.tag);
  }
  return {tags.begin(), tags.end()};
}

std::vector<std::string> DecisionModel::Problems(const std::vector<std::string>& flagged) const {
  std::vector<std::string> out;
  for (const std::string& c : flagged) {
    if (!IsFacet(c)) out.push_back(c);
  }
  return out;
}

std::vector<std::string> DecisionModel::FacetsAmong(const std::vector<std::string>& flagged) const {
  std::vector<std::string> out;
  for (const std::string& c : flagged) {
    if (IsFacet(c)) out.push_back(c);
  }
  return out;
}

std::string DecisionModel::CategoryOf(const std::string& rule_id) const {
  auto it = rules_.find(rule_id);
  return it == rules_.end() ? std::string() : it->second.category;
}

std::vector<std::string> DecisionModel::CategoriesOf(const std::string& rule_id) const {
  auto it = rules_.find(rule_id);
  if (it == rules_.end()) return {};
  return it->second.categories.empty() ? std::vector<std::string>{it->second.category} : it->second.categories;
}

double DecisionModel::WeightOf(const std::string& rule_id) const {
  auto it = rules_.find(rule_id);
  return it == rules_.end() ? 0.0 : it->second.weight_micro / 1e6;
}

std::string DecisionModel::TagOf(const std::string& rule_id) const {
  auto it = rules_.find(rule_id);
  return it == rules_.end() ? std::string() : it->second.tag;
}

bool DecidesLikeDefaultRules(const DecisionModel& model) {
  auto bundled = LoadRuleSet(DefaultRulesPath());
  return bundled.ok() && DecisionModel::FromRuleSet(*bundled).DecidesLike(model);
}

}  // namespace ghsift
