#include "gen/issue_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

#include "gen/rng.hpp"

namespace ghsift::gen {

namespace {

constexpr uint32_t kNoReport = std::numeric_limits<uint32_t>::max();

// Where an issue stands with the pull requests that would fix it.
enum class FixState : uint8_t {
  kNone,      //!< no PR will close it (it is closed by hand, or stays open)
  kAwaiting,  //!< waits for a fixing PR: its script has no close of its own
  kLinked,    //!< an open PR says it closes it
  kFixed,     //!< closed by that PR's merge
};

// Shares of the linking plan.
constexpr double kAwaitFixShare = 0.35;   //!< issues left for a PR to close
constexpr double kLinkShare = 0.6;         //!< new PRs of a repo with an awaiting issue that take one
constexpr double kLinkedMergeShare = 0.8;  //!< linked PRs that get merged (the rest are closed unmerged)
constexpr double kMentionShare = 0.15;     //!< other PRs that mention an issue without closing it
constexpr double kForeignShare = 0.03;     //!< other PRs that "fix" an issue of another repo

// Planning-only state of a report: the rest of its script and its running state.
struct Progress {
  std::vector<ActionType> script;
  size_t step = 0;
  bool open = true;
  bool merged = false;
  StateReason state_reason = StateReason::kNull;
  uint8_t labeled = 0;
  uint16_t commits = 1;
  uint32_t comments = 0;
  int64_t closed_at = 0;
  int64_t merged_at = 0;
  uint32_t merged_by = 0;
  std::vector<size_t> comment_actions;  //!< indices into Plan::actions
  // Linking. A PR: the issue it closes if merged, and whether it will be (-1: drawn at close).
  uint32_t linked_issue = kNoReport;
  int8_t force_merge = -1;
  // An issue: its fix state, the PR linked to it, and the merger who closes it through the PR.
  FixState fix = FixState::kNone;
  uint32_t linked_pr = kNoReport;
  bool close_by_pr = false;
  uint32_t closer = 0;
  uint32_t foreign_repo = 0;  //!< a PR "fixing" an issue of this other repo (== own repo: none)
};

struct Pending {
  int64_t due;
  uint64_t seq;  //!< tie-break so the order never depends on heap internals
  uint32_t report;
  bool operator>(const Pending& o) const { return due != o.due ? due > o.due : seq > o.seq; }
};

int64_t DrawDelay(Rng& rng) {
  static const int kBuckets[] = {55, 25, 15, 5};
  switch (rng.Weighted(kBuckets, 4)) {
    case 0: return 60 + static_cast<int64_t>(rng.Below(1800));
    case 1: return 1800 + static_cast<int64_t>(rng.Below(3 * 3600));
    case 2: return 3 * 3600 + static_cast<int64_t>(rng.Below(21 * 3600));
    default: return 86400 + static_cast<int64_t>(rng.Below(6 * 86400));
  }
}

Theme DrawTheme(Rng& rng) {
  static const int kWeights[] = {70, 12, 10, 8};
  return static_cast<Theme>(rng.Weighted(kWeights, 4));
}

std::vector<ActionType> IssueScript(Rng& rng, bool pre_corpus) {
  static const int kCommentWeights[] = {10, 20, 22, 20, 15, 13};
  std::vector<ActionType> s;
  if (!pre_corpus) s.push_back(ActionType::kOpened);
  const int before = static_cast<int>(rng.Weighted(kCommentWeights, 6));
  for (int i = 0; i < before; ++i) s.push_back(ActionType::kComment);
  if (rng.Chance(0.25)) {
    const size_t at = std::min(s.size(), static_cast<size_t>(1 + rng.Below(2)));
    s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), ActionType::kLabeled);
  }
  if (rng.Chance(0.55)) {
    s.push_back(ActionType::kClosed);
    if (rng.Chance(0.3)) s.push_back(ActionType::kComment);
    if (rng.Chance(0.1)) {
      s.push_back(ActionType::kReopened);
      if (rng.Chance(0.5)) s.push_back(ActionType::kComment);
      if (rng.Chance(0.5)) s.push_back(ActionType::kClosed);
    }
  }
  if (s.empty()) s.push_back(ActionType::kComment);
  return s;
}

std::vector<ActionType> PrScript(Rng& rng, bool pre_corpus) {
  static const int kCommentWeights[] = {25, 30, 25, 20};
  std::vector<ActionType> middle;
  const int syncs = static_cast<int>(rng.Below(3));
  for (int i = 0; i < syncs; ++i) middle.push_back(ActionType::kSynchronize);
  const int comments = static_cast<int>(rng.Weighted(kCommentWeights, 4));
  for (int i = 0; i < comments; ++i) middle.push_back(ActionType::kComment);
  if (rng.Chance(0.15)) middle.push_back(ActionType::kLabeled);
  for (size_t i = middle.size(); i > 1; --i) std::swap(middle[i - 1], middle[rng.Below(i)]);
  std::vector<ActionType> s;
  if (!pre_corpus) s.push_back(ActionType::kOpened);
  for (const ActionType t : middle) s.push_back(t);
  if (rng.Chance(0.8)) {
    s.push_back(ActionType::kClosed);
    if (rng.Chance(0.05)) {
      s.push_back(ActionType::kReopened);
      s.push_back(ActionType::kClosed);
    }
  }
  if (s.empty()) s.push_back(ActionType::kComment);
  return s;
}

uint32_t PickUser(Rng& rng, const World& world) {
  return static_cast<uint32_t>(rng.Skewed(world.users.size()));
}

// A small stable set of maintainers per repo, who label and close.
uint32_t PickMaintainer(Rng& rng, const World& world, uint32_t repo) {
  uint64_t key = world.repos[repo].id * 0x9E3779B97F4A7C15ULL + rng.Below(4);
  return static_cast<uint32_t>(8 + SplitMixNext(key) % (world.users.size() - 8));
}

class Planner {
 public:
  Planner(const World& world, const GenOptions& options)
      : world_(world), options_(options), rng_(MixSeed(options.seed, 0x706c616e)) {  // "plan"
    next_high_.resize(world.repos.size());
    next_low_.resize(world.repos.size());
    issues_of_repo_.resize(world.repos.size());
    awaiting_.resize(world.repos.size());
    for (size_t i = 0; i < world.repos.size(); ++i) {
      next_high_[i] = world.repos[i].first_number;
      next_low_[i] = world.repos[i].first_number - 1;
    }
    tracked_weights_.reserve(world.tracked_count);
    for (size_t i = 0; i < world.tracked_count; ++i) tracked_weights_.push_back(world.repos[i].activity_weight);
  }

  Plan Run() {
    const int per_hour = LifecycleSlotsPerHour(options_.events_per_hour, options_.lifecycle_share);
    std::vector<int> seconds(static_cast<size_t>(per_hour));
    plan_.hour_begin.push_back(0);
    for (int h = 0; h < options_.hours; ++h) {
      const int64_t hour_start = world_.corpus_start + int64_t{3600} * h;
      for (auto& s : seconds) s = static_cast<int>(rng_.Below(3600));
      std::sort(seconds.begin(), seconds.end());
      for (const int s : seconds) Slot(hour_start + s);
      plan_.hour_begin.push_back(plan_.actions.size());
    }
    Finish();
    return std::move(plan_);
  }

 private:
  void Slot(int64_t t) {
    if (!pending_.empty() && pending_.top().due <= t) {
      const Pending p = pending_.top();
      pending_.pop();
      Execute(p.report, t);
    } else {
      Execute(NewReport(t), t);
    }
  }

  uint32_t NewReport(int64_t t) {
    Report r;
    r.kind = rng_.Chance(options_.pr_share < 0 ? kDefaultPrShare : options_.pr_share) ? ReportKind::kPr
                                                                                      : ReportKind::kIssue;
    r.theme = DrawTheme(rng_);
    if (rng_.Chance(options_.tracked_share)) {
      r.repo = static_cast<uint32_t>(rng_.Weighted(tracked_weights_.data(), tracked_weights_.size()));
    } else {
      r.repo = static_cast<uint32_t>(world_.tracked_count + rng_.Skewed(world_.repos.size() - world_.tracked_count));
    }
    r.pre_corpus =
        rng_.Chance(options_.pre_corpus_share < 0 ? kDefaultPreCorpusShare : options_.pre_corpus_share) &&
        next_low_[r.repo] > 0;
    if (r.pre_corpus) {
      r.number = next_low_[r.repo];
      next_low_[r.repo] -= std::min<uint32_t>(next_low_[r.repo], 1 + static_cast<uint32_t>(rng_.Below(5)));
      r.created_at = world_.corpus_start - 3600 - static_cast<int64_t>(rng_.Below(120 * 86400));
      r.pre_comments = static_cast<uint32_t>(rng_.Below(8));
    } else {
      r.number = next_high_[r.repo]++;
      r.created_at = t;
    }
    r.author = PickUser(rng_, world_);
    r.issue_id = 1500000000ULL + plan_.reports.size() * 8 + rng_.Below(8);
    r.pr_id = 1100000000ULL + plan_.reports.size() * 8 + rng_.Below(8);
    r.body_null = rng_.Chance(0.15);
    if (r.kind == ReportKind::kPr) {
      r.head_user = rng_.Chance(0.8) ? r.author : PickUser(rng_, world_);
      r.additions = static_cast<uint32_t>(rng_.Skewed(2000));
      r.deletions = static_cast<uint32_t>(rng_.Skewed(800));
      r.changed_files = 1 + static_cast<uint32_t>(rng_.Skewed(40));
      r.base_commits = 1 + static_cast<uint32_t>(rng_.Below(4));
      r.review_comments = static_cast<uint32_t>(rng_.Skewed(12));
      r.draft = rng_.Chance(0.1);
    } else {
      issues_of_repo_[r.repo].push_back(r.number);
    }
    const auto index = static_cast<uint32_t>(plan_.reports.size());
    Progress progress;
    progress.foreign_repo = r.repo;
    progress.script = r.kind == ReportKind::kPr ? PrScript(rng_, r.pre_corpus) : IssueScript(rng_, r.pre_corpus);
    if (r.kind == ReportKind::kIssue) {
      if (rng_.Chance(kAwaitFixShare)) {
        // Left for a PR: no close of its own (one comes with the fixing PR's merge, if any).
        auto& s = progress.script;
        s.erase(std::find(s.begin(), s.end(), ActionType::kClosed), s.end());
        if (s.empty()) s.push_back(ActionType::kComment);
        progress.fix = FixState::kAwaiting;
        awaiting_[r.repo].push_back(index);
      }
    } else if (!r.pre_corpus) {
      PlanReference(r, index, progress);
    }
    progress.comments = r.pre_comments;
    progress.commits = static_cast<uint16_t>(r.base_commits);
    // Labels: a few at creation, one more per `labeled` action.
    const auto& set = world_.label_sets[world_.repos[r.repo].label_set];
    static const int kInitial[] = {40, 35, 20, 5};
    const size_t initial = rng_.Weighted(kInitial, 4);
    const size_t added = static_cast<size_t>(std::count(progress.script.begin(), progress.script.end(), ActionType::kLabeled));
    while (r.labels.size() < std::min(initial + added, set.size())) {
      const uint32_t label = set[rng_.Below(set.size())];
      if (std::find(r.labels.begin(), r.labels.end(), label) == r.labels.end()) r.labels.push_back(label);
    }
    r.initial_labels = static_cast<uint8_t>(r.labels.size() - std::min(added, r.labels.size()));
    plan_.reports.push_back(std::move(r));
    progress_.push_back(std::move(progress));
    return index;
  }

  // A new PR: closes an issue of its repo that waits for one, or mentions an issue, or names
  // none. The wording is chosen in Finish, once the merge time is known.
  void PlanReference(Report& r, uint32_t index, Progress& progress) {
    auto& pool = awaiting_[r.repo];
    if (!pool.empty() && rng_.Chance(kLinkShare)) {
      const size_t k = rng_.Below(pool.size());
      const uint32_t issue = pool[k];
      pool[k] = pool.back();
      pool.pop_back();
      Progress& ip = progress_[issue];
      ip.fix = FixState::kLinked;
      ip.linked_pr = index;
      r.ref_number = plan_.reports[issue].number;
      r.ref_closing = true;
      progress.linked_issue = issue;
      progress.force_merge = rng_.Chance(kLinkedMergeShare) ? 1 : 0;
      auto& s = progress.script;
      if (std::find(s.begin(), s.end(), ActionType::kClosed) == s.end()) s.push_back(ActionType::kClosed);
      return;
    }
    const auto& issues = issues_of_repo_[r.repo];
    if (!issues.empty() && rng_.Chance(kMentionShare)) {
      r.ref_number = issues[rng_.Below(issues.size())];  // "see #N": closes nothing
      return;
    }
    if (world_.repos.size() > 1 && rng_.Chance(kForeignShare)) {
      // "Fixes other/repo#N": a closing keyword, but for an issue of another repository.
      uint32_t other = static_cast<uint32_t>(rng_.Below(world_.repos.size() - 1));
      if (other >= r.repo) ++other;
      progress.foreign_repo = other;
      r.ref_number = 1 + static_cast<uint32_t>(rng_.Below(world_.repos[other].first_number + 50));
      r.ref_closing = true;
    }
  }

  // The merge of a PR closes the issue it links: right away if the issue has nothing left to
  // do, else as its very next action.
  void FixIssue(uint32_t issue, int64_t t, uint32_t merger) {
    Progress& ip = progress_[issue];
    ip.fix = FixState::kFixed;
    if (!ip.open) return;  // cannot happen (its script has no close), but a closed issue stays so
    ip.close_by_pr = true;
    ip.closer = merger;
    if (ip.step >= ip.script.size()) {
      ip.script.push_back(ActionType::kClosed);
      if (rng_.Chance(0.2)) ip.script.push_back(ActionType::kComment);  // "thanks for the fix"
      pending_.push({t + 1 + static_cast<int64_t>(rng_.Below(300)), seq_++, issue});
    } else {
      ip.script.insert(ip.script.begin() + static_cast<std::ptrdiff_t>(ip.step), ActionType::kClosed);
    }
  }

  void Execute(uint32_t index, int64_t t) {
    const Report& r = plan_.reports[index];
    Progress& p = progress_[index];
    Action a;
    a.time = t;
    a.report = index;
    a.type = p.script[p.step++];
    const bool is_pr = r.kind == ReportKind::kPr;
    switch (a.type) {
      case ActionType::kOpened:
      case ActionType::kSynchronize:
        a.actor = is_pr ? r.head_user : r.author;
        if (a.type == ActionType::kSynchronize) ++p.commits;
        break;
      case ActionType::kComment:
        a.actor = rng_.Chance(0.3) ? r.author : PickUser(rng_, world_);
        ++p.comments;
        a.comment_id = 1800000000ULL + next_comment_++ * 4 + rng_.Below(4);
        p.comment_actions.push_back(plan_.actions.size());
        break;
      case ActionType::kLabeled:
        a.actor = PickMaintainer(rng_, world_, r.repo);
        if (r.initial_labels + p.labeled < r.labels.size()) ++p.labeled;
        break;
      case ActionType::kClosed:
        p.open = false;
        p.closed_at = t;
        if (is_pr) {
          p.merged = p.force_merge >= 0 ? p.force_merge == 1 : rng_.Chance(0.75);
          a.actor = PickMaintainer(rng_, world_, r.repo);
          if (p.merged) {
            p.merged_at = t;
            p.merged_by = a.actor;
            // A merged PR cannot be reopened: drop what is left of its script.
            p.script.resize(p.step);
            if (p.linked_issue != kNoReport) FixIssue(p.linked_issue, t, a.actor);
          } else if (p.linked_issue != kNoReport && progress_[p.linked_issue].fix == FixState::kLinked &&
                     progress_[p.linked_issue].linked_pr == index) {
            // Closed unmerged: the issue waits for another PR.
            progress_[p.linked_issue].fix = FixState::kAwaiting;
            progress_[p.linked_issue].linked_pr = kNoReport;
            awaiting_[r.repo].push_back(p.linked_issue);
          }
        } else if (p.close_by_pr) {
          // GitHub closes it on the merger's behalf.
          p.close_by_pr = false;
          a.actor = p.closer;
          p.state_reason = StateReason::kCompleted;
        } else {
          a.actor = rng_.Chance(0.4) ? r.author : PickMaintainer(rng_, world_, r.repo);
          p.state_reason = rng_.Chance(0.8) ? StateReason::kCompleted : StateReason::kNotPlanned;
        }
        break;
      case ActionType::kReopened:
        a.actor = r.author;
        p.open = true;
        p.closed_at = 0;
        p.state_reason = is_pr ? StateReason::kNull : StateReason::kReopened;
        break;
    }
    a.open = p.open;
    a.merged = p.merged;
    a.state_reason = p.state_reason;
    a.labeled_so_far = p.labeled;
    a.commits = p.commits;
    a.comments = p.comments;
    a.closed_at = p.closed_at;
    a.merged_at = p.merged_at;
    a.merged_by = p.merged_by;
    plan_.actions.push_back(a);
    if (p.step < p.script.size()) pending_.push({t + DrawDelay(rng_), seq_++, index});
  }

  // Markers and texts are decided once we know which events were actually written, so a
  // planted marker always shows up in the corpus.
  void Finish() {
    for (uint32_t i = 0; i < plan_.reports.size(); ++i) {
      Report& r = plan_.reports[i];
      Progress& p = progress_[i];
      Rng rng(MixSeed(options_.seed, 0x7465787400 + i, r.repo));  // "text"
      const bool has_comment = !p.comment_actions.empty();
      r.probe_title = rng.Chance(0.05);
      r.probe_body = !r.body_null && rng.Chance(0.05);
      if (rng.Chance(0.05)) {
        const uint64_t mode = rng.Below(10);  // 0-5 body, 6-7 both, 8-9 a comment only
        r.probe_code_body = !r.body_null && (mode < 8 || !has_comment);
        r.probe_code_comment = has_comment && (mode >= 6 || r.body_null);
      }
      if (has_comment && rng.Chance(0.05)) {
        r.probe_comment = true;
        plan_.actions[p.comment_actions[rng.Below(p.comment_actions.size())]].probe_comment_prose = true;
      }
      if (r.probe_code_comment) {
        plan_.actions[p.comment_actions[rng.Below(p.comment_actions.size())]].probe_comment_code = true;
      }
      if (rng.Chance(0.05)) {
        r.probe_label = true;  // first label, so every snapshot shows it
        r.labels.insert(r.labels.begin(), world_.probe_label);
        ++r.initial_labels;
      }
      ReportTextSpec spec;
      spec.repo_full_name = world_.repos[r.repo].names[0].full;
      spec.theme = r.theme;
      spec.is_pr = r.kind == ReportKind::kPr;
      spec.probe_title = r.probe_title;
      spec.probe_body = r.probe_body;
      spec.probe_code = r.probe_code_body;
      if (r.ref_number != 0) {
        WriteReference(rng, r, p);
        if (!r.ref_in_title) spec.reference = r.ref_text;
      }
      r.title = MakeTitle(rng, spec);
      if (r.ref_in_title) r.title += " (" + r.ref_text + ")";
      if (!r.body_null) r.body = MakeBody(rng, spec);
    }
  }

  // The phrase of a PR's reference and where it goes (the title when there is no body).
  void WriteReference(Rng& rng, Report& r, const Progress& p) {
    r.ref_in_title = r.body_null || rng.Chance(0.15);
    const Repo& repo = world_.repos[r.repo];
    const int created_hour = static_cast<int>((r.created_at - world_.corpus_start) / 3600);
    // The author writes the name the repository has when the PR is opened. One renamed before
    // the merge would no longer match the merge event's name, so such a PR says "#N".
    const int merged_hour = p.merged_at != 0 ? static_cast<int>((p.merged_at - world_.corpus_start) / 3600)
                                             : created_hour;
    const bool stable_name = repo.NameAt(created_hour).full == repo.NameAt(merged_hour).full;
    const bool foreign = p.foreign_repo != r.repo;
    static const int kForms[] = {60, 25, 15};
    r.ref_form = foreign ? (rng.Chance(0.8) ? RefForm::kQualified : RefForm::kUrl)
                         : static_cast<RefForm>(rng.Weighted(kForms, 3));
    if (!foreign && !stable_name) r.ref_form = RefForm::kNumber;
    r.ref_repo_name.clear();
    if (r.ref_form != RefForm::kNumber) r.ref_repo_name = world_.repos[p.foreign_repo].NameAt(created_hour).full;
    std::string target;
    switch (r.ref_form) {
      case RefForm::kNumber: target = "#" + std::to_string(r.ref_number); break;
      case RefForm::kQualified: target = r.ref_repo_name + "#" + std::to_string(r.ref_number); break;
      case RefForm::kUrl:
        target = "https://github.com/" + r.ref_repo_name + "/issues/" + std::to_string(r.ref_number);
        break;
    }
    if (r.ref_closing) {
      static const char* const kClosing[] = {"Fixes ", "fixes ", "Closes ", "closes ", "Resolves ", "resolves ",
                                             "Fix: ",  "Fixed ", "Close ",  "Resolved: ", "FIXES ", "fix "};
      r.ref_text = std::string(rng.Pick(kClosing)) + target;
    } else {
      static const char* const kMentions[] = {"See ", "see ", "Related to ", "related to ", "Follow-up to ",
                                              "Part of ", "Refs ", "cc "};
      r.ref_text = std::string(rng.Pick(kMentions)) + target;
    }
  }

  const World& world_;
  const GenOptions& options_;
  Rng rng_;
  Plan plan_;
  std::vector<Progress> progress_;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> pending_;
  std::vector<uint32_t> next_high_, next_low_;
  std::vector<std::vector<uint32_t>> issues_of_repo_;  //!< issue numbers, for mentions
  std::vector<std::vector<uint32_t>> awaiting_;        //!< issues (report indices) waiting for a fixing PR
  std::vector<int> tracked_weights_;
  uint64_t seq_ = 0;
  uint64_t next_comment_ = 0;
};

}  // namespace

bool ClosesReferencedIssue(const Report& pr, std::string_view repo_name) {
  if (pr.kind != ReportKind::kPr || pr.ref_number == 0 || !pr.ref_closing) return false;
  if (pr.ref_form == RefForm::kNumber) return true;
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  return pr.ref_repo_name.size() == repo_name.size() &&
         std::equal(repo_name.begin(), repo_name.end(), pr.ref_repo_name.begin(),
                    [&](char a, char b) { return lower(a) == lower(b); });
}

int LifecycleSlotsPerHour(int events_per_hour, double lifecycle_share) {
  if (lifecycle_share >= 0) return static_cast<int>(std::lround(events_per_hour * lifecycle_share));
  return static_cast<int>((static_cast<int64_t>(events_per_hour) * kLifecyclePerMille + kMixTotal / 2) / kMixTotal);
}

Plan PlanReports(const World& world, const GenOptions& options) {
  return Planner(world, options).Run();
}

}  // namespace ghsift::gen
