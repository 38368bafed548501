#include "query/blind_months.hpp"

#include <algorithm>

#include "common/time_util.hpp"
#include "store/key_codec.hpp"

namespace ghsift {
namespace {

//! Blind when enough events were seen and under kBlindTextShare of them carry text; `judged`
//! says whether the events sufficed.
bool BlindByShare(uint64_t events, uint64_t with_text, bool* judged) {
  *judged = events >= kMinEventsToJudge;
  return static_cast<double>(with_text) < kBlindTextShare * static_cast<double>(events);
}

}  // namespace

MonthSight JudgeMonth(int32_t month, const TextShare& share) {
  MonthSight s;
  s.share = share;
  bool judged = false;
  const bool issue_blind = BlindByShare(share.issue_events, share.issue_events_text, &judged);
  s.issue_basis = judged ? BlindBasis::kShare : BlindBasis::kEra;
  s.issue_text_blind = judged ? issue_blind : month < kFirstMonthWithIssueText;
  const bool pr_blind = BlindByShare(share.pr_events, share.pr_events_text, &judged);
  s.pull_request_basis = judged ? BlindBasis::kShare : BlindBasis::kEra;
  s.pull_request_text_blind = judged ? pr_blind : month >= kFirstMonthWithoutPullRequestText;
  return s;
}

Result<std::map<int32_t, TextShare>> ReadTextShares(const Store& store) {
  std::map<int32_t, TextShare> shares;
  GHSIFT_TRY(store.ScanCounters(std::string(1, keys::kTextShare), [&](std::string_view key, int64_t n) {
    keys::TextShareKey k;
    if (!keys::ParseTextShare(key, &k)) return;
    TextShare& s = shares[k.month];
    const auto count = static_cast<uint64_t>(n);
    if (k.measure == "issue_events") s.issue_events = count;
    else if (k.measure == "issue_events_text") s.issue_events_text = count;
    else if (k.measure == "pr_events") s.pr_events = count;
    else if (k.measure == "pr_events_text") s.pr_events_text = count;
  }));
  return shares;
}

BlindMonths::BlindMonths(std::map<int32_t, TextShare> shares) {
  for (const auto& [month, share] : shares) months_.emplace(month, JudgeMonth(month, share));
}

Result<BlindMonths> BlindMonths::Load(const Store& store) {
  GHSIFT_ASSIGN_OR_RETURN(auto shares, ReadTextShares(store));
  return BlindMonths(std::move(shares));
}

MonthSight BlindMonths::Of(int32_t month) const {
  auto it = months_.find(month);
  return it != months_.end() ? it->second : JudgeMonth(month, TextShare{});
}

BlindMonthList BlindMonths::Within(std::optional<int32_t> from, std::optional<int32_t> to) const {
  BlindMonthList list;
  for (const auto& [month, sight] : months_) {
    if ((from && month < *from) || (to && month > *to)) continue;
    if (sight.issue_text_blind) list.no_issue_text.push_back(month);
    if (sight.pull_request_text_blind) list.no_pull_request_text.push_back(month);
  }
  return list;
}

std::string BlindMonthList::Marks(int32_t month) const {
  MonthSight sight;
  sight.issue_text_blind = std::binary_search(no_issue_text.begin(), no_issue_text.end(), month);
  sight.pull_request_text_blind =
      std::binary_search(no_pull_request_text.begin(), no_pull_request_text.end(), month);
  return BlindMarks(sight);
}

std::string MonthRuns(const std::vector<int32_t>& months) {
  std::string out;
  for (size_t i = 0; i < months.size();) {
    size_t j = i;
    while (j + 1 < months.size() && months[j + 1] == months[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") + FormatMonth(months[i]) + (j > i ? " to " + FormatMonth(months[j]) : "");
    i = j + 1;
  }
  return out;
}

std::string BlindMarks(const MonthSight& sight) {
  std::string out;
  if (sight.issue_text_blind) out += kNoIssueTextMark;
  if (sight.pull_request_text_blind) out += kNoPullRequestTextMark;
  return out;
}

}  // namespace ghsift
