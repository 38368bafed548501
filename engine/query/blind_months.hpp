#pragma once
// Where the archive itself is blind, month by month: months whose issue events carry no text
// (2011-2014: ids only) and months whose pull-request events carry no title or body (from about
// October 2025). Judged from the store's own per-month text shares ('X' counters); a month with
// too few events to judge falls back to the known eras. `query` (resolution), the report's marks
// and `query --by month`'s note all ask this one place.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "aggregate/file_aggregate.hpp"
#include "common/result.hpp"
#include "common/unknown_value.hpp"
#include "store/store.hpp"

namespace ghsift {

//! A month is blind for a kind of event when fewer than this share of its events carry text...
inline constexpr double kBlindTextShare = 0.05;
//! ... and it has at least this many events of that kind; with fewer, the era decides.
inline constexpr uint64_t kMinEventsToJudge = 20;
//! The eras the fallback assumes: issue events carry text from January 2015 on (before, the
//! archive recorded only ids), pull-request events carry none from October 2025 on.
inline constexpr int32_t kFirstMonthWithIssueText = 2015 * 12 + 0;
inline constexpr int32_t kFirstMonthWithoutPullRequestText = 2025 * 12 + 9;

//! How a month was judged for one kind of event.
enum class BlindBasis {
  kShare,  //!< from the month's events (at least kMinEventsToJudge of them)
  kEra,    //!< too few events in the store: from the known era
};

struct MonthSight {
  TextShare share;                        //!< the month's report events, with and without text
  bool issue_text_blind = false;          //!< issue events carry (almost) no text
  bool pull_request_text_blind = false;   //!< pull-request events carry (almost) no title or body
  BlindBasis issue_basis = BlindBasis::kEra;
  BlindBasis pull_request_basis = BlindBasis::kEra;
};

//! Judges one month from its shares (`share` may be all zeros: a month the store has no events of).
MonthSight JudgeMonth(int32_t month, const TextShare& share);

//! The per-month text shares the store counted ('X' counters), by month index.
Result<std::map<int32_t, TextShare>> ReadTextShares(const Store& store);

//! The blind months as every place shows them (the report's head, its tables and charts by month,
//! `query --by month`'s note): one list per kind of text, in month order.
struct BlindMonthList {
  std::vector<int32_t> no_issue_text;         //!< issue events carry (almost) no text
  std::vector<int32_t> no_pull_request_text;  //!< pull-request events carry (almost) no title or body
  bool empty() const { return no_issue_text.empty() && no_pull_request_text.empty(); }
  //! The marks of a month of the list ("", a dagger, a double dagger or both): a month outside
  //! it has none, whatever its era.
  std::string Marks(int32_t month) const;
};

class BlindMonths {
 public:
  BlindMonths() = default;
  explicit BlindMonths(std::map<int32_t, TextShare> shares);
  static Result<BlindMonths> Load(const Store& store);

  //! The judgement of any month (one the store holds no events of is judged by its era).
  MonthSight Of(int32_t month) const;
  bool IssueTextBlind(int32_t month) const { return Of(month).issue_text_blind; }
  bool PullRequestTextBlind(int32_t month) const { return Of(month).pull_request_text_blind; }
  //! The months the store holds report events of, judged.
  const std::map<int32_t, MonthSight>& months() const { return months_; }
  //! The blind months, the one list every place prints: the months the store holds report events
  //! of (the months it read; a month between them with no ingested hour is a gap, not blind, and
  //! a month a report was created in but no event was read from says nothing of what was read),
  //! from `from` to `to` when given, judged as Of judges them.
  BlindMonthList Within(std::optional<int32_t> from, std::optional<int32_t> to) const;

 private:
  std::map<int32_t, MonthSight> months_;
};

//! The legend lines of the two marks (the report, `query --by month`'s note).
inline constexpr const char* kNoIssueTextMark = "\u2020";        // dagger
inline constexpr const char* kNoPullRequestTextMark = "\u2021";  // double dagger
inline constexpr const char* kNoIssueTextLegend =
    "the archive holds no issue text for these months: counts of flagged reports are not comparable";
//! Names the resolution as the tables spell it (kUnknownValue).
inline const std::string kNoPullRequestTextLegend =
    std::string("closing pull requests cannot be seen: resolution ") + kUnknownValue;

//! The marks of a month ("", a dagger, a double dagger or both).
std::string BlindMarks(const MonthSight& sight);

//! "2013-01 to 2013-03, 2013-07": months in order, runs of consecutive months joined.
std::string MonthRuns(const std::vector<int32_t>& months);

}  // namespace ghsift
