#include "json/event_extractor.hpp"

#include <charconv>
#include <array>
#include <cstring>
#include <deque>
#include <string>
#include <utility>

#include "common/hash.hpp"
#include "common/time_util.hpp"
#include "common/utf8.hpp"
#include "json/record_boundary.hpp"
#include "json/report_probe.hpp"

namespace ghsift {
namespace {

namespace od = simdjson::ondemand;

constexpr std::string_view kTypeKey = "\"type\":\"";
constexpr std::string_view kIdKey = "{\"id\":\"";
constexpr std::string_view kRepoKey = "\"repo\":{\"id\":";
constexpr std::string_view kNameKey = ",\"name\":\"";
constexpr std::string_view kCreatedKey = "\"created_at\":\"";
constexpr size_t kTypeWindow = 96;      //!< `type` is the second key of 2015+ lines
constexpr size_t kCreatedWindow = 640;  //!< created_at and an optional org close the line
constexpr size_t kIsoTimeLength = 20;   //!< "2015-01-01T15:00:01Z"

// Field readers that treat a missing, null or mistyped value as absent: the archive has
// nulls everywhere and old payloads differ, and none of that makes an event unusable.
// Strings repaired by RepairEscapes for the line being extracted on this thread; cleared by
// Extract, so their views live exactly as long as simdjson's own (until the next line).
thread_local std::deque<std::string> t_repaired;

bool ReadHex4(const char* p, uint32_t* out) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    const char c = p[i];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= static_cast<uint32_t>(c - '0');
    else if (c >= 'a' && c <= 'f') v |= static_cast<uint32_t>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= static_cast<uint32_t>(c - 'A' + 10);
    else return false;
  }
  *out = v;
  return true;
}

//! Unescapes a JSON string that simdjson refused (a lone surrogate such as "\ud800", common
//! where the archive cut an emoji in half), putting U+FFFD where a code point is broken.
//! `raw` points just past the opening quote; the line's padding guarantees readable bytes.
std::string_view RepairEscapes(const char* raw) {
  std::string out;
  for (const char* p = raw; *p != '"' && *p != '\0';) {
    if (*p != '\\') {
      out += *p++;
      continue;
    }
    const char e = p[1];
    p += 2;
    switch (e) {
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        uint32_t cp = 0xFFFD, low = 0;
        if (ReadHex4(p, &cp)) p += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (p[0] == '\\' && p[1] == 'u' && ReadHex4(p + 2, &low) && low >= 0xDC00 && low <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            p += 6;
          } else {
            cp = 0xFFFD;
          }
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          cp = 0xFFFD;
        }
        AppendUtf8(out, cp);
        break;
      }
      default: out += e;  // \" \\ \/
    }
  }
  t_repaired.push_back(std::move(out));
  return t_repaired.back();
}

std::string_view StringOr(od::value value, std::string_view fallback = {}) {
  std::string_view s;
  const simdjson::error_code error = value.get_string().get(s);
  if (error == simdjson::SUCCESS) return s;
  if (error == simdjson::STRING_ERROR) {
    od::raw_json_string raw;
    if (value.get_raw_json_string().get(raw) == simdjson::SUCCESS) return RepairEscapes(raw.raw());
  }
  return fallback;
}

int64_t IntOr(od::value value, int64_t fallback = 0) {
  int64_t i;
  if (value.get_int64().get(i) == simdjson::SUCCESS) return i;
  std::string_view s;  // ids are strings in some payloads
  if (value.get_string().get(s) == simdjson::SUCCESS) {
    int64_t parsed = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), parsed);
    // Digits only, and in range: an overflowing number is no number at all.
    if (ec != std::errc() || end != s.data() + s.size() || s.empty() || s.front() == '-') return fallback;
    return parsed;
  }
  return fallback;
}

//! GitHub's years: from its founding (2007-10-01) to the end of 2099. A time outside them is a
//! damaged record, not an event: counted, one bad record would stretch every month range (`query
//! --fill-zeros`, the report's months) across centuries.
constexpr int64_t kFirstGitHubTime = 1191196800;  // 2007-10-01T00:00:00Z
constexpr int64_t kEndOfGitHubTimes = 4102444800;  // 2100-01-01T00:00:00Z

bool InGitHubYears(int64_t time) { return time >= kFirstGitHubTime && time < kEndOfGitHubTimes; }

std::optional<int64_t> ArchiveTime(std::string_view text) {
  const std::optional<int64_t> time = ParseIsoTime(text);
  if (!time || !InGitHubYears(*time)) return std::nullopt;
  return time;
}

//! A report's time, 0 (unknown) when it is none or outside GitHub's years.
int64_t TimeOr(od::value value) {
  std::string_view s;
  if (value.get_string().get(s) != simdjson::SUCCESS) return 0;
  return ArchiveTime(s).value_or(0);
}

bool BoolOr(od::value value) {
  bool b = false;
  if (value.get_bool().get(b) != simdjson::SUCCESS) return false;
  return b;
}

//! A `pull_request` member marks a PR only when it points somewhere: old issue snapshots carry
//! one with all-null urls.
bool IsPullRequestLink(od::value value) {
  od::object obj;
  if (value.get_object().get(obj) != simdjson::SUCCESS) return false;
  for (auto field_result : obj) {
    od::field field;
    if (std::move(field_result).get(field) != simdjson::SUCCESS) return false;
    if (field.key() == "html_url" || field.key() == "url") {
      if (!StringOr(field.value()).empty()) return true;
    }
  }
  return false;
}

//! The snapshot field (title, body, labels, ...) the report object's member `key` holds, if any.
const TextFieldSpec* SnapshotFieldOf(const od::raw_json_string& key) {
  for (const TextFieldSpec& spec : kTextFields) {
    if ((spec.source == TextSource::kSnapshot || spec.source == TextSource::kLabels) && key == spec.member) return &spec;
  }
  return nullptr;
}

//! The event types some field's EventTextSource names, none of them twice.
constexpr auto kTextEventTypes = [] {
  std::array<std::string_view, kTextFields.size() * 2> types{};
  size_t n = 0;
  for (const TextFieldSpec& spec : kTextFields) {
    for (const EventTextSource& source : spec.events) {
      bool seen = source.event_type.empty();
      for (size_t i = 0; i < n; ++i) seen = seen || types[i] == source.event_type;
      if (!seen) types[n++] = source.event_type;
    }
  }
  return types;
}();

simdjson::error_code ReadLabels(od::value value, ReportFields& report) {
  od::array labels;
  if (value.get_array().get(labels) != simdjson::SUCCESS) return simdjson::SUCCESS;
  for (auto element_result : labels) {
    od::value element;
    if (auto error = std::move(element_result).get(element)) return error;
    od::json_type type;
    if (auto error = element.type().get(type)) return error;
    if (type == od::json_type::string) {
      report.labels.push_back(StringOr(element));
    } else if (type == od::json_type::object) {
      od::object label;
      if (auto error = element.get_object().get(label)) return error;
      for (auto field_result : label) {
        od::field field;
        if (auto error = std::move(field_result).get(field)) return error;
        if (field.key() == "name") report.labels.push_back(StringOr(field.value()));
      }
    }
  }
  return simdjson::SUCCESS;
}

//! Reads every attribute the report object's member `key` holds (json/report_attribute.hpp): the
//! member itself, or members of its object (read once for all of them: On-Demand reads a value
//! once). A key that holds none leaves the value unread.
simdjson::error_code ReadAttributes(const od::raw_json_string& key, od::value value, ReportFields& report) {
  bool nested = false;
  for (const AttributeSpec& spec : kReportAttributes) {
    if (key != spec.member) continue;
    if (spec.submember.empty()) {
      report.attributes[spec.attribute] = StringOr(value);
      return simdjson::SUCCESS;  // a string: no member can also be an object
    }
    nested = true;
  }
  od::object object;
  if (!nested || value.get_object().get(object) != simdjson::SUCCESS) return simdjson::SUCCESS;
  for (auto member_result : object) {
    od::field member;
    if (auto error = std::move(member_result).get(member)) return error;
    for (const AttributeSpec& spec : kReportAttributes) {
      if (key == spec.member && member.key() == spec.submember) report.attributes[spec.attribute] = StringOr(member.value());
    }
  }
  return simdjson::SUCCESS;
}

//! What a report event's payload held of its report number: read only when the event ends without
//! a usable one, to say why (Event::no_report_reason).
struct NumberTrace {
  bool payload = false;            //!< `payload` is an object
  std::string_view report_member;  //!< "issue" or "pull_request", when the payload has one
  bool report_object = false;      //!< ... and it is an object
  std::string_view bad_member;     //!< the last `number` member that held no usable number
  std::string_view problem;        //!< what it held instead ("is null", ...)
};

//! Why `value` is no report number (static text), or empty when it is one: a positive whole
//! number, or a string of one (ids and numbers are strings in some payloads).
std::string_view NumberProblem(od::value value, int64_t* number) {
  od::json_type type;
  if (value.type().get(type) != simdjson::SUCCESS) return "is not valid JSON";
  int64_t n = 0;
  if (type == od::json_type::number) {
    if (value.get_int64().get(n) != simdjson::SUCCESS) return "is not a whole number";
  } else if (type == od::json_type::string) {
    std::string_view s;
    if (value.get_string().get(s) != simdjson::SUCCESS) return "is a string that is not a number";
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    // Digits only, and in range: an overflowing number is no number at all.
    if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return "is a string that is not a number";
  } else {
    return type == od::json_type::null ? "is null" : "is not a number";
  }
  if (n <= 0) return n == 0 ? "is 0" : "is negative";
  *number = n;
  return {};
}

//! Reads the report number `member` holds into `number`; when it holds none, leaves `number` as it
//! is and notes why in `trace`.
void ReadReportNumber(od::value value, std::string_view member, int64_t& number, NumberTrace& trace) {
  int64_t read = 0;
  const std::string_view problem = NumberProblem(value, &read);
  if (problem.empty()) {
    number = read;
    return;
  }
  trace.bad_member = member;
  trace.problem = problem;
}

//! Reads an issue or pull request object (the two share these members).
simdjson::error_code ReadReportObject(od::value value, ReportFields& report, bool is_pull_request,
                                      NumberTrace& trace) {
  od::object obj;
  if (value.get_object().get(obj) != simdjson::SUCCESS) return simdjson::SUCCESS;
  trace.report_object = true;
  if (is_pull_request) report.kind = ReportKind::kPullRequest;
  for (auto field_result : obj) {
    od::field field;
    if (auto error = std::move(field_result).get(field)) return error;
    const od::raw_json_string key = field.key();
    if (const TextFieldSpec* spec = SnapshotFieldOf(key)) {
      if (spec->source == TextSource::kLabels) {
        if (auto error = ReadLabels(field.value(), report)) return error;
      } else {
        report.text[spec->field] = StringOr(field.value());
      }
    } else if (key == "number") {
      ReadReportNumber(field.value(), is_pull_request ? "payload.pull_request.number" : "payload.issue.number",
                       report.number, trace);
    } else if (key == "state") {
      report.state = StringOr(field.value());
    } else if (key == "comments") {
      report.comments = IntOr(field.value());
    } else if (key == "created_at") {
      report.created_at = TimeOr(field.value());
    } else if (key == "closed_at") {
      report.closed_at = TimeOr(field.value());
    } else if (key == "merged") {
      report.merged = BoolOr(field.value());
    } else if (key == "pull_request") {
      if (IsPullRequestLink(field.value())) report.kind = ReportKind::kPullRequest;
    } else if (auto error = ReadAttributes(key, field.value(), report)) {
      return error;
    }
  }
  return simdjson::SUCCESS;
}

//! The bodies of the payload objects that hold event texts (`comment`, ...), by EventTextSource
//! (field row * 2 + source): which field each is the text of depends on the event's type, and
//! the old layout gives the type after the payload.
using EventTexts = std::array<std::string_view, kTextFields.size() * 2>;

//! Reads the `body` of a payload object that some field's EventTextSource names, into each such
//! source's place in `texts`; false when `key` names none.
simdjson::error_code ReadEventText(const od::raw_json_string& key, od::value value, EventTexts& texts, bool* read) {
  *read = false;
  for (size_t row = 0; row < kTextFields.size() && !*read; ++row) {
    for (const EventTextSource& source : kTextFields[row].events) {
      if (!source.payload_object.empty() && key == source.payload_object) *read = true;
    }
  }
  if (!*read) return simdjson::SUCCESS;
  od::object object;
  if (value.get_object().get(object) != simdjson::SUCCESS) return simdjson::SUCCESS;
  std::string_view body;
  for (auto member_result : object) {
    od::field member;
    if (auto error = std::move(member_result).get(member)) return error;
    if (member.key() == "body") body = StringOr(member.value());
  }
  for (size_t row = 0; row < kTextFields.size(); ++row) {
    for (size_t i = 0; i < 2; ++i) {
      const std::string_view object_name = kTextFields[row].events[i].payload_object;
      if (!object_name.empty() && key == object_name) texts[row * 2 + i] = body;
    }
  }
  return simdjson::SUCCESS;
}

//! Some field of the event's own texts (a comment) holds text.
bool CarriesEventText(const ReportFields& report) {
  for (const TextFieldSpec& spec : kTextFields) {
    if (spec.source == TextSource::kEventText && !report.text[spec.field].empty()) return true;
  }
  return false;
}

//! Gives each event text read to its field, for the sources of the event's type.
void AssignEventTexts(const EventTexts& texts, std::string_view type, ReportFields& report) {
  for (size_t row = 0; row < kTextFields.size(); ++row) {
    for (size_t i = 0; i < 2; ++i) {
      const EventTextSource& source = kTextFields[row].events[i];
      if (!texts[row * 2 + i].empty() && source.event_type == type) report.text[kTextFields[row].field] = texts[row * 2 + i];
    }
  }
}

simdjson::error_code ReadPayload(od::value value, Event& event, EventTexts& texts, NumberTrace& trace) {
  od::object payload;
  if (value.get_object().get(payload) != simdjson::SUCCESS) return simdjson::SUCCESS;
  trace.payload = true;
  ReportFields& report = event.report;
  for (auto field_result : payload) {
    od::field field;
    if (auto error = std::move(field_result).get(field)) return error;
    const od::raw_json_string key = field.key();
    if (key == "action") {
      report.action = StringOr(field.value());
    } else if (key == "number") {
      if (report.number == 0) ReadReportNumber(field.value(), "payload.number", report.number, trace);
    } else if (key == "issue") {
      event.has_report = true;
      trace.report_member = "issue";
      if (auto error = ReadReportObject(field.value(), report, false, trace)) return error;
    } else if (key == "pull_request") {
      event.has_report = true;
      trace.report_member = "pull_request";
      if (auto error = ReadReportObject(field.value(), report, true, trace)) return error;
    } else if (key == "repo") {
      // The early Events API (2011-2012) also names the repository in the payload: "owner/name".
      // Kept for records whose `repo` gives no usable one (`{"name": "/"}`).
      std::string_view name;
      if (field.value().get_string().get(name) == simdjson::SUCCESS && RepoIdFromName(name) != 0) {
        event.payload_repo_name.assign(name);
      }
    } else {
      bool read = false;
      if (auto error = ReadEventText(key, field.value(), texts, &read)) return error;
    }
  }
  return simdjson::SUCCESS;
}

//! The 2011-2014 layout: `repository` {id, name (repo only), owner, ...}; the full name is
//! joined into the event's own storage, since string views die with the next string read.
simdjson::error_code ReadLegacyRepository(od::value value, Event& event) {
  od::object repo;
  if (value.get_object().get(repo) != simdjson::SUCCESS) return simdjson::SUCCESS;
  std::string name, owner, url;
  for (auto field_result : repo) {
    od::field field;
    if (auto error = std::move(field_result).get(field)) return error;
    if (field.key() == "id") {
      event.repo_id = IntOr(field.value());
    } else if (field.key() == "name") {
      name = StringOr(field.value());
    } else if (field.key() == "owner") {
      owner = StringOr(field.value());
    } else if (field.key() == "url") {
      url = StringOr(field.value());
    }
  }
  if (!name.empty() && !owner.empty()) {
    event.joined_repo_name = owner + "/" + name;
    event.repo_name = event.joined_repo_name;
  } else if (constexpr std::string_view kSite = "https://github.com/";
             url.starts_with(kSite) && RepoIdFromName(std::string_view(url).substr(kSite.size())) != 0) {
    // Some records have an empty owner; the page's address still names the repository.
    event.joined_repo_name = url.substr(kSite.size());
    event.repo_name = event.joined_repo_name;
  }
  return simdjson::SUCCESS;
}

simdjson::error_code ReadRepo(od::value value, Event& event) {
  od::object repo;
  if (value.get_object().get(repo) != simdjson::SUCCESS) return simdjson::SUCCESS;
  for (auto field_result : repo) {
    od::field field;
    if (auto error = std::move(field_result).get(field)) return error;
    if (field.key() == "id") {
      event.repo_id = IntOr(field.value());
    } else if (field.key() == "name") {
      event.repo_name = StringOr(field.value());
    }
  }
  return simdjson::SUCCESS;
}

//! Reads up to 18 digits (always within int64; found by fuzz_event_extractor: 19 could
//! overflow). A longer number fails here and the full parser decides.
bool ParseDigits(std::string_view text, size_t* pos, int64_t* out) {
  constexpr size_t kMaxDigits = 18;
  size_t i = *pos;
  int64_t value = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    if (i - *pos == kMaxDigits) return false;
    value = value * 10 + (text[i] - '0');
    ++i;
  }
  if (i == *pos) return false;
  *pos = i;
  *out = value;
  return true;
}

//! Why a report event gave no report number, in words: the member that held something else, or
//! the first thing missing on the way to one.
std::string NoReportReason(const Event& event, const NumberTrace& trace) {
  if (!trace.bad_member.empty()) return "`" + std::string(trace.bad_member) + "` " + std::string(trace.problem);
  if (!trace.payload) return "no `payload` object";
  if (trace.report_object) return "`payload." + std::string(trace.report_member) + ".number` is missing";
  // The old layouts: `issue` holds an id, the number is the payload's own.
  if (!trace.report_member.empty()) return "`payload.number` is missing";
  if (event.kind == EventKind::kIssues) return "no `issue` in the payload";
  if (event.kind == EventKind::kPullRequest) return "no `pull_request` in the payload";
  return "no `issue` or `pull_request` in the payload, and `url` names no issue or pull request page";
}

//! Whether `at` is where the second member of a record opening with `{"id":"<digits>",` starts.
bool AfterLeadingId(std::string_view line, size_t at) {
  if (!line.starts_with(kIdKey)) return false;
  size_t i = kIdKey.size();
  while (i < at && line[i] >= '0' && line[i] <= '9') ++i;
  return i + 2 == at && line[i] == '"' && line[i + 1] == ',';
}

}  // namespace

EventKind EventKindOf(std::string_view type) {
  if (type == "IssuesEvent") return EventKind::kIssues;
  if (type == "IssueCommentEvent") return EventKind::kIssueComment;
  if (type == "PullRequestEvent") return EventKind::kPullRequest;
  for (std::string_view text_event : kTextEventTypes) {
    if (text_event.empty()) break;
    if (type == text_event) return EventKind::kReportText;
  }
  return EventKind::kOther;
}

//! "https://github.com/OWNER/REPO/issues/N#issuecomment-C" (or /pull/N): the number and kind of
//! the report a 2012-2014 comment is on. Leaves `report` as it is for any other address.
static void ReportFromCommentUrl(std::string_view url, ReportFields& report) {
  constexpr std::string_view kSite = "https://github.com/";
  if (!url.starts_with(kSite)) return;
  url.remove_prefix(kSite.size());
  const size_t owner_end = url.find('/');
  const size_t repo_end = owner_end == std::string_view::npos ? owner_end : url.find('/', owner_end + 1);
  if (repo_end == std::string_view::npos) return;
  std::string_view rest = url.substr(repo_end + 1);
  bool pull = false;
  if (rest.starts_with("issues/")) {
    rest.remove_prefix(7);
  } else if (rest.starts_with("pull/")) {
    rest.remove_prefix(5);
    pull = true;
  } else {
    return;
  }
  size_t at = 0;
  int64_t number = 0;
  if (!ParseDigits(rest, &at, &number) || number <= 0 || (at < rest.size() && rest[at] != '#' && rest[at] != '?')) return;
  report.number = number;
  if (pull) report.kind = ReportKind::kPullRequest;
}

//! Empties `event` of everything a line put in it. The full parse starts from here too, whatever
//! the reads from the bytes filled before giving up: it decides from fields still at their
//! defaults (a `repository` is read only while `repo_id` is 0, a payload's `repo` only while
//! nothing names the repository), so the same line gives the same event by either way.
static void StartEvent(Event& event) {
  event.kind = EventKind::kOther;
  event.type = {};
  event.created_at = event.repo_id = 0;
  event.id = 0;
  event.repo_name = {};
  event.actor = {};
  t_repaired.clear();
  event.joined_repo_name.clear();
  event.payload_repo_name.clear();
  event.has_report = false;
  event.report.Clear();
  event.no_report_reason.clear();
}

ExtractOutcome EventExtractor::Extract(std::string_view line, Event& event) {
  StartEvent(event);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) {
    line.remove_suffix(1);
  }
  consumed_ = line.size();
  if (line.empty() || line.front() != '{') return Bad("not a JSON object");
  // Prefilter: decide from the first bytes whether the payload matters.
  // The record's own `type`, not one of a nested object (`actor` before it on a made-up line):
  // right after a leading `"id":"<digits>"` it is, as on every 2015+ line; elsewhere AtTopLevel says.
  const size_t type_at = line.substr(0, kTypeWindow).find(kTypeKey);
  if (type_at != std::string_view::npos && (AfterLeadingId(line, type_at) || AtTopLevel(line, type_at))) {
    const size_t start = type_at + kTypeKey.size();
    const size_t end = line.find('"', start);
    // Where a second record starts on the same line, the envelope is read from the first only.
    const size_t next_record = FindRecordJoin(line);
    const std::string_view first =
        next_record == std::string_view::npos ? line : line.substr(0, next_record + 1);
    // A type with an escape in it (never the archive's own) is read by the parser, which decodes it.
    if (end != std::string_view::npos && line.substr(start, end - start).find('\\') == std::string_view::npos) {
      const std::string_view type = line.substr(start, end - start);
      const EventKind kind = EventKindOf(type);
      if (kind == EventKind::kOther ? ReadEnvelopeFast(first, event) : ReadUnkeptReportFast(first, kind, event)) {
        event.type = type;
        consumed_ = first.size();
        return ExtractOutcome::kEvent;
      }
      StartEvent(event);  // the read from the bytes may have filled part of it before giving up
    }
  }
  return ParseFull(line, event);
}

bool EventExtractor::ReadUnkeptReportFast(std::string_view line, EventKind kind, Event& event) {
  // A review comment or review names its pull request after the comment's nested objects.
  if (!kept_reports_ || kind == EventKind::kReportText) return false;
  if (!ReadEnvelopeFast(line, event) || kept_reports_(event.repo_name, event.repo_id)) return false;
  // The payload is the member right after `repo` {id, name, url}: the envelope's `repo`.
  const size_t name_end = static_cast<size_t>(event.repo_name.data() + event.repo_name.size() - line.data());
  constexpr std::string_view kUrlKey = "\",\"url\":\"";
  constexpr std::string_view kPayloadKey = "\"},\"payload\":";
  if (line.compare(name_end, kUrlKey.size(), kUrlKey) != 0) return false;
  const size_t url_end = line.find('"', name_end + kUrlKey.size());
  if (url_end == std::string_view::npos || line.compare(url_end, kPayloadKey.size(), kPayloadKey) != 0 ||
      line.substr(name_end, url_end - name_end).find('\\') != std::string_view::npos) {
    return false;
  }
  const std::optional<ReportProbe> probe = ProbeReport(line.substr(url_end + kPayloadKey.size()));
  if (!probe) return false;
  // What ParseFull reads of it that counts: a report with a number (no `no_report_reason`) and
  // text (the month's text share).
  event.kind = kind;
  event.has_report = true;
  event.report.number = probe->number;
  event.report.text[Field::kTitle] = probe->title;
  return true;
}

bool EventExtractor::ReadEnvelopeFast(std::string_view line, Event& event) {
  if (line.back() != '}') return false;
  // `id` opens 2015+ lines: {"id":"2489651045",...
  if (line.starts_with(kIdKey)) {
    size_t at = kIdKey.size();
    int64_t id = 0;
    if (ParseDigits(line, &at, &id) && at < line.size() && line[at] == '"') event.id = static_cast<uint64_t>(id);
  }
  // The record's own `repo`, not one nested in another member (a payload's) nor text in a string:
  // where the first match is not at depth 1 (a made-up line; never the archive's layout) or there
  // is none, the full parse decides.
  size_t pos = FindLiteral(line, kRepoKey);
  if (pos == std::string_view::npos || !AtTopLevel(line, pos)) return false;
  pos += kRepoKey.size();
  // A record without a positive repository id is numbered by its name, or named by its payload's
  // `repo` (ParseFull), which the bytes do not say for certain.
  if (!ParseDigits(line, &pos, &event.repo_id) || event.repo_id == 0) return false;
  if (line.compare(pos, kNameKey.size(), kNameKey) != 0) return false;
  pos += kNameKey.size();
  const size_t name_end = line.find('"', pos);
  if (name_end == std::string_view::npos) return false;
  event.repo_name = line.substr(pos, name_end - pos);
  if (event.repo_name.find('\\') != std::string_view::npos) return false;
  // The top-level created_at is the last one on the line: only `org`, which has none, follows.
  const size_t window_start = line.size() > kCreatedWindow ? line.size() - kCreatedWindow : 0;
  const size_t created = line.rfind(kCreatedKey);
  if (created == std::string_view::npos || created < window_start || created < name_end) return false;
  const size_t value_at = created + kCreatedKey.size();
  if (value_at + kIsoTimeLength + 2 > line.size()) return false;
  auto time = ArchiveTime(line.substr(value_at, kIsoTimeLength));
  if (!time) return false;  // ParseFull says why
  // The line must close right after the time, or after an `org` object, as whole lines do. The
  // archive's `org` holds no object: the first '}' after its '{' must be the one before the last,
  // so that the object closing last is the one holding this `created_at` (not a payload holding
  // `"created_at":...,"org":{"x":{}}}` and then more).
  const std::string_view tail = line.substr(value_at + kIsoTimeLength);
  constexpr std::string_view kOrgKey = "\",\"org\":{";
  if (tail != "\"}" && !(tail.size() >= kOrgKey.size() + 2 && tail.starts_with(kOrgKey) && tail.ends_with("}}") &&
                         tail.substr(kOrgKey.size(), tail.size() - kOrgKey.size() - 2).find('}') ==
                             std::string_view::npos)) {
    return false;
  }
  event.created_at = *time;
  return true;
}

namespace {

//! Why simdjson refused a record, in the words of a bad-record message (static text: a file of
//! bad records keeps only the first few messages, each pointing here).
const char* InvalidJson(simdjson::error_code error) {
  switch (error) {
    case simdjson::UTF8_ERROR: return "invalid JSON: text that is not UTF-8";
    case simdjson::UNESCAPED_CHARS: return "invalid JSON: a control character (such as NUL) inside a string";
    case simdjson::STRING_ERROR: return "invalid JSON: a malformed string or escape";
    case simdjson::NUMBER_ERROR: return "invalid JSON: a malformed number";
    case simdjson::T_ATOM_ERROR:
    case simdjson::F_ATOM_ERROR:
    case simdjson::N_ATOM_ERROR: return "invalid JSON: a word that is not true, false or null";
    case simdjson::DEPTH_ERROR: return "invalid JSON: nested too deeply";
    case simdjson::TAPE_ERROR: return "invalid JSON: a missing or extra comma, colon or bracket";
    case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
      return "invalid JSON: brackets that do not pair up (a record cut short, or more after it)";
    case simdjson::TRAILING_CONTENT: return "trailing content after the JSON object";
    case simdjson::INCORRECT_TYPE: return "invalid JSON: a value of another type than GH Archive's";
    default: return "invalid JSON";
  }
}

}  // namespace

//! `event` is as StartEvent leaves it (Extract empties it again after a read from the bytes).
ExtractOutcome EventExtractor::ParseFull(std::string_view line, Event& event) {
  simdjson::padded_string_view view(line.data(), line.size(), line.size() + simdjson::SIMDJSON_PADDING);
  od::document doc;
  if (const auto e = parser_.iterate(view).get(doc); e != simdjson::SUCCESS) return Bad(InvalidJson(e));
  od::object root;
  if (const auto e = doc.get_object().get(root); e != simdjson::SUCCESS) return Bad(InvalidJson(e));
  bool have_type = false;
  bool have_time = false;
  std::string_view page_url;
  EventTexts event_texts{};
  NumberTrace number_trace;
  for (auto field_result : root) {
    od::field field;
    if (const auto e = std::move(field_result).get(field); e != simdjson::SUCCESS) return Bad(InvalidJson(e));
    const od::raw_json_string key = field.key();
    if (key == "type") {
      if (field.value().get_string().get(event.type) != simdjson::SUCCESS) return Bad("`type` is not a string");
      event.kind = EventKindOf(event.type);
      have_type = true;
    } else if (key == "created_at") {
      std::string_view text;
      if (field.value().get_string().get(text) != simdjson::SUCCESS) return Bad("`created_at` is not a string");
      const std::optional<int64_t> time = ParseIsoTime(text);
      if (!time) return Bad("`created_at` is not a time (ISO 8601 or YYYY/MM/DD HH:MM:SS +hhmm)");
      if (!InGitHubYears(*time)) return Bad("`created_at` is outside GitHub's years (2007-10-01 to 2099)");
      event.created_at = *time;
      have_time = true;
    } else if (key == "repo") {
      if (const auto e = ReadRepo(field.value(), event); e != simdjson::SUCCESS) return Bad(InvalidJson(e));
    } else if (key == "repository") {
      // The old Timeline API layout; a 2015+ `repo` wins when both are present.
      if (event.repo_id == 0) {
        if (const auto e = ReadLegacyRepository(field.value(), event); e != simdjson::SUCCESS) return Bad(InvalidJson(e));
      }
    } else if (key == "id") {
      event.id = static_cast<uint64_t>(IntOr(field.value()));
    } else if (key == "url") {
      // 2012-2014 Timeline records: the page of the event; for an issue comment the only place
      // that names the issue (its payload holds ids only).
      if (field.value().get_string().get(page_url) != simdjson::SUCCESS) page_url = {};
    } else if (key == "actor") {
      // 2015+: {"id", "login", ...}; 2011-2014: the login itself.
      od::value actor = field.value();
      od::object actor_object;
      if (actor.get_object().get(actor_object) == simdjson::SUCCESS) {
        for (auto actor_field_result : actor_object) {
          od::field actor_field;
          if (const auto e = std::move(actor_field_result).get(actor_field); e != simdjson::SUCCESS) {
            return Bad(InvalidJson(e));
          }
          if (actor_field.key() == "login") event.actor = StringOr(actor_field.value());
        }
      } else {
        event.actor = StringOr(actor);
      }
    } else if (key == "payload") {
      // Payloads of the types ghsift does not read are skipped unparsed, unless the record's
      // `repo` names no repository (2011): the payload's `repo` may.
      const bool repo_unknown = event.repo_id == 0 && RepoIdFromName(event.repo_name) == 0;
      if (!have_type || event.kind != EventKind::kOther || repo_unknown) {
        if (const auto e = ReadPayload(field.value(), event, event_texts, number_trace); e != simdjson::SUCCESS) {
          return Bad(InvalidJson(e));
        }
      }
    }
  }
  // simdjson 3.0 has no trailing-content check: a location still in bounds means more bytes.
  // Another object right after this one is a second record on the same line.
  const char* rest = nullptr;
  if (doc.current_location().get(rest) == simdjson::SUCCESS) {
    if (*rest != '{') return Bad("trailing content after the JSON object");
    consumed_ = static_cast<size_t>(rest - line.data());
  }
  if (!have_type) return Bad("no `type`");
  if (!have_time) return Bad("no `created_at`");
  AssignEventTexts(event_texts, event.type, event.report);
  const bool text_event = event.kind == EventKind::kReportText && CarriesEventText(event.report);
  if (event.kind == EventKind::kOther || (event.kind == EventKind::kReportText && !text_event)) {
    event.has_report = false;
  }
  // A comment of the old layouts names its report only in the page's address.
  if ((event.kind == EventKind::kIssueComment || text_event) && !event.has_report && event.report.number == 0) {
    ReportFromCommentUrl(page_url, event.report);
    event.has_report = event.report.number > 0;
  }
  // A report event without a usable number yields no report: said, never dropped unseen.
  const bool report_event = event.kind == EventKind::kIssues || event.kind == EventKind::kIssueComment ||
                            event.kind == EventKind::kPullRequest || text_event;
  if (report_event && (!event.has_report || event.report.number <= 0)) {
    event.has_report = false;
    event.no_report_reason = NoReportReason(event, number_trace);
  }
  if (event.repo_id == 0 && RepoIdFromName(event.repo_name) == 0 && !event.payload_repo_name.empty()) {
    event.repo_name = event.payload_repo_name;
  }
  if (event.repo_id == 0) event.repo_id = RepoIdFromName(event.repo_name);
  return ExtractOutcome::kEvent;
}

int64_t RepoIdFromName(std::string_view full_name) {
  const size_t slash = full_name.find('/');
  if (slash == 0 || slash == std::string_view::npos || slash + 1 == full_name.size() ||
      full_name.find('/', slash + 1) != std::string_view::npos || full_name.size() > 255) {
    return 0;
  }
  char lower[255];
  for (size_t i = 0; i < full_name.size(); ++i) {
    const char c = full_name[i];
    lower[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  // 62 bits of the hash: -2 down to -(2^62 + 1), far from any id GitHub will give.
  return -2 - static_cast<int64_t>(Fnv1a64(std::string_view(lower, full_name.size())) >> 2);
}

}  // namespace ghsift
