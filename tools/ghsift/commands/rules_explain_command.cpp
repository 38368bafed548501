// ghsift rules explain [--rules PATH]... (--text STR | --file F | --store DIR --issue OWNER/REPO#N)
#include <simdjson.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands/commands.hpp"
#include "commands/common_options.hpp"
#include "json/markdown_splitter.hpp"
#include "query/query.hpp"
#include "rules/decision.hpp"
#include "rules/scanner.hpp"

namespace ghsift::cli {
namespace {

struct ExplainArgs {
  std::vector<std::string> rules;  //!< layers, in order
  std::string text, title, file, store, issue;
  bool color = false;
  bool no_color = false;
};

struct Span {
  uint32_t rule;
  size_t from, to;
};

//! The report to explain, as fields.
struct ExplainedReport {
  std::string title, body;
  std::vector<std::string> comments, labels;
};

Result<ExplainedReport> ReadReportFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IoError(path + ": cannot read");
  std::stringstream buffer;
  buffer << in.rdbuf();
  ExplainedReport r;
  const std::string text = buffer.str();
  simdjson::dom::parser parser;
  simdjson::dom::element issue;
  if (parser.parse(text).get(issue) == simdjson::SUCCESS && issue.is_object()) {
    // A GitHub API issue object.
    std::string_view s;
    if (issue["title"].get_string().get(s) == simdjson::SUCCESS) r.title = s;
    if (issue["body"].get_string().get(s) == simdjson::SUCCESS) r.body = s;
    simdjson::dom::array labels;
    if (issue["labels"].get_array().get(labels) == simdjson::SUCCESS) {
      for (auto label : labels) {
        if (label["name"].get_string().get(s) == simdjson::SUCCESS) r.labels.emplace_back(s);
      }
    }
    return r;
  }
  r.body = text;  // plain text or markdown
  return r;
}

class Explainer {
 public:
  Explainer(std::shared_ptr<const RuleDatabase> db, bool color) : db_(db), scanner_(db), color_(color) {}

  void Field(Field field, const std::string& text) {
    if (text.empty()) return;
    std::vector<Span> spans;
    const Status s = scanner_.ScanSpans(field, text, [&](unsigned id, size_t from, size_t to) {
      // Without a start offset, the word that ends the match is shown.
      if (!db_->ReportsStart(id)) from = WordStart(text, to);
      spans.push_back({id, from, to});
    });
    if (!s.ok()) {
      std::cout << "  (scan failed: " << s.message() << ")\n";
      return;
    }
    for (const Span& sp : spans) fired_.insert(db_->rules().rules[sp.rule].id);
    std::cout << FieldName(field) << ":";
    if (spans.empty()) {
      std::cout << " (no match)\n";
      return;
    }
    std::cout << "\n";
    PrintLinesWithSpans(text, spans);
  }

  const std::set<std::string>& fired() const { return fired_; }

 private:
  static size_t WordStart(const std::string& text, size_t end) {
    size_t from = end;
    while (from > 0 && text[from - 1] != ' ' && text[from - 1] != '\n') --from;
    return from == end && end > 0 ? end - 1 : from;
  }

  void PrintLinesWithSpans(const std::string& text, std::vector<Span> spans) {
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.from < b.from; });
    size_t line_start = 0;
    int line_number = 1;
    while (line_start <= text.size()) {
      size_t line_end = text.find('\n', line_start);
      if (line_end == std::string::npos) line_end = text.size();
      std::vector<Span> in_line;
      for (const Span& sp : spans) {
        if (sp.from < line_end && sp.to > line_start) in_line.push_back(sp);
      }
      if (!in_line.empty()) {
        std::string out;
        size_t at = line_start;
        for (const Span& sp : in_line) {
          const size_t from = std::max(sp.from, at), to = std::min(sp.to, line_end);
          if (from >= to) continue;
          out += text.substr(at, from - at);
          out += color_ ? "\033[1;31m" : "[[";
          out += text.substr(from, to - from);
          out += color_ ? "\033[0m" : "]]";
          at = to;
        }
        out += text.substr(at, line_end - at);
        std::cout << "  " << line_number << ": " << out << "\n";
        std::set<std::string> ids;
        for (const Span& sp : in_line) ids.insert(db_->rules().rules[sp.rule].id);
        std::cout << "     rules:";
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
  std::set<std::string> fired_;
};

void PrintScores(const DecisionModel& model, const std::vector<std::string>& fired) {
  std::cout << "rules fired:";
  for (const auto& id : fired) std::cout << " " << id << "(" << model.TagOf(id) << ")";
  std::cout << (fired.empty() ? " none\n" : "\n") << "scores:\n";
  for (const CategoryScore& s : model.Score(fired)) {
    std::printf("  %-12s %6.2f / %.2f  %s\n", s.category.c_str(), s.score, s.threshold,
                s.flagged ? "FLAGGED" : "-");
  }
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
  auto model = LoadStoreModel(**store);
  if (!model.ok()) return Fail(model.status().message());
  for (int64_t id : (*store)->RepoIdsByName(repo)) {
    auto record = (*store)->GetIssue(id, number);
    if (!record.ok()) return Fail(record.status().message());
    if (!record->has_value()) continue;
    const IssueRecord& r = **record;
    std::cout << args.issue << " (" << (r.kind == 1 ? "pull request" : "issue") << ", " << r.state << ")\n"
              << "title: " << r.title << "\n"
              << "(the store keeps matched rule ids, not the report's text: the rules below matched some "
                 "snapshot or comment seen during ingest)\n";
    PrintScores(*model, r.rules);
    return kExitOk;
  }
  return Fail(args.issue + ": not in the store (only tracked repositories' reports are kept)");
}

int RunExplain(const ExplainArgs& args) {
  if (!args.store.empty() || !args.issue.empty()) {
    if (args.store.empty() || args.issue.empty()) return Fail("--store and --issue go together");
    return ExplainFromStore(args);
  }
  ExplainedReport report;
  if (!args.file.empty()) {
    auto read = ReadReportFile(args.file);
    if (!read.ok()) return Fail(read.status().message());
    report = std::move(read).value();
  } else if (!args.text.empty() || !args.title.empty()) {
    report.body = args.text;
  } else {
    return Fail("give --text, --file, or --store with --issue");
  }
  if (!args.title.empty()) report.title = args.title;
  auto db = LoadRules(args.rules, RuleDatabase::Mode::kExplain);
  if (!db.ok()) return Fail(db.status().message());
  const bool color = !args.no_color && (args.color || ::isatty(STDOUT_FILENO));
  Explainer explainer(*db, color);
  // The texts ReportScan scans: the body's code and the comments' code are two texts.
  std::string prose, code, comment_prose, comment_code;
  SplitMarkdown(report.body, prose, code);
  for (const auto& c : report.comments) SplitMarkdown(c, comment_prose, comment_code);
  explainer.Field(Field::kTitle, report.title);
  explainer.Field(Field::kBody, prose);
  explainer.Field(Field::kCode, code);
  explainer.Field(Field::kComment, comment_prose);
  explainer.Field(Field::kCode, comment_code);
  for (const auto& label : report.labels) explainer.Field(Field::kLabel, label);
  const std::vector<std::string> fired(explainer.fired().begin(), explainer.fired().end());
  PrintScores(DecisionModel::FromRuleSet((*db)->rules()), fired);
  return kExitOk;
}

}  // namespace

void AddRulesExplainCommand(CLI::App& rules, int& exit_code) {
  auto args = std::make_shared<ExplainArgs>();
  CLI::App* cmd = rules.add_subcommand("explain", "Show which rules match a report, where, and the category scores");
  AddRulesOption(*cmd, args->rules);
  cmd->add_option("--text", args->text, "Report body (markdown) to explain");
  cmd->add_option("--title", args->title, "Report title (with --text or --file)");
  cmd->add_option("--file", args->file, "A GitHub API issue object (JSON) or a markdown file");
  cmd->add_option("--store", args->store, "Explain a stored report (with --issue)");
  cmd->add_option("--issue", args->issue, "OWNER/REPO#N");
  cmd->add_flag("--color", args->color, "Highlight with color even when not on a terminal");
  cmd->add_flag("--no-color", args->no_color, "Mark matches with [[ ]] instead of color");
  cmd->callback([args, &exit_code] { exit_code = RunExplain(*args); });
}

}  // namespace ghsift::cli
