#include "pipelines/rescan.hpp"

#include <algorithm>
#include <set>

#include "aggregate/latest_text_record.hpp"
#include "aggregate/report_text_record.hpp"
#include "rollup/rollup.hpp"
#include "rules/decision.hpp"
#include "rules/report_scan.hpp"

namespace ghsift {

namespace {

//! The matched rule ids of a report's latest text: its snapshot (title, body, labels) as one
//! event, each kept event text (a comment) as an event of its own (as ingest scans them), united.
std::vector<std::string> MatchLatestText(const LatestTextRecord& text, ReportScan& scan, MatchSet& matches,
                                         const std::vector<Rule>& rule_list, uint64_t* texts) {
  std::vector<std::string> ids;
  const auto add = [&](const ReportTextView& fields) {
    matches.Clear();
    scan.Scan(fields, matches);
    for (uint32_t id : matches.ids()) ids.push_back(rule_list[id].id);
    ++*texts;
  };
  add(ReportTextViews(text.snapshot).view());
  for (const TextFieldSpec& spec : kTextFields) {
    for (const auto& [time, event_text] : text.events[spec.field]) {
      const std::string_view one[] = {event_text};
      ReportTextView event;
      event[spec.field] = one;
      add(event);
    }
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

//! Whether `record` is a closing reference only (an issue no event of which was seen): counted
//! apart, since it is no report (the rollup, `stats` and `query` leave it out) and has no text or
//! rules to rescan.
bool CountedAsReference(const IssueRecord& record, RescanSummary& summary) {
  if (!record.reference_only()) return false;
  ++summary.references;
  return true;
}

}  // namespace

Result<RescanSummary> Rescan(Store& store, std::shared_ptr<const RuleDatabase> rules) {
  auto scope = store.GetMeta("scope");
  if (!scope.ok()) return scope.status();
  const bool keep_text = scope->has_value() && (*scope)->find(";keep-text") != std::string::npos;
  if (!keep_text) return RescanLatestTexts(store, std::move(rules));
  RescanSummary summary;
  Scanner scanner(rules);
  ReportScan scan(scanner);
  MatchSet matches;
  const auto& rule_list = rules->rules().rules;
  std::vector<std::pair<std::pair<int64_t, int64_t>, IssueRecord>> updated;
  GHSIFT_TRY(store.ScanIssues(std::nullopt, [&](int64_t repo, int64_t number, const IssueRecord& record) -> Status {
    if (CountedAsReference(record, summary)) return Status::Ok();
    IssueRecord next = record;
    next.rules.clear();
    GHSIFT_TRY(store.ScanTexts(repo, number, [&](std::string_view encoded) -> Status {
      auto text = DecodeReportTextRecord(encoded);
      if (!text.ok()) return text.status();
      // The same fields, split the same way, as ChunkWorker::ScanReport.
      matches.Clear();
      scan.Scan(ReportTextViews(*text).view(), matches);
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

Result<RescanSummary> RescanLatestTexts(Store& store, std::shared_ptr<const RuleDatabase> rules) {
  RescanSummary summary;
  summary.exact = false;
  Scanner scanner(rules);
  ReportScan scan(scanner);
  MatchSet matches;
  const auto& rule_list = rules->rules().rules;
  // A rule that matches the same text as when the store was ingested (its scan digest is the
  // stored one) matched every event's text then: what it matched stands, exact. Only new and
  // edited rules are matched again, against the latest texts, all this store kept; so a rescan
  // with the rules of the ingest changes nothing, and one that changes weights is exact.
  GHSIFT_ASSIGN_OR_RETURN(const DecisionModel stored, LoadStoreModel(store));
  const DecisionModel model = DecisionModel::FromRuleSet(rules->rules());
  std::set<std::string> standing;
  for (const Rule& rule : rule_list) {
    if (model.MatchesLike(stored, rule.id)) standing.insert(rule.id);
  }
  summary.rules = rule_list.size();
  summary.rematched_rules = rule_list.size() - standing.size();
  std::vector<std::pair<std::pair<int64_t, int64_t>, IssueRecord>> updated;
  GHSIFT_TRY(store.ScanIssues(std::nullopt, [&](int64_t repo, int64_t number, const IssueRecord& record) -> Status {
    if (CountedAsReference(record, summary)) return Status::Ok();
    ++summary.reports;
    auto text = store.GetLatestText(repo, number);
    if (!text.ok()) return text.status();
    if (!text->has_value()) {
      ++summary.without_text;
      return Status::Ok();
    }
    IssueRecord next = record;
    next.rules.clear();
    for (const std::string& id : record.rules) {
      if (standing.count(id)) next.rules.push_back(id);
    }
    if (summary.rematched_rules > 0) {  // else the scan could only find what the standing rules hold
      std::vector<std::string> rematched;
      for (std::string& id : MatchLatestText(**text, scan, matches, rule_list, &summary.texts)) {
        if (!standing.count(id)) rematched.push_back(std::move(id));
      }
      MergeSortedIds(next.rules, rematched);
    }
    if (next.rules == record.rules) return Status::Ok();
    ++summary.changed;
    updated.push_back({{repo, number}, std::move(next)});
    return Status::Ok();
  }));
  GHSIFT_TRY(store.ReplaceIssues(updated, {{"rules", model.Serialize()}}));
  GHSIFT_TRY(SettleStore(store, true));
  return summary;
}

}  // namespace ghsift
