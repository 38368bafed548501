#include "eval/reference_words.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>

#include "eval/evaluation.hpp"
#include "rules/rule_database.hpp"

namespace ghsift {
namespace {

std::string Trimmed(const std::string& line) {
  const size_t begin = line.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return line.substr(begin, line.find_last_not_of(" \t\r") + 1 - begin);
}

//! A word as a literal in a Hyperscan expression: every character that is not a letter, a digit
//! or a space is escaped ("c++" → "c\+\+").
std::string EscapedLiteral(const std::string& word) {
  std::string out;
  for (const char ch : word) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != ' ') out.push_back('\\');
    out.push_back(ch);
  }
  return out;
}

//! A YAML single-quoted scalar: a quote is written twice.
std::string SingleQuoted(const std::string& text) {
  std::string out = "'";
  for (const char ch : text) {
    out.push_back(ch);
    if (ch == '\'') out.push_back('\'');
  }
  return out + "'";
}

}  // namespace

Result<ReferenceWords> ParseReferenceWords(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    return Status::InvalidArgument("--reference '" + text + "': give CATEGORY=FILE, e.g. performance=words.txt");
  }
  return ReferenceWords{text.substr(0, eq), text.substr(eq + 1)};
}

Result<std::string> ReferencePattern(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IoError(path + ": cannot read the word list");
  std::string alternation;
  std::set<std::string> seen;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string word = Trimmed(line);
    if (word.empty() || word[0] == '#') continue;
    for (const char ch : word) {
      if (std::iscntrl(static_cast<unsigned char>(ch))) {
        return Status::InvalidArgument(path + ":" + std::to_string(number) + ": a control character in a word");
      }
    }
    if (!seen.insert(word).second) continue;
    if (!alternation.empty()) alternation += '|';
    alternation += EscapedLiteral(word);
  }
  if (alternation.empty()) return Status::InvalidArgument(path + ": the word list has no word");
  return "\\b(" + alternation + ")\\b";
}

Result<RuleSet> ReferenceRuleSet(const std::vector<ReferenceWords>& lists) {
  std::string categories = "categories:\n";
  std::string rules = "rules:\n";
  std::set<std::string> named;
  for (const ReferenceWords& list : lists) {
    if (!named.insert(list.category).second) {
      return Status::InvalidArgument("--reference: two word lists for " + list.category);
    }
    auto pattern = ReferencePattern(list.path);
    if (!pattern.ok()) return pattern.status();
    categories += "  " + SingleQuoted(list.category) + ": {threshold: 1.0}\n";
    rules += "  - id: " + SingleQuoted("reference." + list.category) + "\n    tag: " +
             SingleQuoted(list.category + "/reference") + "\n    pattern: " + SingleQuoted(*pattern) +
             "\n    fields: [title, body]\n    flags: [caseless]\n    weight: 1.0\n";
  }
  RuleSet set;
  GHSIFT_TRY(ParseRuleYaml(categories + rules, "the reference word lists", set));
  return set;
}

Result<std::vector<std::optional<ReferenceGroupScore>>> ScoreReferenceWords(const std::vector<ReferenceWords>& lists,
                                                                   const std::vector<LabeledReport>& reports,
                                                                   const std::vector<GroupDefinition>& groups,
                                                                   const std::vector<int>& report_group) {
  auto set = ReferenceRuleSet(lists);
  if (!set.ok()) return set.status();
  auto database = RuleDatabase::Compile(*set);
  if (!database.ok()) return database.status();
  const RuleSet& rules = (*database)->rules();
  const MatchTable table = BuildMatchTable(rules, reports, JudgeReports(*database, reports), groups, report_group);
  const DecisionParams params = table.ParamsOf(rules);
  std::vector<std::optional<ReferenceGroupScore>> scores(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    const bool covered = std::all_of(groups[g].positive.begin(), groups[g].positive.end(),
                                     [&](const std::string& c) { return table.CategoryIndex(c) >= 0; });
    if (!covered || groups[g].positive.empty()) continue;
    ReferenceGroupScore& s = scores[g].emplace();
    s.score = ScoreGroup(table, g, params);
    s.decided.objective_f1 = table.groups[g].objective_f1;
    for (uint32_t i : table.groups[g].reports) {
      if (table.label[i] >= 0) s.decided.reports.push_back({table.Predicted(i, params), table.label[i] == 1, i});
    }
  }
  return scores;
}

}  // namespace ghsift
