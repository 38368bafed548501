#include "commands/estimate_output.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <set>

#include "common/ascii_case.hpp"
#include "common/number_text.hpp"
#include "eval/labeled_report.hpp"
#include "output.hpp"

namespace ghsift::cli {
namespace {

bool Labeled(const Confusion& c) { return c.tp + c.fp + c.fn + c.tn > 0; }

//! Recall and F1 of a group without one positive report are 0/0, as is the precision of rules
//! that flag none of its reports: shown as n/a, not as 0.000.
std::vector<std::string> Cells(const Confusion& c, bool full) {
  const bool positives = c.tp + c.fn > 0;
  const std::string f1 = positives ? Fixed3(c.f1()) : "n/a";
  if (!full) return {f1, Fixed3(c.macro_f1())};
  return {c.tp + c.fp > 0 ? Fixed3(c.precision()) : "n/a", positives ? Fixed3(c.recall()) : "n/a", f1,
          Fixed3(c.macro_f1())};
}



std::string ConfusionJson(const Confusion& c) {
  return "{\"tp\": " + std::to_string(c.tp) + ", \"fp\": " + std::to_string(c.fp) + ", \"fn\": " +
         std::to_string(c.fn) + ", \"tn\": " + std::to_string(c.tn) + ", \"precision\": " + Fixed3(c.precision()) +
         ", \"recall\": " + Fixed3(c.recall()) + ", \"f1\": " + Fixed3(c.f1()) +
         ", \"macro_f1\": " + Fixed3(c.macro_f1()) + "}";
}

std::string JsonKey(const std::string& name) {
  std::string key;
  for (char ch : name) key += ch == ' ' || ch == '-' ? '_' : ch;
  return key;
}

bool IsHeldOut(const ScoreColumn& b) { return b.score == &GroupEstimate::held_out; }

//! The group's objective for the better of the two answers that read nothing: every report
//! flagged, or none. It is the figure a rule set must beat to say anything: F1 over a set where
//! a quarter of the reports are positive is 0.4 when every report is flagged, and macro-F1 over a
//! set of a tenth positives is about 0.47 when none is.
double ConstantObjective(const Confusion& c, bool objective_f1) {
  const Confusion all{.tp = c.tp + c.fn, .fp = c.fp + c.tn, .fn = 0, .tn = 0};
  const Confusion none{.tp = 0, .fp = 0, .fn = c.tp + c.fn, .tn = c.fp + c.tn};
  return objective_f1 ? all.f1() : std::max(all.macro_f1(), none.macro_f1());
}

//! Mean of `value` over the groups whose objective is defined under `score` (a group scored on F1
//! without a positive report has none and is left out): the one rule every printed mean follows.
double MeanOverScoredGroups(const MatchTable& table, const Estimates& e, GroupScore GroupEstimate::*score,
                            const std::function<double(size_t, const GroupScore&)>& value) {
  double sum = 0;
  int n = 0;
  for (size_t g = 0; g < table.groups.size(); ++g) {
    const GroupScore& s = e.groups[g].*score;
    if (!ObjectiveDefined(table.groups[g], s.confusion)) continue;
    sum += value(g, s);
    ++n;
  }
  return n ? sum / n : 0;
}

//! "LOGO - word list +0.133, paired 95% CI [0.105, 0.160]".
std::string MarginText(double margin, const Interval& interval) {
  return "LOGO - word list " + SignedFixed3(margin) + ", paired 95% CI " + IntervalText(interval);
}

//! The word lists' objective on group `g`, when they cover it and it can be scored.
std::optional<double> ReferenceMetric(const MatchTable& table, const ReferenceScores& reference, size_t g) {
  if (g >= reference.size() || !reference[g]) return std::nullopt;
  if (!ObjectiveDefined(table.groups[g], reference[g]->score.confusion)) return std::nullopt;
  return reference[g]->score.Metric(table.groups[g].objective_f1);
}

//! The paired interval of group `g`'s LOGO objective minus the word lists', when both score it.
std::optional<Interval> GroupMargin(const MatchTable& table, const Estimates& e, const ReferenceScores& reference,
                                    size_t g) {
  if (!ReferenceMetric(table, reference, g) || !ObjectiveDefined(table.groups[g], e.groups[g].held_out.confusion)) {
    return std::nullopt;
  }
  return BootstrapMeanDifference({e.groups[g].held_out_reports}, {reference[g]->decided});
}

struct ReferenceMeans {
  double words = 0, logo = 0;  //!< means over the same groups
  int groups = 0;
  //! The paired interval of logo - words (BootstrapMeanDifference): the rules' margin over the
  //! lists with the spread another sample of the same groups' reports would give it.
  Interval margin;
};

//! The word lists' mean objective and LOGO's over the groups both can score.
ReferenceMeans MeansOnReferenceGroups(const MatchTable& table, const Estimates& e, const ReferenceScores& reference) {
  ReferenceMeans m;
  std::vector<DecidedGroup> logo_reports, words_reports;
  for (size_t g = 0; g < table.groups.size(); ++g) {
    const std::optional<double> metric = ReferenceMetric(table, reference, g);
    if (!metric || !ObjectiveDefined(table.groups[g], e.groups[g].held_out.confusion)) continue;
    m.words += *metric;
    m.logo += e.groups[g].held_out.Metric(table.groups[g].objective_f1);
    ++m.groups;
    logo_reports.push_back(e.groups[g].held_out_reports);
    words_reports.push_back(reference[g]->decided);
  }
  if (m.groups > 0) m.words /= m.groups, m.logo /= m.groups;
  m.margin = BootstrapMeanDifference(logo_reports, words_reports);
  return m;
}

}  // namespace

std::string ReferenceSummary(const MatchTable& table, const Estimates& e, const ReferenceScores& reference) {
  if (reference.empty()) return "";
  const ReferenceMeans means = MeansOnReferenceGroups(table, e, reference);
  if (means.groups == 0) return "reference word lists: no group they cover can be scored";
  return "reference word lists: " + Fixed3(means.words) + " over the " +
         Counted(static_cast<uint64_t>(means.groups), "group") + " they cover, where LOGO is " + Fixed3(means.logo) +
         " (" + MarginText(means.logo - means.words, means.margin) + ")";
}

std::string SignedFixed3(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.3f", v);
  return text;
}

std::string IntervalText(const Interval& i) {
  return "[" + Fixed3(i.low) + ", " + Fixed3(i.high) + "]";
}

std::string Fixed3(double v) { return Fixed(v, 3); }

std::string LogoHeading(const MatchTable& table, const std::string& fitted) {
  if (table.groups.size() != 1) {
    std::string heading = "Leave-one-group-out (LOGO): " + fitted +
                          " fitted on the other groups, scored on the held-out group: the estimate to quote. Its 95% "
                          "CI is a bootstrap over the group's reports (1,000 resamples): the spread a sample of that "
                          "size allows.\n";
    std::string left_out;
    for (size_t g = 0; g < table.groups.size(); ++g) {
      if (const size_t n = table.RulesWrittenFrom(g); n > 0) {
        left_out += (left_out.empty() ? "" : ", ") + table.groups[g].name + " " + std::to_string(n);
      }
    }
    if (!left_out.empty()) {
      heading += "Rules written from a group's reports (written_from) are left out of its LOGO score: " + left_out +
                 ".\n";
    }
    return heading;
  }
  return "One group (" + table.groups.front().name +
         "): nothing can be held out, so the LOGO columns are the rule set as written, scored on the reports it "
         "may have been written from. For an estimate, give files of other frameworks or projects, or --group-by "
         "repo.\n";
}

std::string FittedLayerNote(const RuleSet& rules, const MatchTable& table, const std::string& data_digest) {
  std::string note;
  for (const FittedLayer& layer : rules.fitted) {
    std::vector<std::string> shared;
    for (const auto& g : table.groups) {
      if (std::find(layer.groups.begin(), layer.groups.end(), g.name) != layer.groups.end()) shared.push_back(g.name);
    }
    if (shared.empty()) continue;
    std::string names;
    for (const auto& name : shared) names += (names.empty() ? "" : ", ") + name;
    // A layer that records its data says whether it saw these very reports or others of the
    // same groups' names (another version of a labeled file, say).
    std::string which;
    if (!layer.data_digest.empty() && !data_digest.empty()) {
      which = layer.data_digest == data_digest ? ", on this very data (digest " + data_digest + ")"
                                               : ", in other data (digest " + layer.data_digest + "; here " + data_digest + ")";
    }
    note += "Careful: " + layer.source + " was fitted (`rules tune` or `rules learn`) on groups scored here (" + names +
            ")" + which + ": on them even the LOGO columns are in-sample. The fit's own leave-one-group-out estimate was " +
            Fixed3(layer.logo) + ".\n";
  }
  return note;
}

void WarnOfFullyFlaggedGroups(const MatchTable& table, const Estimates& e) {
  for (size_t g = 0; g < table.groups.size(); ++g) {
    const Confusion& c = e.groups[g].written.confusion;
    const std::string name = TerminalSafe(table.groups[g].name);
    // A `sample` or `issues` export says which reports its store flagged: when every labeled one
    // was, the file is a sample of flagged reports even where these rules, scoring the exported
    // text, do not flag some (a title edited after the flag, or other rules).
    size_t labeled = 0, exported_flagged = 0;
    for (const uint32_t i : table.groups[g].reports) {
      labeled += table.label[i] >= 0;
      exported_flagged += table.label[i] >= 0 && table.exported_flagged[i] == 1;
    }
    const int64_t unflagged = c.fn + c.tn;
    if (labeled > 0 && exported_flagged == labeled && unflagged > 0) {
      const std::string precision = c.tp + c.fp > 0 ? Fixed3(c.precision()) : "n/a: these rules flag none of them";
      std::fprintf(stderr,
                   "ghsift: warning: every labeled report of %s was flagged by the store that exported it (its "
                   "'%s' column), and %lld of them %s not flagged by these rules on the exported text (edited "
                   "after the flag, or other rules): a sample of flagged reports, so its recall, true negatives, F1 "
                   "and macro-F1 say nothing of the rules; only its precision (%s) means anything\n",
                   name.c_str(), std::string(kExportedCategoriesKey).c_str(), static_cast<long long>(unflagged),
                   unflagged == 1 ? "is" : "are", precision.c_str());
    } else if (c.tp + c.fp > 0 && unflagged == 0) {
      std::fprintf(stderr,
                   "ghsift: warning: every labeled report of %s is flagged by these rules (a sample of flagged "
                   "reports?): its recall, true negatives, F1 and macro-F1 are 1 or 0 by construction; only its "
                   "precision (%s) means anything\n",
                   name.c_str(), Fixed3(c.precision()).c_str());
    }
  }
}

double MeanConstant(const MatchTable& table, const Estimates& e) {
  return MeanOverScoredGroups(table, e, &GroupEstimate::written, [&](size_t g, const GroupScore& s) {
    return ConstantObjective(s.confusion, table.groups[g].objective_f1);
  });
}

std::string MeanText(const MatchTable& table, const Estimates& e, GroupScore GroupEstimate::*score) {
  const bool any = std::any_of(table.groups.begin(), table.groups.end(), [&](const auto& group) {
    const size_t g = static_cast<size_t>(&group - table.groups.data());
    return ObjectiveDefined(group, (e.groups[g].*score).confusion);
  });
  return any ? Fixed3(MeanObjective(table, e, score)) : "n/a (no group can be scored)";
}

double MeanObjective(const MatchTable& table, const Estimates& e, GroupScore GroupEstimate::*score) {
  return MeanOverScoredGroups(table, e, score,
                              [&](size_t g, const GroupScore& s) { return s.Metric(table.groups[g].objective_f1); });
}

namespace {

struct TableColumns {
  std::vector<std::string> names;
  std::vector<bool> numeric;  //!< right-aligned
  void Add(std::string name, bool is_numeric = true) {
    names.push_back(std::move(name));
    numeric.push_back(is_numeric);
  }
};

TableColumns EstimateColumns(const std::vector<ScoreColumn>& blocks, bool with_word_lists) {
  TableColumns columns;
  columns.Add("group", false);
  columns.Add("reports");
  columns.Add("positives");
  for (const ScoreColumn& b : blocks) {
    for (const char* m : b.full ? std::vector<const char*>{"prec", "recall", "F1", "macro-F1"}
                                : std::vector<const char*>{"F1", "macro-F1"}) {
      columns.Add(b.name + " " + m);
    }
    if (IsHeldOut(b)) columns.Add(b.name + " 95% CI");
  }
  if (with_word_lists) {  // the references a rule set must beat, side by side
    columns.Add("word list");
    columns.Add("LOGO - word list");  // with its paired interval: is the margin more than the sample?
  }
  columns.Add("constant");  // last, so that a reader compares the columns before it with it
  return columns;
}

//! The groups' positive sets ("performance", "silent & bug", ...) in the order they first appear.
std::vector<std::string> PositiveSets(const MatchTable& table) {
  std::vector<std::string> sets;
  for (const auto& g : table.groups) {
    if (std::find(sets.begin(), sets.end(), g.positive_name) == sets.end()) sets.push_back(g.positive_name);
  }
  return sets;
}

//! One positive set's groups: a row each, a pooled row, and the sums its summary line quotes.
struct PositiveSetRows {
  std::vector<std::vector<std::string>> rows;
  std::vector<Confusion> pooled;  //!< per block
  std::vector<double> mean;       //!< per block, the sum until divided
  double constant_sum = 0;        //!< the better answer that reads nothing
  double words_sum = 0;           //!< the word lists', over the same groups when they cover them all
  bool words_cover = false;
  Confusion words_pooled;
  int groups = 0;
  int unscored = 0;  //!< F1 groups without a positive report: shown, left out of the mean
  std::vector<DecidedGroup> scored_reports;  //!< for the interval of the held-out mean
  std::vector<DecidedGroup> words_reports;   //!< the word lists' decisions on the same groups, when they cover them
  bool f1_objective = false;
};

PositiveSetRows RowsOfPositiveSet(const std::string& set, const MatchTable& table, const Estimates& e,
                                  const std::vector<ScoreColumn>& blocks, const ReferenceScores& reference) {
  PositiveSetRows r;
  r.pooled.resize(blocks.size());
  r.mean.assign(blocks.size(), 0);
  r.words_cover = !reference.empty();
  for (size_t g = 0; g < table.groups.size(); ++g) {
    if (table.groups[g].positive_name != set) continue;
    const GroupEstimate& ge = e.groups[g];
    const Confusion& c = (ge.*blocks[0].score).confusion;
    if (!Labeled(c)) continue;
    r.f1_objective = table.groups[g].objective_f1;
    const bool scored = ObjectiveDefined(table.groups[g], c);
    std::vector<std::string> row = {table.groups[g].name, std::to_string(c.tp + c.fp + c.fn + c.tn),
                                    std::to_string(c.tp + c.fn)};
    for (size_t b = 0; b < blocks.size(); ++b) {
      const GroupScore& s = ge.*blocks[b].score;
      for (auto& cell : Cells(s.confusion, blocks[b].full)) row.push_back(cell);
      if (IsHeldOut(blocks[b])) row.push_back(scored ? IntervalText(ge.held_out_interval) : "n/a");
      r.pooled[b] += s.confusion;
      if (scored) r.mean[b] += s.Metric(table.groups[g].objective_f1);
    }
    if (!reference.empty()) {
      const std::optional<double> words = ReferenceMetric(table, reference, g);
      row.push_back(scored && words ? Fixed3(*words) : "n/a");
      const std::optional<Interval> margin = scored ? GroupMargin(table, e, reference, g) : std::nullopt;
      row.push_back(margin ? SignedFixed3(ge.held_out.Metric(table.groups[g].objective_f1) - *words) + " " +
                                 IntervalText(*margin)
                           : "n/a");
      if (scored) r.words_cover = r.words_cover && words.has_value();
      if (scored && words) r.words_sum += *words, r.words_reports.push_back(reference[g]->decided);
      if (reference[g]) r.words_pooled += reference[g]->score.confusion;
    }
    const double constant = ConstantObjective(c, table.groups[g].objective_f1);
    row.push_back(scored ? Fixed3(constant) : "n/a");
    if (scored) r.constant_sum += constant;
    r.rows.push_back(std::move(row));
    scored ? ++r.groups : ++r.unscored;
    if (scored) r.scored_reports.push_back(ge.held_out_reports);
  }
  if (r.rows.empty()) return r;
  const Confusion& p0 = r.pooled[0];
  std::vector<std::string> pooled_row = {"pooled", std::to_string(p0.tp + p0.fp + p0.fn + p0.tn),
                                         std::to_string(p0.tp + p0.fn)};
  for (size_t b = 0; b < blocks.size(); ++b) {
    for (auto& cell : Cells(r.pooled[b], blocks[b].full)) pooled_row.push_back(cell);
    if (IsHeldOut(blocks[b])) pooled_row.push_back("");
  }
  if (!reference.empty()) {
    pooled_row.push_back(r.words_cover ? Fixed3(r.f1_objective ? r.words_pooled.f1() : r.words_pooled.macro_f1())
                                       : "n/a");
    pooled_row.push_back("");  // the margin of the mean is in the summary line above the table
  }
  pooled_row.push_back(Fixed3(ConstantObjective(p0, r.f1_objective)));
  r.rows.push_back(std::move(pooled_row));
  return r;
}

//! "positive performance (each group's objective: F1; mean over 10 groups, ...: LOGO 0.652 (95% CI
//! [...]), in-sample 0.682; word list 0.443; constant ... 0.175)"
void PrintPositiveSetSummary(std::ostream& out, const std::string& set, const PositiveSetRows& r,
                             const std::vector<ScoreColumn>& blocks) {
  out << "positive " << set << " (each group's objective: " << (r.f1_objective ? "F1" : "macro-F1")
      << "; mean over " << Counted(r.groups, "group");
  if (r.unscored > 0) out << ", leaving out " << r.unscored << " without a positive report (F1 n/a)";
  out << ":";
  for (size_t b = 0; b < blocks.size(); ++b) {
    out << (b ? ", " : " ") << blocks[b].name << " " << (r.groups > 0 ? Fixed3(r.mean[b] / r.groups) : "n/a");
    if (IsHeldOut(blocks[b]) && r.groups > 0) out << " (95% CI " << IntervalText(BootstrapMean(r.scored_reports)) << ")";
  }
  if (r.groups > 0 && r.words_cover) {
    out << "; word list " << Fixed3(r.words_sum / r.groups);
    for (size_t b = 0; b < blocks.size(); ++b) {
      if (!IsHeldOut(blocks[b])) continue;
      out << " (" << MarginText((r.mean[b] - r.words_sum) / r.groups,
                                BootstrapMeanDifference(r.scored_reports, r.words_reports))
          << ")";
    }
  }
  if (r.groups > 0) out << "; constant (all or none flagged, the better) " << Fixed3(r.constant_sum / r.groups);
  out << ")\n";
}

//! The share of each control group's reports flagged with a category it (almost) never has.
void PrintControls(std::ostream& out, const MatchTable& table, const Estimates& e,
                   const std::vector<ScoreColumn>& blocks, double control_max_rate) {
  std::vector<std::vector<std::string>> controls;
  for (size_t g = 0; g < table.groups.size(); ++g) {
    for (size_t k = 0; k < table.groups[g].controls.size(); ++k) {
      std::vector<std::string> row = {table.groups[g].name, table.categories[table.groups[g].controls[k]],
                                      std::to_string(e.groups[g].written.reports)};
      for (const ScoreColumn& b : blocks) {
        const double rate = (e.groups[g].*b.score).ControlRate(k);
        row.push_back(Fixed3(rate) + (rate > control_max_rate ? " (over)" : ""));
      }
      controls.push_back(std::move(row));
    }
  }
  if (controls.empty()) return;
  std::vector<std::string> control_columns = {"control group", "category", "reports"};
  for (const ScoreColumn& b : blocks) control_columns.push_back(b.name + " flagged");
  out << "Negative controls: share of the group's reports flagged with a category they (almost) never are "
         "(at most "
      << Fixed3(control_max_rate) << "):\n";
  std::vector<bool> right(control_columns.size(), true);
  right[0] = right[1] = false;
  WriteTable(out, Format::kTable, control_columns, controls, right);
  out << "\n";
}

}  // namespace

void PrintEstimateTable(std::ostream& out, const MatchTable& table, const Estimates& e,
                        const std::vector<ScoreColumn>& blocks, double control_max_rate,
                        const ReferenceScores& reference) {
  const TableColumns columns = EstimateColumns(blocks, !reference.empty());
  for (const std::string& set : PositiveSets(table)) {
    const PositiveSetRows r = RowsOfPositiveSet(set, table, e, blocks, reference);
    if (r.rows.empty()) continue;
    PrintPositiveSetSummary(out, set, r, blocks);
    WriteTable(out, Format::kTable, columns.names, r.rows, columns.numeric);
    out << "\n";
  }
  PrintControls(out, table, e, blocks, control_max_rate);
}

void PrintEstimateCsv(std::ostream& out, const MatchTable& table, const Estimates& e,
                      const std::vector<ScoreColumn>& blocks, const ReferenceScores& reference) {
  std::vector<std::string> columns(kEstimateCsvNameColumns.begin(), kEstimateCsvNameColumns.end());
  columns.insert(columns.end(), {"reports", "positives", "rules_left_out"});
  for (const ScoreColumn& b : blocks) {
    const std::string key = AsciiLower(JsonKey(b.name));
    for (const char* m : {"_precision", "_recall", "_f1", "_macro_f1", "_objective"}) columns.push_back(key + m);
    if (IsHeldOut(b)) columns.insert(columns.end(), {key + "_ci_low", key + "_ci_high"});
  }
  // Always there, empty where no word list applies, so that a frame has the same columns
  // whatever the labels (the Python module reads this CSV).
  columns.insert(columns.end(), {"word_list", "logo_minus_word_list_ci_low", "logo_minus_word_list_ci_high"});
  columns.push_back("constant");
  std::vector<std::vector<std::string>> rows;
  for (size_t g = 0; g < table.groups.size(); ++g) {
    const MatchTable::Group& group = table.groups[g];
    const Confusion& c = (e.groups[g].*blocks[0].score).confusion;
    if (!Labeled(c)) continue;
    const bool scored = ObjectiveDefined(group, c);
    std::vector<std::string> row = {group.name,
                                    group.positive_name,
                                    group.objective_f1 ? "f1" : "macro-f1",
                                    std::to_string(c.tp + c.fp + c.fn + c.tn),
                                    std::to_string(c.tp + c.fn),
                                    std::to_string(table.RulesWrittenFrom(g))};
    for (const ScoreColumn& b : blocks) {
      const GroupScore& s = e.groups[g].*b.score;
      for (std::string cell : Cells(s.confusion, true)) row.push_back(cell == "n/a" ? "" : cell);
      row.push_back(scored ? Fixed3(s.Metric(group.objective_f1)) : "");
      if (IsHeldOut(b)) {
        const Interval& i = e.groups[g].held_out_interval;
        row.insert(row.end(), {scored ? Fixed3(i.low) : "", scored ? Fixed3(i.high) : ""});
      }
    }
    if (!reference.empty()) {
      const std::optional<double> words = ReferenceMetric(table, reference, g);
      row.push_back(scored && words ? Fixed3(*words) : "");
      const std::optional<Interval> margin = GroupMargin(table, e, reference, g);
      row.insert(row.end(), {margin ? Fixed3(margin->low) : "", margin ? Fixed3(margin->high) : ""});
    } else {
      row.insert(row.end(), {"", "", ""});
    }
    row.push_back(scored ? Fixed3(ConstantObjective(c, group.objective_f1)) : "");
    rows.push_back(std::move(row));
  }
  WriteTable(out, Format::kCsv, columns, rows, std::vector<bool>(columns.size(), false));
}

void PrintEstimateJson(std::ostream& out, const MatchTable& table, const Estimates& e,
                       const std::vector<ScoreColumn>& blocks, const ReferenceScores& reference) {
  out << "{\"groups\": {";
  for (size_t g = 0; g < table.groups.size(); ++g) {
    const auto& group = table.groups[g];
    out << (g ? ",\n    " : "\n    ") << JsonString(group.name) << ": {\"positive\": " << JsonString(group.positive_name)
        << ", \"objective\": \"" << (group.objective_f1 ? "f1" : "macro-f1") << "\"";
    for (const ScoreColumn& b : blocks) {
      const GroupScore& s = e.groups[g].*b.score;
      out << ", " << JsonString(JsonKey(b.name)) << ": " << ConfusionJson(s.confusion);
      if (IsHeldOut(b) && ObjectiveDefined(group, s.confusion)) {
        const Interval& i = e.groups[g].held_out_interval;
        out << ", " << JsonString(JsonKey(b.name) + "_ci95") << ": [" << Fixed3(i.low) << ", " << Fixed3(i.high) << "]";
      }
      for (size_t k = 0; k < group.controls.size(); ++k) {
        out << ", " << JsonString(JsonKey(b.name) + "_" + table.categories[group.controls[k]] + "_flag_rate") << ": "
            << Fixed3(s.ControlRate(k));
      }
    }
    if (const std::optional<double> words = ReferenceMetric(table, reference, g)) {
      out << ", \"word_list\": " << Fixed3(*words);
    }
    if (const std::optional<Interval> margin = GroupMargin(table, e, reference, g)) {
      out << ", \"logo_minus_word_list_ci95\": [" << Fixed3(margin->low) << ", " << Fixed3(margin->high) << "]";
    }
    if (ObjectiveDefined(group, e.groups[g].written.confusion)) {
      out << ", \"constant\": " << Fixed3(ConstantObjective(e.groups[g].written.confusion, group.objective_f1));
    }
    out << "}";
  }
  out << "\n  }";
  out << ", \"mean_constant\": " << Fixed3(MeanConstant(table, e));
  if (const ReferenceMeans m = MeansOnReferenceGroups(table, e, reference); m.groups > 0) {
    out << ", \"word_list_groups\": " << m.groups << ", \"mean_word_list\": " << Fixed3(m.words)
        << ", \"mean_logo_on_word_list_groups\": " << Fixed3(m.logo) << ", \"mean_logo_minus_word_list_ci95\": ["
        << Fixed3(m.margin.low) << ", " << Fixed3(m.margin.high) << "]";
  }
  for (const ScoreColumn& b : blocks) {
    out << ", " << JsonString("mean_" + JsonKey(b.name)) << ": " << Fixed3(MeanObjective(table, e, b.score));
    if (IsHeldOut(b)) {
      const Interval& i = e.held_out_mean_interval;
      out << ", " << JsonString("mean_" + JsonKey(b.name) + "_ci95") << ": [" << Fixed3(i.low) << ", " << Fixed3(i.high)
          << "]";
    }
  }
  out << "}";
}

}  // namespace ghsift::cli
