#pragma once
// What the event extractor hands to the rule scanner and the aggregator: the envelope of every
// event, and for issue/PR events the report's fields. String views point into the parser's
// buffers and stay valid until the next line is extracted with the same extractor.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "json/report_attribute.hpp"
#include "json/text_field.hpp"

namespace ghsift {

//! Event types ghsift tells apart; all others are counted under their own name.
enum class EventKind : uint8_t {
  kOther,         //!< counted only
  kIssues,        //!< IssuesEvent: an issue snapshot
  kIssueComment,  //!< IssueCommentEvent: an issue (or PR) snapshot plus a comment
  kPullRequest,   //!< PullRequestEvent: a PR snapshot
  //! Another event whose type a text field names as its source (TextFieldSpec::events): a report
  //! event for that text alone, so only when it carries some.
  kReportText,
};

enum class ReportKind : uint8_t {
  kIssue = 0,
  kPullRequest = 1,
};

struct ReportFields {
  ReportKind kind = ReportKind::kIssue;
  int64_t number = 0;
  std::string_view action;       //!< opened, closed, reopened, created, ...
  //! The text of each field the event carries (json/text_field.hpp says where from): title,
  //! body and the event's own texts (a comment); raw markdown, empty when absent or null. The
  //! label names are in `labels`.
  PerField<std::string_view> text;
  std::vector<std::string_view> labels;
  std::string_view state;        //!< "open" / "closed"
  int64_t created_at = 0;        //!< the report's creation time (0 if unknown)
  int64_t closed_at = 0;         //!< 0 when open / null
  int64_t comments = 0;          //!< the snapshot's comment count
  bool merged = false;           //!< PullRequestEvent: pull_request.merged
  //! The attributes the snapshot gives (json/report_attribute.hpp), empty when absent or null.
  PerAttribute<std::string_view> attributes;

  //! Some field holds text (labels aside).
  bool HasText() const {
    for (std::string_view t : text.by_id) {
      if (!t.empty()) return true;
    }
    return false;
  }

  void Clear() {
    kind = ReportKind::kIssue;
    number = created_at = closed_at = comments = 0;
    merged = false;
    action = state = {};
    text = {};
    attributes = {};
    labels.clear();
  }
};

struct Event {
  EventKind kind = EventKind::kOther;
  uint64_t id = 0;               //!< event id (2015+ layout); 0 when the line has none
  std::string_view type;         //!< "PushEvent", ...
  int64_t created_at = 0;        //!< UTC Unix seconds
  int64_t repo_id = 0;
  std::string_view repo_name;    //!< "owner/name"
  std::string_view actor;        //!< login (read for report events only)
  //! Storage for a name joined from the old layout's repository.owner and repository.name.
  std::string joined_repo_name;
  //! The early Events API's `payload.repo` ("owner/name"), used when `repo` names none.
  std::string payload_repo_name;
  bool has_report = false;       //!< `report` holds an issue or PR snapshot
  ReportFields report;
  //! A report event (an issue, comment or pull request event, or another event carrying a report
  //! text) that names no usable report number, so yields no report: why, e.g. "`payload.issue.number`
  //! is null". Empty otherwise. The event still counts as an event.
  std::string no_report_reason;
};

}  // namespace ghsift
