// ghsift issues --store DIR [--category C] [--repo R] [--kind K] [--limit N] [--format ...]
#include <iostream>

#include "commands/commands.hpp"
#include "output.hpp"
#include "query/query.hpp"

namespace ghsift::cli {
namespace {

struct IssuesArgs {
  std::string store, category, repo, kind = "issue";
  size_t limit = 50;
  std::string format = "table";
};

std::string Join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : separator) + s;
  return out;
}

int RunIssues(const IssuesArgs& args) {
  Format format;
  if (!ParseFormat(args.format, &format)) return Fail("--format must be table, csv or json");
  auto store = Store::Open(args.store, StoreMode::kRead);
  if (!store.ok()) return Fail(store.status().message());
  IssueListOptions options;
  if (!args.category.empty()) options.category = args.category;
  if (!args.repo.empty()) options.repo = args.repo;
  options.kind = args.kind;
  options.limit = args.limit;
  auto issues = ListIssues(**store, options);
  if (!issues.ok()) return Fail(issues.status().message());
  if (format == Format::kTable) {
    for (const ListedIssue& i : *issues) {
      std::cout << i.url << "  [" << Join(i.categories, ",") << "]  " << i.title << "\n    rules: "
                << Join(i.rules, " ") << "\n";
    }
  } else {
    std::vector<std::vector<std::string>> rows;
    for (const ListedIssue& i : *issues) {
      rows.push_back({i.repo, std::to_string(i.number), i.kind, i.url, i.title, i.state, i.created,
                      Join(i.categories, ";"), Join(i.rules, ";")});
    }
    WriteTable(std::cout, format, {"repo", "number", "kind", "url", "title", "state", "created", "categories", "rules"},
               rows, {false, true});
  }
  return issues->empty() ? kExitNoHit : kExitOk;
}

}  // namespace

void AddIssuesCommand(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<IssuesArgs>();
  CLI::App* cmd = app.add_subcommand("issues", "List flagged reports with the rules that fired");
  cmd->add_option("--store", args->store, "Store directory")->required();
  cmd->add_option("--category", args->category, "Only this category (default: any flagged category)");
  cmd->add_option("--repo", args->repo, "Only this owner/name");
  cmd->add_option("--kind", args->kind, "issue, pr or all")->capture_default_str();
  cmd->add_option("--limit", args->limit, "At most N reports (0: all)")->capture_default_str();
  cmd->add_option("--format", args->format, "table, csv or json")->capture_default_str();
  cmd->callback([args, &exit_code] { exit_code = RunIssues(*args); });
}

}  // namespace ghsift::cli
