#include "gen/hour_writer.hpp"

#include <algorithm>
#include <iterator>
#include <unordered_set>
#include <vector>

#include "gen/civil_time.hpp"
#include "gen/events_2011_writer.hpp"
#include "gen/hour_cast.hpp"
#include "gen/legacy_event_writer.hpp"
#include "gen/report_text.hpp"
#include "gen/rng.hpp"

namespace ghsift::gen {

namespace {

constexpr size_t kFlushBytes = 1 << 20;
// Event ids grow across the corpus; each slot leaves room for a small random gap.
constexpr uint64_t kFirstEventId = 30000000000ULL;

// Background event seconds, sorted, by counting: cheaper than sorting tens of thousands.
std::vector<int> BackgroundSeconds(Rng& rng, int count) {
  std::vector<int> per_second(3600, 0);
  for (int i = 0; i < count; ++i) ++per_second[rng.Below(3600)];
  std::vector<int> seconds;
  seconds.reserve(static_cast<size_t>(count));
  for (int s = 0; s < 3600; ++s) seconds.insert(seconds.end(), static_cast<size_t>(per_second[s]), s);
  return seconds;
}

// A bad line never carries a probe marker: the truth counts markers of valid lines only.
void DefuseMarkers(std::string& line) {
  for (size_t at = line.find("ghsift"); at != std::string::npos; at = line.find("ghsift", at + 6)) {
    line[at + 3] = 'o';  // "ghsoft"
  }
}

// `n` distinct values of [0, m), sorted (Floyd's sampling: n draws whatever m is).
std::vector<int> DistinctSorted(Rng& rng, int n, int m) {
  std::vector<int> picked;
  if (n <= 0 || m <= 0) return picked;
  n = std::min(n, m);
  std::unordered_set<int> seen;
  for (int j = m - n; j < m; ++j) {
    const int t = static_cast<int>(rng.Below(static_cast<uint64_t>(j) + 1));
    if (seen.insert(t).second) {
      picked.push_back(t);
    } else {
      seen.insert(j);  // j is above every earlier pick
      picked.push_back(j);
    }
  }
  std::sort(picked.begin(), picked.end());
  return picked;
}

}  // namespace

HourResult WriteHour(const HourJob& job) {
  HourResult result;
  const GenOptions& options = *job.options;
  const Plan& plan = *job.plan;
  const bool single = job.single_event;
  const int eph = single ? 1 : options.events_per_hour;
  const int64_t hour_start = job.world->corpus_start + int64_t{3600} * job.hour;
  Rng rng(MixSeed(options.seed, 0x686f7572, static_cast<uint64_t>(job.hour)));  // "hour"
  // Schema and quirk decisions draw from their own streams, so the default corpus (modern,
  // no quirks) consumes `rng` exactly as it always did.
  Rng schema_rng(MixSeed(options.seed, 0x736368656d61, static_cast<uint64_t>(job.hour)));  // "schema"
  Rng quirk_rng(MixSeed(options.seed, 0x717569726b, static_cast<uint64_t>(job.hour)));      // "quirk"

  // A single-event hour writes none of its planned lifecycle actions: its one event is the
  // background PushEvent that shows the renamed repo (or any background event).
  const size_t lc_begin = plan.hour_begin[static_cast<size_t>(job.hour)];
  const size_t lc_end = single ? lc_begin : plan.hour_begin[static_cast<size_t>(job.hour) + 1];
  const int background = eph - static_cast<int>(lc_end - lc_begin);
  const std::vector<int> seconds = BackgroundSeconds(rng, background);

  // Bad lines go after the p-th valid line (p >= 1 so a truncated copy has a source);
  // half are truncated copies, half garbage, in shuffled order.
  const int bad = single ? 0 : options.bad_lines_per_file;
  std::vector<int> bad_after(static_cast<size_t>(bad));
  for (auto& p : bad_after) p = eph > 0 ? 1 + static_cast<int>(rng.Below(static_cast<uint64_t>(eph))) : 0;
  std::sort(bad_after.begin(), bad_after.end());
  std::vector<bool> truncated(static_cast<size_t>(bad), false);
  for (int i = 0; i < (bad + 1) / 2; ++i) truncated[static_cast<size_t>(i)] = eph > 0;
  for (size_t i = truncated.size(); i > 1; --i) {
    const size_t j = rng.Below(i);
    const bool tmp = truncated[i - 1];
    truncated[i - 1] = truncated[j];
    truncated[j] = tmp;
  }

  // Which events are written in the legacy layout.
  // Timeline-era files: every event at the US-Pacific offset of the hour (the file is named by
  // that local hour); the original 2012 files also glue all records on one line, no newline.
  const bool pacific = options.schema == "timeline" || options.schema == "timeline-2012";
  const bool glued = options.schema == "timeline-2012";
  const bool all_legacy = options.schema == "legacy" || pacific;
  const bool mixed = options.schema == "mixed";
  std::vector<bool> legacy_flags;
  if (mixed) {
    legacy_flags.resize(static_cast<size_t>(eph));
    for (int k = 0; k < eph; ++k) legacy_flags[static_cast<size_t>(k)] = schema_rng.Chance(0.5);
  }
  auto is_legacy = [&](int k) { return all_legacy || (mixed && legacy_flags[static_cast<size_t>(k)]); };

  // Joined records: event k is followed by event k + 1 on the same line. Never two joins in
  // a row (a line holds at most two records) and never after the last event.
  const int joins = single ? 0 : std::min(options.quirk_joined, eph / 2);
  std::vector<int> joined_after = DistinctSorted(quirk_rng, joins, eph - joins);
  for (size_t i = 0; i < joined_after.size(); ++i) joined_after[i] += static_cast<int>(i);

  // NUL lines go after the p-th valid line, p >= 1, like bad lines.
  const int nuls = single ? 0 : options.quirk_nul;
  std::vector<int> nul_after(static_cast<size_t>(nuls));
  for (auto& p : nul_after) p = eph > 0 ? 1 + static_cast<int>(quirk_rng.Below(static_cast<uint64_t>(eph))) : 0;
  std::sort(nul_after.begin(), nul_after.end());

  // Duplicates: distinct modern events, each copied after 1 to 32 further valid lines.
  struct Duplicate {
    int source = 0;
    int after = 0;
    std::string text;
  };
  std::vector<Duplicate> dups;
  if (!single && options.quirk_duplicates > 0 && !all_legacy) {
    std::vector<int> modern;
    if (mixed) {
      for (int k = 0; k < eph; ++k) {
        if (!legacy_flags[static_cast<size_t>(k)]) modern.push_back(k);
      }
    }
    const int pool = mixed ? static_cast<int>(modern.size()) : eph;
    for (const int i : DistinctSorted(quirk_rng, options.quirk_duplicates, pool)) {
      Duplicate d;
      d.source = mixed ? modern[static_cast<size_t>(i)] : i;
      d.after = d.source + 1 + static_cast<int>(quirk_rng.Below(static_cast<uint64_t>(std::min(eph - d.source, 32))));
      dups.push_back(std::move(d));
    }
  }
  std::vector<size_t> dup_order(dups.size());
  for (size_t i = 0; i < dup_order.size(); ++i) dup_order[i] = i;
  std::stable_sort(dup_order.begin(), dup_order.end(),
                   [&](size_t a, size_t b) { return dups[a].after < dups[b].after; });

  CompressedWriter writer;
  result.status = writer.Open(job.path, job.compression, options.level);
  if (!result.status.ok()) return result;

  EventWriter events(*job.world, plan, options.seed, job.hour);
  HourCast cast(*job.world, job.profile != nullptr ? *job.profile : *FindProfile("2016"), options.seed);
  if (job.profile != nullptr) events.UseProfile(job.profile, &cast);
  events.UseSlimPayloads(options.schema == "slim-2025");
  const bool events_2011 = options.schema == "events-2011";
  Events2011Writer early_events(*job.world, plan, job.hour);
  LegacyEventWriter legacy_events(*job.world, plan, options.seed, job.hour);
  legacy_events.UseSlashDates(glued);
  events.NoteReviewsIn(&result.reviewed_prs);
  legacy_events.NoteReviewsIn(&result.reviewed_prs);
  std::string buffer;
  buffer.reserve(kFlushBytes + (1 << 16));
  std::string bad_line;
  size_t next_bad = 0, next_nul = 0, next_join = 0, next_dup_source = 0, next_dup = 0;
  size_t lc = lc_begin;
  size_t bg = 0;
  size_t last_line_start = 0;  //!< start of the last record written (the second one of a joined line)
  size_t last_record_len = 0;  //!< its length, without the newline
  // The renamed repo shows up in every hour (a PushEvent), so its latest name in the corpus
  // is always the name of the last hour, which is what truth.json reports.
  const Repo* renamed = nullptr;
  for (const Repo& repo : job.world->repos) {
    if (repo.rename_hour >= 0) renamed = &repo;
  }
  bool renamed_shown = false;

  // A prefix of the last record, cut within its middle half; never a whole record.
  auto truncated_copy = [&](Rng& r, std::string& line) {
    const size_t len = last_record_len;
    const size_t cut = len / 4 + r.Below(len / 2 + 1);
    line.append(buffer, last_line_start, cut);
    DefuseMarkers(line);
  };

  // Lines planted "after `after` valid events"; called once a line is complete, so anything
  // due inside a joined line waits until the line ends.
  auto plant = [&](int after) {
    while (next_bad < bad_after.size() && bad_after[next_bad] <= after) {
      if (truncated[next_bad]) {
        bad_line.clear();
        truncated_copy(rng, bad_line);
      } else {
        bad_line = MakeGarbageLine(rng);
        if (bad_line[0] == '\0') ++result.nul_lines;
      }
      buffer += bad_line;
      buffer.push_back('\n');
      ++result.bad_lines;
      ++next_bad;
    }
    while (next_nul < nul_after.size() && nul_after[next_nul] <= after) {
      bad_line.assign(static_cast<size_t>(quirk_rng.Range(16, 4096)), '\0');
      if (after > 0 && quirk_rng.Chance(0.5)) truncated_copy(quirk_rng, bad_line);
      buffer += bad_line;
      buffer.push_back('\n');
      ++result.bad_lines;
      ++result.nul_lines;
      ++next_nul;
    }
    while (next_dup < dup_order.size() && dups[dup_order[next_dup]].after <= after) {
      Duplicate& d = dups[dup_order[next_dup]];
      buffer += d.text;
      buffer.push_back('\n');
      std::string().swap(d.text);
      ++result.duplicate_events;
      ++next_dup;
    }
  };

  plant(0);
  for (int k = 0; k < eph; ++k) {
    // Slots are numbered by the requested events per hour, so ids keep growing across
    // single-event hours too.
    const uint64_t slot = static_cast<uint64_t>(job.hour) * static_cast<uint64_t>(options.events_per_hour) + k;
    const uint64_t id = kFirstEventId + slot * 4 + rng.Below(4);
    last_line_start = buffer.size();
    const bool legacy = is_legacy(k);
    const int offset = pacific  ? PacificOffsetMinutes(hour_start)
                       : legacy ? kLegacyOffsetsMinutes[schema_rng.Below(std::size(kLegacyOffsetsMinutes))]
                                : 0;
    const bool take_lifecycle =
        lc < lc_end && (bg >= seconds.size() || plan.actions[lc].time <= hour_start + seconds[bg]);
    EventType type = EventType::kPush;
    if (take_lifecycle) {
      const Action& action = plan.actions[lc++];
      type = legacy        ? legacy_events.WriteLifecycle(action, offset, buffer)
             : events_2011 ? early_events.WriteLifecycle(action, id, buffer)
                           : events.WriteLifecycle(action, id, buffer);
    } else {
      type = job.profile != nullptr ? DrawBackgroundType(rng, job.profile->background_weights.data())
                                    : DrawBackgroundType(rng);
      const Repo* forced = renamed_shown ? nullptr : renamed;
      if (forced != nullptr) type = EventType::kPush;
      renamed_shown = true;
      const int64_t time = hour_start + seconds[bg++];
      if (legacy) {
        type = legacy_events.WriteBackground(type, time, offset, rng, buffer, forced);
      } else if (events_2011) {
        type = early_events.WriteBackground(type, time, id, rng, buffer, forced);
      } else {
        events.WriteBackground(type, time, id, rng, buffer, forced);
      }
    }
    ++result.by_type[static_cast<size_t>(type)];
    ++(legacy ? result.legacy_events : result.modern_events);
    last_record_len = buffer.size() - last_line_start;
    if (next_dup_source < dups.size() && dups[next_dup_source].source == k) {
      dups[next_dup_source++].text.assign(buffer, last_line_start, last_record_len);
    }
    ++result.events;
    if (glued) {
      // the next record follows on the same line; the file ends without a newline
    } else if (next_join < joined_after.size() && joined_after[next_join] == k) {
      ++next_join;
      ++result.joined_records;  // the next record follows on this line
    } else {
      buffer.push_back('\n');
      plant(k + 1);
    }
    if (buffer.size() >= kFlushBytes) {
      result.bytes_uncompressed += buffer.size();
      result.status = writer.Write(buffer);
      if (!result.status.ok()) return result;
      buffer.clear();
      last_line_start = 0;
    }
  }
  result.lifecycle_written = lc - lc_begin;
  result.bytes_uncompressed += buffer.size();
  result.status = writer.Write(buffer);
  if (result.status.ok()) result.status = writer.Close();
  result.bytes_written = writer.bytes_written();
  return result;
}

}  // namespace ghsift::gen
