#pragma once
// The fourth stage: one NDJSON line in, one Event out.
//
// Only IssuesEvent, IssueCommentEvent and PullRequestEvent are parsed in full (simdjson
// On-Demand). For every other type the envelope (type, repo, time) is read straight from the
// bytes of the 2015+ layout, where `type` is the second key and `created_at` closes the
// object; a line whose layout does not fit falls back to the full parser. Only the record's own
// members count (depth 1: never a `repo` nested in the payload). So are, when the
// caller names the repositories whose reports it keeps (SetKeptReports), the report events of
// all others, whose payload only says whether the event has a report number and text.
#include <simdjson.h>

#include <functional>
#include <string_view>

#include "json/event.hpp"

namespace ghsift {

enum class ExtractOutcome {
  kEvent,    //!< `event` is filled
  kBadLine,  //!< not a valid event; `error` says why
};

class EventExtractor {
 public:
  //! Which repositories' reports are kept (by name and id, as RepoFilter::Tracks). With one
  //! set, a report event of any other repository is read as the other types are, from the
  //! line's bytes, when they say for certain what is counted of it (json/report_probe.hpp):
  //! such an event holds its envelope, `has_report`, and its report's `number` and `title`
  //! only (not its kind, state, body, labels or comment). Without one, every report is read whole.
  void SetKeptReports(std::function<bool(std::string_view repo_name, int64_t repo_id)> kept) {
    kept_reports_ = std::move(kept);
  }

  //! `line` must be followed by at least simdjson::SIMDJSON_PADDING readable bytes.
  ExtractOutcome Extract(std::string_view line, Event& event);
  //! Bytes of the line the last event used. Less than the line when two records share one
  //! line with no newline between them (`}{`, a known archive quirk): the caller extracts the
  //! rest as the next record.
  size_t consumed() const { return consumed_; }
  //! Why the last line was bad (static text).
  const char* error() const { return error_; }

 private:
  ExtractOutcome ParseFull(std::string_view line, Event& event);
  bool ReadEnvelopeFast(std::string_view line, Event& event);
  //! A report event of `kind` whose report is not kept, from the bytes (SetKeptReports).
  bool ReadUnkeptReportFast(std::string_view line, EventKind kind, Event& event);
  ExtractOutcome Bad(const char* why) {
    error_ = why;
    return ExtractOutcome::kBadLine;
  }

  simdjson::ondemand::parser parser_;
  std::function<bool(std::string_view, int64_t)> kept_reports_;
  const char* error_ = "";
  size_t consumed_ = 0;
};

//! Classifies an event type name.
EventKind EventKindOf(std::string_view type);

//! The id of a repository that a record names but does not number: the Timeline records of
//! mid-2012 carry `repository` {owner, name, url} without `id`. Negative, so it never meets a
//! GitHub id, and below kUntrackedRepositories (-1); the same for every case of the name (GitHub
//! names are case-insensitive). 0 when `full_name` is not "owner/name".
int64_t RepoIdFromName(std::string_view full_name);

}  // namespace ghsift
