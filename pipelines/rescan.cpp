#include "pipelines/rescan.hpp"

#include <algorithm>

#include "aggregate/report_text_record.hpp"
#include "rollup/rollup.hpp"
#include "rules/decision.hpp"
#include "rules/report_scan.hpp"

namespace ghsift {

Result<RescanSummary> Rescan(Store& store, std::shared_ptr<const RuleDatabase> rules) {
  auto scope = store.GetMeta("scope");
  if (!scope.ok()) return scope.status();
  if (!scope->has_value() || (*scope)->find(";keep-text") == std::string::npos) {
    return Status::InvalidArgument(store.path() +
                                   ": this store did not keep report text (ingest with --keep-text to rescan later)");
  }
  RescanSummary summary;
  Scanner scanner(rules);
  ReportScan scan(scanner);
  MatchSet matches;
  const auto& rule_list = rules->rules().rules;
  std::vector<std::pair<std::pair<int64_t, int64_t>, IssueRecord>> updated;
  GHSIFT_TRY(store.ScanIssues(std::nullopt, [&](int64_t repo, int64_t number, const IssueRecord& record) -> Status {
    IssueRecord next = record;
    next.rules.clear();
    GHSIFT_TRY(store.ScanTexts(repo, number, [&](std::string_view encoded) -> Status {
      auto text = ReportTextRecord::Decode(encoded);
      if (!text.ok()) return text.status();
      // The same fields, split the same way, as ChunkWorker::ScanReport.
      const std::string_view comments[] = {text->comment};
      const std::vector<std::string_view> labels(text->labels.begin(), text->labels.end());
      ReportText fields;
      fields.title = text->title;
      fields.body = text->body;
      fields.comments = text->comment.empty() ? std::span<const std::string_view>() : std::span(comments);
      fields.labels = labels;
      matches.Clear();
      scan.Scan(fields, matches);
      std::vector<std::string> ids;
      for (uint32_t id : matches.ids()) ids.push_back(rule_list[id].id);
      std::sort(ids.begin(), ids.end());
      MergeSortedIds(next.rules, ids);
      ++summary.texts;
      return Status::Ok();
    }));
    ++summary.reports;
    if (next.rules != record.rules) ++summary.changed;
    updated.push_back({{repo, number}, std::move(next)});
    return Status::Ok();
  }));
  GHSIFT_TRY(store.ReplaceIssues(updated, {{"rules", DecisionModel::FromRuleSet(rules->rules()).Serialize()}}));
  GHSIFT_TRY(SettleStore(store, true));
  return summary;
}

}  // namespace ghsift
