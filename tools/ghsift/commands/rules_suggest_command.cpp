// ghsift rules suggest (--labels FILE... | --suite FILE [--data DIR]) --positive C [--field title|body|comment|...]
//                      [--top N] [--holdout GROUP] [--min-positive N]
#include <iostream>
#include <set>

#include "commands/commands.hpp"
#include "commands/common_options.hpp"
#include "commands/estimate_output.hpp"
#include "commands/eval_provenance.hpp"
#include "commands/labeled_input.hpp"
#include "eval/phrase_miner.hpp"
#include "json/report_text.hpp"
#include "output.hpp"

namespace ghsift::cli {
namespace {

struct SuggestArgs {
  LabeledInputArgs input;
  std::string field = "title";
  size_t top = 25;
  std::string holdout;
  PhraseOptions phrases;
};

// The text of the chosen field as the rules see it: prose without fenced code; the texts of a
// field with many (comments) apart from each other (a '.' between them ends every phrase, as a
// separate scan would).
std::string FieldText(const LabeledReport& r, Field field) {
  std::string out;
  for (const std::string& text : r.text[field]) {
    out += Prose(field, text);
    if (Spec(field).source != TextSource::kSnapshot) out += "\n.\n";
  }
  return out;
}

//! The fields phrases are mined from: prose (not code, not labels).
std::string MinableFieldNames() { return FieldNames(IsProse); }

std::string RuleIdOf(const std::string& category, const std::string& phrase) {
  const std::string prefix = category == "performance" ? "perf" : category == "accuracy" ? "acc"
                             : category == "silent"    ? "sil"
                                                       : category;
  std::string id = prefix + ".suggested.";
  for (char c : phrase) id += c == ' ' ? '-' : c == '_' ? '-' : c;
  return id;
}

//! Where a set labeled with a union goes instead (see RunSuggest's mining of groups).
std::string UnionSetHint(const std::set<std::string>& categories) {
  std::string listed;
  for (const std::string& c : categories) listed += (listed.empty() ? "" : ", ") + c;
  return "a set labeled with the union goes in a --suite entry with positive: [" + listed +
         "]: suggest mines it when no set is labeled for the category alone, and says so";
}

int RunSuggest(SuggestArgs args) {
  // A union label does not say which category a positive speaks of: mining it under one name
  // would take the other's phrases for this one's.
  Result<std::string> one =
      OneCategory(args.input.positive, "rules suggest", "a suggested rule carries one category", UnionSetHint);
  if (!one.ok()) return Fail(one.status().message());
  const std::string category = *one;
  args.input.positive = category;
  args.input.suite_takes_positive = true;
  auto input = LoadLabeledInput(args.input);
  if (!input.ok()) return Fail(input.status().message());
  auto provenance = ProvenanceOf(*input);
  if (!provenance.ok()) return Fail(provenance.status().message());
  std::cout << TerminalSafe(ProvenanceLine(*provenance)) << "\n";
  const MatchTable& table = input->table;
  const int c = table.CategoryIndex(category);
  if (c < 0) return Fail("--positive: no rule has category '" + category + "'");
  bool holdout_found = args.holdout.empty();
  std::vector<std::string> texts(input->reports.size());
  std::vector<std::string_view> views;
  std::vector<int> label;
  std::vector<char> unmatched;
  std::vector<size_t> held_out;
  std::string mined_groups;
  int64_t positives = 0, negatives = 0, unmatched_total = 0;
  // Groups labeled for this category alone are mined when there are any: a set whose label is a
  // union (MHNurf: performance or accuracy) would teach "accuracy" as a performance phrase.
  const auto has_c = [&](const auto& group) {
    return std::find(group.positive.begin(), group.positive.end(), c) != group.positive.end();
  };
  bool exact_groups = false;
  for (const auto& group : table.groups) {
    exact_groups = exact_groups || (group.name != args.holdout && group.positive.size() == 1 && has_c(group));
  }
  const auto minable = [&](const auto& group) { return has_c(group) && (!exact_groups || group.positive.size() == 1); };
  std::string union_note;
  for (size_t g = 0; g < table.groups.size(); ++g) {
    const auto& group = table.groups[g];
    if (!has_c(group)) continue;
    if (group.name != args.holdout && !minable(group)) continue;
    if (group.name != args.holdout && group.positive.size() > 1 && union_note.empty()) {
      union_note = " (their label is the union " + group.positive_name + ": a phrase of either counts)";
    }
    if (group.name == args.holdout) {
      holdout_found = true;
      held_out.assign(group.reports.begin(), group.reports.end());
      continue;
    }
    mined_groups += (mined_groups.empty() ? "" : ", ") + TerminalSafe(group.name);
  }
  if (!holdout_found) return Fail("--holdout: no group '" + args.holdout + "' with positive category " + category);
  for (size_t i = 0; i < input->reports.size(); ++i) {
    const auto& group = table.groups[static_cast<size_t>(table.group[i])];
    const bool mined = group.name != args.holdout && minable(group);
    texts[i] = FieldText(input->reports[i], *FieldFromName(args.field));
    views.push_back(texts[i]);
    const bool matched = std::any_of(table.matched[i].begin(), table.matched[i].end(),
                                     [&](uint32_t r) { return table.CountsToward(r, c); });
    label.push_back(mined ? table.label[i] : -1);
    unmatched.push_back(!matched);
    if (mined && table.label[i] == 1) ++positives, unmatched_total += !matched;
    if (mined && table.label[i] == 0) ++negatives;
  }
  if (positives == 0) return Fail("rules suggest: no labeled positive report to mine for " + category);
  const auto phrases = MinePhrases(views, label, unmatched, args.phrases);
  const size_t shown = std::min(args.top, phrases.size());

  // Every suggested pattern is compiled by Hyperscan, and scans the held-out group when one is given.
  RuleSet suggested;
  for (size_t k = 0; k < shown; ++k) {
    Rule rule;
    rule.id = RuleIdOf(category, phrases[k].phrase);
    rule.tag = rule.category = category;
    rule.pattern = PhrasePattern(phrases[k].phrase);
    rule.fields = MaskOf(*FieldFromName(args.field));
    rule.flags = {"caseless"};
    suggested.rules.push_back(rule);
  }
  std::vector<int64_t> hits(shown, 0), positive_hits(shown, 0);
  int64_t held_positives = 0;
  if (shown > 0) {
    auto db = RuleDatabase::Compile(suggested);
    if (!db.ok()) return Fail(db.status().message());
    std::vector<LabeledReport> reports;
    for (size_t i : held_out) reports.push_back(input->reports[i]);
    const auto verdicts = JudgeReports(*db, reports);
    for (size_t j = 0; j < reports.size(); ++j) {
      const bool positive = table.label[held_out[j]] == 1;
      held_positives += positive;
      for (const std::string& id : verdicts[j].rules) {
        for (size_t k = 0; k < shown; ++k) {
          if (suggested.rules[k].id == id) ++hits[k], positive_hits[k] += positive;
        }
      }
    }
  }
  std::cout << "Phrases of the " << args.field << " that separate " << category << " reports from the others, mined on "
            << mined_groups << union_note << ": " << positives << " positive (" << unmatched_total << " matched by no " << category
            << " rule yet), " << negatives << " negative.\nRanked by weighted log-odds with an informative Dirichlet "
               "prior (z-score); pos/neg: reports containing the phrase; unmatched: positives no "
            << category << " rule matches that contain it.\n";
  std::vector<std::string> columns = {"#", "phrase", "z", "log-odds", "pos", "neg", "unmatched"};
  std::vector<bool> numeric = {true, false, true, true, true, true, true};
  if (!args.holdout.empty()) {
    for (const char* col : {"holdout hits", "holdout pos", "holdout prec"}) columns.push_back(col), numeric.push_back(true);
  }
  std::vector<std::vector<std::string>> rows;
  for (size_t k = 0; k < shown; ++k) {
    const PhraseStat& p = phrases[k];
    std::vector<std::string> row = {std::to_string(k + 1), p.phrase, Fixed3(p.z), Fixed3(p.log_odds),
                                    std::to_string(p.positive), std::to_string(p.negative),
                                    std::to_string(p.unmatched_positive)};
    if (!args.holdout.empty()) {
      row.push_back(std::to_string(hits[k]));
      row.push_back(std::to_string(positive_hits[k]));
      row.push_back(hits[k] ? Fixed3(static_cast<double>(positive_hits[k]) / static_cast<double>(hits[k])) : "-");
    }
    rows.push_back(std::move(row));
  }
  WriteTable(std::cout, Format::kTable, columns, rows, numeric);
  if (phrases.size() > shown) {
    std::cout << "(cut: " << phrases.size() - shown << " more phrases with z > 0 in at least "
              << args.phrases.min_positive << " positives; --top N shows more)\n";
  }
  if (!args.holdout.empty()) {
    std::cout << "holdout " << args.holdout << ": " << held_out.size() << " reports, " << held_positives
              << " positive, scanned with each pattern below\n";
  }
  if (shown > 0) std::cout << "\nRule lines (paste under `rules:`; choose a subcategory tag and check the hits first):\n";
  for (const Rule& r : suggested.rules) {
    std::cout << "  - {id: " << r.id << ", tag: " << r.tag << ", pattern: '" << r.pattern << "', fields: [" << args.field
              << "], flags: [caseless]}\n";
  }
  return kExitOk;
}

}  // namespace

void AddRulesSuggestCommand(CLI::App& command, int& exit_code) {
  auto args = std::make_shared<SuggestArgs>();
  args->input.positive.clear();  // one category, named by the user
  CLI::App* cmd = &command;
  AddLabeledInputOptions(*cmd, args->input);
  std::vector<std::string> minable;
  for (const TextFieldSpec& spec : kTextFields) {
    if (IsProse(spec)) minable.emplace_back(spec.name);
  }
  cmd->add_option("--field", args->field, "Field mined: " + MinableFieldNames())
      ->check(CLI::IsMember(minable))
      ->capture_default_str();
  cmd->add_option("--top", args->top, "Phrases listed")->capture_default_str()->check(PositiveCountCheck());
  cmd->add_option("--holdout", args->holdout, "Group left out of mining; each suggestion is scored on it");
  cmd->add_option("--min-positive", args->phrases.min_positive, "Positive reports a phrase must appear in")
      ->capture_default_str();
  cmd->add_option("--prior", args->phrases.prior_scale, "Prior strength: alpha0 = this times all phrase counts")
      ->capture_default_str();
  cmd->callback([args, &exit_code] { exit_code = RunSuggest(*args); });
}

}  // namespace ghsift::cli
