// ghsift rules explain [--rules PATH]... (--text STR | --file F | --store DIR --issue OWNER/REPO#N)
#include <unistd.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "aggregate/repo_filter.hpp"
#include "commands/commands.hpp"
#include "common/unknown_value.hpp"
#include "commands/common_options.hpp"
#include "output.hpp"
#include "eval/labeled_report.hpp"
#include "json/markdown_splitter.hpp"
#include "json/report_text.hpp"
#include "pipelines/store_scope.hpp"
#include "query/query.hpp"
#include "query/repo_lookup.hpp"
#include "common/assert.hpp"
#include "rules/decision.hpp"
#include "rules/match_start.hpp"
#include "rules/scanner.hpp"

namespace ghsift::cli {
namespace {

struct ExplainArgs {
  std::vector<std::string> rules;  //!< layers, in order
  std::string text, title, file, store, issue;
  size_t record = 0;  //!< --record: which report of a jsonl --file (1-based; 0: the file is one)
  bool color = false;
  bool no_color = false;
};

struct Span {
  uint32_t rule;
  size_t from, to;
};

//! The non-empty lines of `text` when there are several and each is a JSON object (a jsonl
//! export of `issues` or `sample`, a labeled set); else none.
std::vector<std::string_view> JsonlRecords(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) lines.push_back(line);
    at = end + 1;
  }
  if (lines.size() < 2) return {};
  for (std::string_view line : lines) {
    bool is_object = false;
    ReportTextOfJson(std::string(line), &is_object);
    if (!is_object) return {};
  }
  return lines;
}

//! A file to explain: a JSON object with the text fields' keys (a GitHub API issue object, a
//! labeled JSONL record; of a file of several, the `record`-th), else plain text or markdown, the
//! body.
Result<ReportText> ReadReportFile(const std::string& path, size_t record) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IoErrorFromErrno(path + ": cannot read");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  const std::vector<std::string_view> records = JsonlRecords(text);
  if (!records.empty() && (record == 0 || record > records.size())) {
    return Status::InvalidArgument(
        path + ": " + std::to_string(records.size()) + " JSON records, one a line" +
        (record == 0 ? "; rules explain reads one report: --record K explains the K-th"
                     : "; there is no record " + std::to_string(record)));
  }
  if (records.empty() && record > 1) {
    return Status::InvalidArgument(path + ": one report; --record " + std::to_string(record) + " names none");
  }
  bool is_object = false;
  ReportText report = ReportTextOfJson(records.empty() ? text : std::string(records[record - 1]), &is_object);
  if (!is_object) report.Add(Field::kBody, text);
  return report;
}

//! The texts of a report as ReportScan scans them (the body's code and the event texts' code are
//! two texts), the labels last.
struct FieldText {
  Field field;
  std::string text;
};

std::vector<FieldText> FieldTexts(const ReportText& report) {
  const ReportTextViews views(report);
  RuleTextSplitter splitter;
  std::vector<FieldText> texts, labels;
  const auto add = [&](Field field, std::string_view text) {
    (Spec(field).source == TextSource::kLabels ? labels : texts).push_back({field, std::string(text)});
  };
  splitter.Snapshot(views.view(), add);
  splitter.Events(views.view(), add);
  texts.insert(texts.end(), labels.begin(), labels.end());
  return texts;
}

//! The rules (indices into `db`'s set) that match any of the texts: a flag-mode scan.
Result<std::vector<uint32_t>> MatchedRules(std::shared_ptr<const RuleDatabase> db, const std::vector<FieldText>& texts) {
  Scanner scanner(db);
  MatchSet matches;
  for (const FieldText& t : texts) GHSIFT_TRY(scanner.Scan(t.field, t.text, matches));
  std::vector<uint32_t> ids = matches.ids();
  std::sort(ids.begin(), ids.end());
  return ids;
}

//! Marks, in each field, the text every matched rule matched. Spans come from a start-of-match
//! database of the matched rules only (compiling one for the whole set takes tens of seconds).
class Explainer {
 public:
  Explainer(std::shared_ptr<const RuleDatabase> db, bool color) : db_(db), scanner_(db), color_(color) {}

  Status Field(Field field, const std::string& text) {
    if (text.empty()) return Status::Ok();
    std::vector<Span> spans;
    GHSIFT_TRY(scanner_.ScanSpans(field, text, [&](unsigned id, size_t from, size_t to) {
      if (!db_->ReportsStart(id)) from = StartFinder(id).StartOf(text, to);
      spans.push_back({id, from, to});
    }));
    std::cout << FieldName(field) << ":";
    if (spans.empty()) {
      std::cout << " (no match)\n";
      return Status::Ok();
    }
    std::cout << "\n";
    const std::vector<Span> merged = MergeSpans(std::move(spans));
    // Each rule's first match, for the list of rules: which words gave which rule.
    for (const Span& sp : merged) {
      const std::string& id = db_->rules().rules[sp.rule].id;
      if (!first_match_.count(id)) {
        first_match_[id] = std::string(FieldName(field)) + ": \"" + TableCell(text.substr(sp.from, sp.to - sp.from), 40) +
                           "\"";
      }
    }
    PrintLinesWithSpans(text, merged);
    return Status::Ok();
  }

  //! Rule id -> where it first matched (`body: "memory leak"`).
  const std::map<std::string, std::string>& first_match() const { return first_match_; }

 private:
  const MatchStartFinder& StartFinder(uint32_t rule) {
    auto& finder = finders_[rule];
    if (!finder) {
      auto compiled = MatchStartFinder::Compile(db_->rules().rules[rule]);
      // The pattern compiled in flag mode already, so anchoring it cannot fail in practice.
      GHSIFT_ASSERT(compiled.ok());
      finder = std::move(compiled).value();
    }
    return *finder;
  }

  //! Hyperscan reports a match at every end offset (`\S` matches each character): a rule's
  //! overlapping or touching spans are one marked stretch.
  static std::vector<Span> MergeSpans(std::vector<Span> spans) {
    std::sort(spans.begin(), spans.end(),
              [](const Span& a, const Span& b) { return std::tie(a.rule, a.from, a.to) < std::tie(b.rule, b.from, b.to); });
    std::vector<Span> merged;
    for (const Span& sp : spans) {
      if (!merged.empty() && merged.back().rule == sp.rule && sp.from <= merged.back().to) {
        merged.back().to = std::max(merged.back().to, sp.to);
      } else {
        merged.push_back(sp);
      }
    }
    std::sort(merged.begin(), merged.end(), [](const Span& a, const Span& b) { return a.from < b.from; });
    return merged;
  }

  void PrintLinesWithSpans(const std::string& text, const std::vector<Span>& spans) {
    size_t line_start = 0;
    int line_number = 1;
    while (line_start <= text.size()) {
      size_t line_end = text.find('\n', line_start);
      if (line_end == std::string::npos) line_end = text.size();
      // Marked bytes of this line: the union of the spans of every rule (rules overlap).
      std::vector<char> marked(line_end - line_start, 0);
      std::set<std::string> ids;
      for (const Span& sp : spans) {
        if (sp.from >= line_end || sp.to <= line_start) continue;
        ids.insert(db_->rules().rules[sp.rule].id);
        for (size_t i = std::max(sp.from, line_start); i < std::min(sp.to, line_end); ++i) marked[i - line_start] = 1;
      }
      if (!ids.empty()) {
        // Each stretch, marked or not, is shown TerminalSafe as a whole (so a multibyte character
        // stays whole); only the marks' own color codes reach the terminal as codes.
        std::string out;
        for (size_t i = 0; i < marked.size();) {
          size_t end = i;
          while (end < marked.size() && marked[end] == marked[i]) ++end;
          const std::string stretch = TerminalSafe(std::string_view(text).substr(line_start + i, end - i));
          if (marked[i]) out += (color_ ? "\033[1;31m" : "[[") + stretch + (color_ ? "\033[0m" : "]]");
          else out += stretch;
          i = end;
        }
        std::cout << "  " << line_number << ": " << out << "\n     rules:";
        for (const auto& id : ids) std::cout << " " << id;
        std::cout << "\n";
      }
      if (line_end == text.size()) break;
      line_start = line_end + 1;
      ++line_number;
    }
  }

  std::shared_ptr<const RuleDatabase> db_;
  Scanner scanner_;
  bool color_;
  std::map<uint32_t, std::unique_ptr<MatchStartFinder>> finders_;
  std::map<std::string, std::string> first_match_;
};

//! The rules that matched a text, sorted, and where each first matched.
struct MarkedText {
  std::vector<std::string> fired;
  std::map<std::string, std::string> first_match;
};

//! What the rules did not read in each markdown field: HTML comments, the headings of sections
//! left empty, template prompts (json/markdown_splitter.hpp). A reader who sees "## Expected
//! behavior" in the report and no rule on it learns why. Nothing is printed when nothing was
//! left out.
void PrintLeftOut(const ReportText& report) {
  for (const TextFieldSpec& spec : kTextFields) {
    if (!spec.markdown) continue;
    ProseLeftOut left_out;
    std::string prose, code;
    for (const auto& text : report[spec.field]) SplitMarkdown(text, prose, code, left_out);
    if (left_out.empty()) continue;
    std::vector<std::string> parts;
    if (left_out.comments > 0) parts.push_back(Counted(left_out.comments, "HTML comment"));
    const auto quoted = [](const auto& texts, const std::string& one, const std::string& many) {
      std::string part = texts.size() == 1 ? one : many;
      for (size_t i = 0; i < texts.size(); ++i) part += (i ? ", \"" : " \"") + TerminalSafe(std::string(texts[i])) + "\"";
      return part;
    };
    if (!left_out.empty_headings.empty()) {
      parts.push_back(quoted(left_out.empty_headings, "the heading of an empty section", "the headings of empty sections"));
    }
    if (!left_out.prompts.empty()) parts.push_back(quoted(left_out.prompts, "the template prompt", "the template prompts"));
    std::cout << "left out of " << spec.name << " (the form's words, not the reporter's):";
    for (size_t i = 0; i < parts.size(); ++i) std::cout << (i ? "; " : " ") << parts[i];
    std::cout << "\n";
  }
}

//! Prints each field of `report` with the text every matching rule of `rules` matched marked;
//! returns the ids of those rules, sorted.
Result<MarkedText> MarkMatches(const RuleSet& rules, const ReportText& report, bool color) {
  const std::vector<FieldText> texts = FieldTexts(report);
  // Which rules match: per-rule flag databases, cached, so an edited rule alone compiles.
  GHSIFT_ASSIGN_OR_RETURN(auto flag_db,
                          RuleDatabase::Compile(rules, RuleDatabase::Mode::kFlag, RuleDatabase::Layout::kPerRule));
  GHSIFT_ASSIGN_OR_RETURN(const std::vector<uint32_t> matched, MatchedRules(flag_db, texts));
  // Where they match: start-of-match databases of the matched rules only.
  RuleSet fired_rules;
  std::vector<std::string> fired;
  for (uint32_t i : matched) {
    fired_rules.rules.push_back(rules.rules[i]);
    fired.push_back(rules.rules[i].id);
  }
  std::sort(fired.begin(), fired.end());
  if (fired_rules.rules.empty()) {
    for (const FieldText& t : texts) {
      if (!t.text.empty()) std::cout << FieldName(t.field) << ": (no match)\n";
    }
    PrintLeftOut(report);
    return MarkedText{fired, {}};
  }
  GHSIFT_ASSIGN_OR_RETURN(auto span_db, RuleDatabase::Compile(fired_rules, RuleDatabase::Mode::kExplain,
                                                              RuleDatabase::Layout::kPerRule));
  Explainer explainer(span_db, color);
  for (const FieldText& t : texts) GHSIFT_TRY(explainer.Field(t.field, t.text));
  PrintLeftOut(report);
  return MarkedText{fired, explainer.first_match()};
}

//! Color on a terminal, unless --no-color; --color forces it.
bool UseColor(const ExplainArgs& args) { return !args.no_color && (args.color || ::isatty(STDOUT_FILENO)); }

std::string Signed(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.2f", value);
  return text;
}

//! Each matched rule with its weight and the categories it counts toward, then each category's
//! sum against its threshold.
void PrintScores(const DecisionModel& model, const std::vector<std::string>& fired,
                 const std::map<std::string, std::string>& first_match = {}) {
  std::cout << "rules matched:" << (fired.empty() ? " none\n" : "\n");
  size_t width = 0, tag_width = 0;
  for (const auto& id : fired) width = std::max(width, id.size());
  for (const auto& id : fired) tag_width = std::max(tag_width, model.TagOf(id).size());
  for (const auto& id : fired) {
    if (!model.Knows(id)) {  // a rule the store's ingest matched, disabled or renamed in --rules
      std::printf("  %-*s (not in the rules given: disabled or renamed there)\n", static_cast<int>(width), id.c_str());
      continue;
    }
    const auto categories = model.CategoriesOf(id);
    std::string toward;
    for (const auto& c : categories) toward += (toward.empty() ? "" : ", ") + c;
    std::string line = "  " + id + std::string(width - id.size(), ' ') + " " + Signed(model.WeightOf(id)) + "  " +
                       model.TagOf(id);
    if (const auto where = first_match.find(id); where != first_match.end()) {
      line += std::string(tag_width - model.TagOf(id).size(), ' ') + "  " + where->second;
    }
    if (categories.size() > 1) line += "  (counts toward " + toward + ")";
    std::printf("%s\n", line.c_str());
  }
  std::cout << "scores (sum of matched weights / threshold):\n";
  const std::vector<CategoryScore> scores = model.Score(fired);
  size_t name_width = 12;
  for (const CategoryScore& s : scores) name_width = std::max(name_width, s.category.size());
  for (const CategoryScore& s : scores) {
    // A facet (stage, info, verdict) describes a report and never flags it.
    const char* verdict = s.category == model.verdict_category() ? (s.flagged ? "reached: not a bug" : "-")
                          : !s.flagged                        ? "-"
                          : model.IsFacet(s.category)         ? "present (facet)"
                                                              : "FLAGGED";
    std::printf("  %-*s %6.2f / %.2f  %s\n", static_cast<int>(name_width), s.category.c_str(), s.score, s.threshold,
                verdict);
  }
  // Whether it is a bug, apart from what it speaks of (rules/verdict.yaml), when the rules say.
  if (!model.verdict_category().empty()) std::cout << "verdict: " << model.Verdict(fired) << "\n";
}

int ExplainFromStore(const ExplainArgs& args) {
  const size_t hash = args.issue.rfind('#');
  if (hash == std::string::npos) return Fail("--issue must be OWNER/REPO#N");
  const std::string repo = args.issue.substr(0, hash);
  int64_t number = 0;
  try {
    number = std::stoll(args.issue.substr(hash + 1));
  } catch (const std::exception&) {
    return Fail("--issue must be OWNER/REPO#N");
  }
  auto store = Store::Open(args.store, StoreMode::kRead);
  if (!store.ok()) return Fail(store.status().message());
  // With --rules, the stored matches are judged with those rules' weights and thresholds (a
  // rule they do not have counts for nothing); otherwise with the rules the store was built with.
  Result<DecisionModel> model = Status::InvalidArgument("no model");
  if (args.rules.empty()) {
    model = LoadStoreModel(**store);
  } else {
    auto rules = LoadRuleLayers(args.rules);
    if (!rules.ok()) return Fail(rules.status().message());
    model = DecisionModel::FromRuleSet(*rules);
  }
  if (!model.ok()) return Fail(model.status().message());
  // By any name the repository had, as --repo finds it.
  auto repo_ids = RepoIdsByAnyName(**store, repo);
  if (!repo_ids.ok()) return Fail(repo_ids.status().message());
  for (int64_t id : *repo_ids) {
    auto record = (*store)->GetIssue(id, number);
    if (!record.ok()) return Fail(record.status().message());
    if (!record->has_value()) continue;
    const IssueRecord& r = **record;
    std::cout << TerminalSafe(args.issue) << " (" << (r.kind == 1 ? "pull request" : "issue") << ", "
              << (r.state.empty() ? kUnknownValue : r.state) << ")\n";
    // The kept text (every report that matched a problem rule has one) marked with the rules.
    auto kept = (*store)->GetLatestText(id, number);
    if (!kept.ok()) return Fail(kept.status().message());
    auto scope = DescribeStoreScope(**store);
    if (!scope.ok()) return Fail(scope.status().message());
    std::map<std::string, std::string> first_match;  // where each rule matched the kept text
    if (kept->has_value() && args.rules.empty() && !scope->default_rules) {
      std::cout << "title: " << TerminalSafe(r.title) << "\n(the store was built with another rule set than the bundled one: "
                   "give it with --rules to mark where its rules match the kept text)\n";
    } else if (kept->has_value()) {
      const ReportText report = (*kept)->Text();
      std::cout << "the kept text (latest title, body and labels, and the texts of the events seen with them: comments, ...), marked with "
                << (args.rules.empty() ? "the bundled rules" : "the --rules given") << ":\n";
      auto rules = LoadRuleLayersOrDefault(args.rules);
      if (!rules.ok()) return Fail(rules.status().message());
      auto marked = MarkMatches(*rules, report, UseColor(args));
      if (!marked.ok()) return Fail(marked.status().message());
      first_match = marked->first_match;
    } else {
      std::cout << "title: " << TerminalSafe(r.title) << "\n(no text kept: a store keeps the text of the reports that matched a "
                   "problem rule)\n";
    }
    std::cout << "the rules that matched during ingest (any snapshot or comment seen):\n";
    if (!args.rules.empty()) std::cout << "(weights and thresholds of the --rules given, not of the store)\n";
    PrintScores(*model, r.rules, first_match);
    return kExitOk;
  }
  auto scope = DescribeStoreScope(**store);
  if (!scope.ok()) return Fail(scope.status().message());
  // The scope explains a miss only for a repository the store does not track.
  auto described = (*store)->GetMeta("scope");
  if (!described.ok()) return Fail(described.status().message());
  const std::optional<RepoFilter> filter = *described ? RepoFilter::FromDescription(**described) : std::nullopt;
  const bool untracked = !scope->all_repos && filter && !filter->Tracks(repo);
  return Fail(args.issue + ": not in the store" +
              (!untracked ? std::string(" (no event of it was ingested)")
                          : " (" + repo + " is not one of the store's " + std::to_string(scope->tracked_repos) +
                                " tracked repositories, whose reports it keeps; --all-repos stores keep every one)"));
}

int RunExplain(const ExplainArgs& args) {
  if (!args.store.empty() || !args.issue.empty()) {
    if (args.store.empty() || args.issue.empty()) return Fail("--store and --issue go together");
    if (!args.text.empty() || !args.title.empty() || !args.file.empty()) {
      return Fail("--text, --title and --file explain a text of yours; --store with --issue a stored report: give one");
    }
    return ExplainFromStore(args);
  }
  ReportText report;
  if (!args.file.empty()) {
    auto read = ReadReportFile(args.file, args.record);
    if (!read.ok()) return Fail(read.status().message());
    report = std::move(read).value();
  } else if (!args.text.empty() || !args.title.empty()) {
    report.Add(Field::kBody, args.text);
  } else {
    return Fail("give --text, --file, or --store with --issue");
  }
  if (!args.title.empty()) {
    report[Field::kTitle].clear();
    report.Add(Field::kTitle, args.title);
  }
  auto rules = LoadRuleLayersOrDefault(args.rules);
  if (!rules.ok()) return Fail(rules.status().message());
  auto marked = MarkMatches(*rules, report, UseColor(args));
  if (!marked.ok()) return Fail(marked.status().message());
  PrintScores(DecisionModel::FromRuleSet(*rules), marked->fired, marked->first_match);
  return kExitOk;
}

}  // namespace

void AddRulesExplainCommand(CLI::App& command, int& exit_code) {
  auto args = std::make_shared<ExplainArgs>();
  CLI::App* cmd = &command;
  AddRulesOption(*cmd, args->rules);
  cmd->add_option("--text", args->text, "Report body (markdown) to explain");
  cmd->add_option("--title", args->title, "Report title (with --text or --file)");
  cmd->add_option("--file", args->file,
                  "A GitHub API issue object or a labeled JSONL record (JSON), or a markdown file");
  cmd->add_option("--record", args->record,
                  "With a --file of several JSON records, one a line (a jsonl export): explain the K-th")
      ->check(PositiveCountCheck());
  cmd->add_option("--store", args->store, "Explain a stored report (with --issue)");
  cmd->add_option("--issue", args->issue, "OWNER/REPO#N");
  cmd->add_flag("--color", args->color, "Highlight with color even when not on a terminal");
  cmd->add_flag("--no-color", args->no_color, "Mark matches with [[ ]] instead of color");
  cmd->callback([args, &exit_code] { exit_code = RunExplain(*args); });
}

}  // namespace ghsift::cli
