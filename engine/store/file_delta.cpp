#include "store/file_delta.hpp"

#include <map>

#include "aggregate/event_type_table.hpp"
#include "common/byte_codec.hpp"
#include "store/key_codec.hpp"

namespace ghsift {

namespace {
constexpr uint8_t kFileDeltaFormat = 1;
}  // namespace

FileDelta FileDelta::Of(const FileAggregate& aggregate, uint64_t files, uint64_t compressed_bytes) {
  FileDelta delta;
  std::map<std::pair<int32_t, std::string>, int64_t> type_totals;
  auto add_counter = [&](const CounterKey& key, std::string_view type, uint64_t count) {
    delta.counters.emplace_back(keys::RepoCounter(key.repo_id, key.day, type), static_cast<int64_t>(count));
    type_totals[{key.day, std::string(type)}] += static_cast<int64_t>(count);
  };
  aggregate.counters().ForEach(
      [&](const CounterKey& key, uint64_t count) { add_counter(key, EventTypeName(key.type_id), count); });
  for (const auto& [type, map] : aggregate.unknown_types()) {
    for (const auto& [key, count] : map) add_counter(key, type, count);
  }
  for (const auto& [day_type, count] : type_totals) {
    delta.counters.emplace_back(keys::TypeCounter(day_type.first, day_type.second), count);
  }
  for (const auto& [month, share] : aggregate.text_shares()) {
    const std::pair<const char*, uint64_t> measures[] = {{"issue_events", share.issue_events},
                                                         {"issue_events_text", share.issue_events_text},
                                                         {"pr_events", share.pr_events},
                                                         {"pr_events_text", share.pr_events_text}};
    for (const auto& [measure, n] : measures) {
      if (n != 0) delta.counters.emplace_back(keys::TextShare(month, measure), static_cast<int64_t>(n));
    }
  }
  const std::pair<const char*, uint64_t> stats[] = {{"files", files},
                                                    {"events", aggregate.events()},
                                                    {"bad_lines", aggregate.bad_lines()},
                                                    {"report_events_without_number",
                                                     aggregate.report_events_without_number()},
                                                    {"bytes", aggregate.bytes()},
                                                    {"compressed_bytes", compressed_bytes},
                                                    {"reports", aggregate.reports()},
                                                    {"joined_records", aggregate.joined_records()},
                                                    {"duplicate_events", aggregate.duplicate_events()}};
  for (const auto& [stat, value] : stats) delta.counters.emplace_back(keys::Stat(stat), static_cast<int64_t>(value));
  for (const auto& [key, record] : aggregate.issues()) {
    delta.reports.push_back({key.repo_id, key.number, record.events, record.reopened});
  }
  return delta;
}

std::string FileDelta::Encode() const {
  std::string out;
  out.push_back(static_cast<char>(kFileDeltaFormat));
  PutVarint(out, counters.size());
  for (const auto& [key, value] : counters) {
    PutLengthPrefixed(out, key);
    PutSignedVarint(out, value);
  }
  PutVarint(out, reports.size());
  for (const ReportDelta& r : reports) {
    PutSignedVarint(out, r.repo_id);
    PutSignedVarint(out, r.number);
    PutVarint(out, r.events);
    PutVarint(out, r.reopened);
  }
  return out;
}

Result<FileDelta> FileDelta::Decode(std::string_view bytes) {
  if (bytes.empty() || static_cast<uint8_t>(bytes[0]) != kFileDeltaFormat) {
    return Status::Corrupt("a file's recorded sums are in an unknown format");
  }
  ByteReader in(bytes.substr(1));
  FileDelta delta;
  const uint64_t counters = in.Varint();
  for (uint64_t i = 0; i < counters && in.ok(); ++i) {
    std::string key(in.LengthPrefixed());
    const int64_t value = in.SignedVarint();
    delta.counters.emplace_back(std::move(key), value);
  }
  const uint64_t reports = in.Varint();
  for (uint64_t i = 0; i < reports && in.ok(); ++i) {
    ReportDelta r;
    r.repo_id = in.SignedVarint();
    r.number = in.SignedVarint();
    r.events = in.Varint();
    r.reopened = in.Varint();
    delta.reports.push_back(r);
  }
  if (!in.ok() || !in.done()) return Status::Corrupt("a file's recorded sums are damaged");
  return delta;
}

}  // namespace ghsift
