#include "gen/truth.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <utility>

#include "common/unknown_value.hpp"
#include "gen/civil_time.hpp"
#include "gen/json_text.hpp"
#include "gen/lifecycle_facts.hpp"

namespace ghsift::gen {

namespace {

using Counts = std::map<std::string, uint64_t>;
using Nested = std::map<std::string, Counts>;

// A minimal pretty printer; callers emit keys in sorted order (std::map does it for us).
class TruthWriter {
 public:
  void Open(char bracket) {
    Comma();
    out_.push_back(bracket);
    first_ = true;
    ++depth_;
  }
  void Close(char bracket) {
    --depth_;
    if (!first_) Newline();
    out_.push_back(bracket);
    first_ = false;
  }
  void Key(std::string_view key) {
    Comma();
    AppendJsonString(out_, key);
    out_.append(": ");
    after_key_ = true;
  }
  void Uint(uint64_t v) {
    Comma();
    AppendUint(out_, v);
  }
  void String(std::string_view s) {
    Comma();
    AppendJsonString(out_, s);
  }
  //! Fixed notation with nine decimals: exact to well below the tests' 1e-6 tolerance.
  void Double(double v) {
    Comma();
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9f", v);
    out_.append(buf);
  }
  void CountsObject(const Counts& counts) {
    Open('{');
    for (const auto& [k, v] : counts) {
      Key(k);
      Uint(v);
    }
    Close('}');
  }
  void NestedObject(const Nested& nested) {
    Open('{');
    for (const auto& [k, v] : nested) {
      Key(k);
      CountsObject(v);
    }
    Close('}');
  }
  std::string Take() {
    out_.push_back('\n');
    return std::move(out_);
  }

 private:
  void Comma() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (depth_ == 0) return;
    if (!first_) out_.push_back(',');
    first_ = false;
    Newline();
  }
  void Newline() {
    out_.push_back('\n');
    out_.append(static_cast<size_t>(depth_) * 2, ' ');
  }

  std::string out_;
  int depth_ = 0;
  bool first_ = true;
  bool after_key_ = false;
};

}  // namespace

std::string BuildTruthJson(const World& world, const Plan& plan, const CorpusCounts& counts) {
  Nested issues_by_month, prs_by_month;
  Counts by_state = {{"closed", 0}, {"open", 0}};
  static const char* const kProbeFields[] = {"probe_body", "probe_code", "probe_comment", "probe_label", "probe_title"};
  std::map<std::string, Nested> probe;
  for (const char* field : kProbeFields) probe[field] = {{"issue", {}}, {"pr", {}}};
  std::map<std::string, Counts> themes;
  for (const Theme t : {Theme::kNone, Theme::kPerformance, Theme::kAccuracy, Theme::kSilent}) themes[ThemeName(t)];

  // Which planned actions were written: a prefix of each hour's range.
  std::vector<bool> written(plan.actions.size(), counts.lifecycle_written.empty());
  for (size_t h = 0; h < counts.lifecycle_written.size() && h + 1 < plan.hour_begin.size(); ++h) {
    const size_t end = std::min(plan.hour_begin[h + 1], plan.hour_begin[h] + counts.lifecycle_written[h]);
    for (size_t i = plan.hour_begin[h]; i < end; ++i) written[i] = true;
  }
  // State of each report in its latest written event (actions are in time order), and the
  // comment markers that a written comment shows. In the full layouts every written event of a
  // report shows its title, body, labels, state and times; the 2011 and slim-2025 layouts hide
  // some of them (TextView), and the engine can count only what some written event shows.
  std::vector<bool> seen(plan.reports.size(), false), open_at_end(plan.reports.size(), true);
  std::vector<bool> state_known(plan.reports.size(), true), created_known(plan.reports.size(), false);
  std::vector<bool> title_seen(plan.reports.size(), false), body_seen(plan.reports.size(), false);
  std::vector<bool> labels_seen(plan.reports.size(), false);
  std::vector<bool> comment_prose(plan.reports.size(), false), comment_code(plan.reports.size(), false);
  // The latest snapshot's closed_at and the highest comment count any written snapshot shows;
  // the first and last written event of each report (first_seen and last_seen).
  std::vector<int64_t> closed_at(plan.reports.size(), 0), first_seen(plan.reports.size(), 0),
      last_seen(plan.reports.size(), 0);
  std::vector<uint64_t> max_comments(plan.reports.size(), 0);
  // Issues (repo index, number) that a written merge of a PR of the same repo closes: the
  // engine reads the PR's title and body at its merged "closed" event, under the repository
  // name that event shows.
  std::set<std::pair<uint32_t, uint32_t>> fixed_by_pr;
  size_t hour = 0;
  for (size_t i = 0; i < plan.actions.size(); ++i) {
    while (hour + 1 < plan.hour_begin.size() && plan.hour_begin[hour + 1] <= i) ++hour;
    if (!written[i]) continue;
    const Action& a = plan.actions[i];
    const Report& r = plan.reports[a.report];
    const EventType type = LifecycleType(r, a);
    // What this event shows: the whole snapshot, or (hidden layouts) the number and maybe a title.
    bool snapshot = true, title = true;
    if (counts.view == TextView::kEvents2011) {
      if (type == EventType::kIssueComment) continue;  // ids only: no report at all
      snapshot = false;
      title = type == EventType::kPullRequest;
    } else if (counts.view == TextView::kSlim2025 && type == EventType::kPullRequest) {
      snapshot = title = false;
    }
    if (!seen[a.report]) first_seen[a.report] = a.time;
    seen[a.report] = true;
    last_seen[a.report] = a.time;
    state_known[a.report] = snapshot;
    open_at_end[a.report] = a.open;
    closed_at[a.report] = snapshot ? a.closed_at : 0;
    if (title) title_seen[a.report] = true;  // a 2011 pull request's title feeds the rules
    if (!snapshot) continue;
    created_known[a.report] = true;
    body_seen[a.report] = true;
    labels_seen[a.report] = true;
    max_comments[a.report] = std::max<uint64_t>(max_comments[a.report], a.comments);
    if (a.probe_comment_prose) comment_prose[a.report] = true;
    if (a.probe_comment_code) comment_code[a.report] = true;
    if (a.type == ActionType::kClosed && a.merged && r.kind == ReportKind::kPr &&
        ClosesReferencedIssue(r, world.repos[r.repo].NameAt(static_cast<int>(hour)).full)) {
      fixed_by_pr.emplace(r.repo, r.ref_number);
    }
  }
  // Repos are named as the last file with events shows them.
  auto name_of = [&](const Repo& repo) -> const std::string& {
    return counts.last_hour >= 0 ? repo.NameAt(counts.last_hour).full : repo.LatestName().full;
  };

  // Lifecycle of issues per repo, by the query engine's rules.
  Counts closed_by_repo, comments_by_repo;
  Nested resolution_by_repo;
  std::map<std::string, std::vector<double>> days_to_close;
  for (size_t i = 0; i < plan.reports.size(); ++i) {
    if (!seen[i]) continue;
    const Report& r = plan.reports[i];
    const std::string& repo = name_of(world.repos[r.repo]);
    const bool is_issue = r.kind == ReportKind::kIssue;
    // The engine dates a report by its created_at, or by its first event when none shows it.
    ++(is_issue ? issues_by_month : prs_by_month)[repo][MonthKey(created_known[i] ? r.created_at : first_seen[i])];
    const char* kind = is_issue ? "issue" : "pr";
    if (r.probe_title && title_seen[i]) ++probe["probe_title"][kind][repo];
    if (r.probe_body && body_seen[i]) ++probe["probe_body"][kind][repo];
    if ((r.probe_code_body && body_seen[i]) || comment_code[i]) ++probe["probe_code"][kind][repo];
    if (comment_prose[i]) ++probe["probe_comment"][kind][repo];
    if (r.probe_label && labels_seen[i]) ++probe["probe_label"][kind][repo];
    if (is_issue) {
      // The engine states kUnknownValue where the latest event shows no state, and its
      // resolution is unknown too.
      const bool closed = state_known[i] && !open_at_end[i];
      ++by_state[!state_known[i] ? kUnknownValue : closed ? "closed" : "open"];
      ++themes[ThemeName(title_seen[i] || body_seen[i] ? r.theme : Theme::kNone)][repo];
      Counts& resolution = resolution_by_repo[repo];
      for (const char* k : {"closed_without_pr", "fixed_by_pr", "open"}) resolution[k];
      comments_by_repo[repo] += max_comments[i];
      if (!state_known[i]) {
        ++resolution[kUnknownValue];
      } else if (!closed) {
        ++resolution["open"];
      } else {
        ++closed_by_repo[repo];
        // From October 2025 on pull requests carry no text: a closing without a known fix is unknown.
        const int64_t closed_time = closed_at[i] != 0 ? closed_at[i] : last_seen[i];
        const bool blind = MonthKey(closed_time) >= "2025-10";
        ++resolution[fixed_by_pr.count({r.repo, r.number}) ? "fixed_by_pr"
                     : blind                              ? kUnknownValue
                                                          : "closed_without_pr"];
        if (closed_at[i] != 0 && created_known[i] && r.created_at != 0) {
          days_to_close[repo].push_back(static_cast<double>(closed_at[i] - r.created_at) / 86400.0);
        }
      }
    }
  }

  // The background pull requests that review events named: a review event that carries a text
  // is a report event of its pull request (json/text_field.hpp's `review` field), one without
  // is none. The engine dates such a pull request by the earliest created_at its report events
  // show, else by the first of them. Their titles and review texts hold no probe marker
  // (MakeBackgroundPrTitle, AppendReviewText), so they add to no probe count.
  std::map<uint64_t, const Repo*> world_repo_of_id;
  for (const Repo& repo : world.repos) world_repo_of_id.emplace(repo.id, &repo);
  for (const auto& [key, pr] : counts.reviewed_prs.all()) {
    if (pr.events_with_text == 0) continue;
    const auto world_repo = world_repo_of_id.find(key.first);
    const std::string& repo = world_repo != world_repo_of_id.end() ? name_of(*world_repo->second) : pr.repo_name;
    ++prs_by_month[repo][MonthKey(pr.created_at != 0 ? pr.created_at : pr.first_text_time)];
  }

  TruthWriter w;
  w.Open('{');
  w.Key("bad_lines");
  w.Uint(counts.bad_lines);
  w.Key("closed_by_repo");
  w.CountsObject(closed_by_repo);
  w.Key("comments_by_repo");
  w.CountsObject(comments_by_repo);
  w.Key("duplicate_events");
  w.Uint(counts.duplicate_events);
  w.Key("events");
  w.Uint(counts.events);
  w.Key("events_by_type");
  Counts by_type;
  for (size_t t = 0; t < kEventTypeCount; ++t) {
    if (counts.by_type[t] > 0) by_type[EventTypeName(static_cast<EventType>(t))] = counts.by_type[t];
  }
  w.CountsObject(by_type);
  w.Key("files");
  w.Open('[');
  for (const auto& f : counts.files) w.String(f);
  w.Close(']');
  w.Key("issues_by_repo_month");
  w.NestedObject(issues_by_month);
  w.Key("issues_by_state");
  w.CountsObject(by_state);
  w.Key("joined_records");
  w.Uint(counts.joined_records);
  w.Key("median_days_to_close_by_repo");
  w.Open('{');
  for (auto& [repo, days] : days_to_close) {
    std::sort(days.begin(), days.end());
    const size_t n = days.size();
    w.Key(repo);
    w.Double(n % 2 == 1 ? days[n / 2] : (days[n / 2 - 1] + days[n / 2]) / 2);
  }
  w.Close('}');
  w.Key("missing_hours");
  w.Open('[');
  for (const auto& stem : counts.missing_hours) w.String(stem);
  w.Close(']');
  w.Key("nul_lines");
  w.Uint(counts.nul_lines);
  w.Key("probe");
  w.Open('{');
  for (const auto& [field, kinds] : probe) {
    w.Key(field);
    w.NestedObject(kinds);
  }
  w.Close('}');
  w.Key("prs_by_repo_month");
  w.NestedObject(prs_by_month);
  w.Key("repos_renamed");
  w.Open('{');
  // The renamed repo shows up in every file that holds an event.
  for (const Repo& repo : world.repos) {
    if (repo.rename_hour < 0 || counts.first_hour < 0) continue;  // an empty corpus shows no rename
    const std::string& from = repo.NameAt(counts.first_hour).full;
    const std::string& to = repo.NameAt(counts.last_hour).full;
    if (from == to) continue;
    w.Key(std::to_string(repo.id));
    w.Open('{');
    w.Key("from");
    w.String(from);
    w.Key("to");
    w.String(to);
    w.Close('}');
  }
  w.Close('}');
  w.Key("resolution_by_repo");
  w.NestedObject(resolution_by_repo);
  w.Key("schema_counts");
  w.CountsObject({{"legacy", counts.legacy_events}, {"modern", counts.modern_events}});
  w.Key("single_event_hours");
  w.Open('[');
  for (const auto& stem : counts.single_event_hours) w.String(stem);
  w.Close(']');
  w.Key("themes");
  w.NestedObject(themes);
  w.Key("tracked_repos");
  w.Open('[');
  for (size_t i = 0; i < world.tracked_count; ++i) w.String(name_of(world.repos[i]));
  w.Close(']');
  w.Close('}');
  return w.Take();
}

}  // namespace ghsift::gen
