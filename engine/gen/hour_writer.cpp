#include "gen/hour_writer.hpp"

#include <algorithm>
#include <vector>

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

}  // namespace

HourResult WriteHour(const HourJob& job) {
  HourResult result;
  const GenOptions& options = *job.options;
  const Plan& plan = *job.plan;
  const int eph = options.events_per_hour;
  const int64_t hour_start = job.world->corpus_start + int64_t{3600} * job.hour;
  Rng rng(MixSeed(options.seed, 0x686f7572, static_cast<uint64_t>(job.hour)));  // "hour"

  const size_t lc_begin = plan.hour_begin[static_cast<size_t>(job.hour)];
  const size_t lc_end = plan.hour_begin[static_cast<size_t>(job.hour) + 1];
  const int background = eph - static_cast<int>(lc_end - lc_begin);
  const std::vector<int> seconds = BackgroundSeconds(rng, background);

  // Bad lines go after the p-th valid line (p >= 1 so a truncated copy has a source);
  // half are truncated copies, half garbage, in shuffled order.
  const int bad = options.bad_lines_per_file;
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

  CompressedWriter writer;
  result.status = writer.Open(job.path, job.compression, options.level);
  if (!result.status.ok()) return result;

  EventWriter events(*job.world, plan, options.seed, job.hour);
  std::string buffer;
  buffer.reserve(kFlushBytes + (1 << 16));
  std::string bad_line;
  size_t next_bad = 0;
  size_t lc = lc_begin;
  size_t bg = 0;
  size_t last_line_start = 0;
  // The renamed repo shows up in every hour (a PushEvent), so its latest name in the corpus
  // is always the name of the last hour, which is what truth.json reports.
  const Repo* renamed = nullptr;
  for (const Repo& repo : job.world->repos) {
    if (repo.rename_hour >= 0) renamed = &repo;
  }
  bool renamed_shown = false;

  auto plant_bad = [&](int after) {
    while (next_bad < bad_after.size() && bad_after[next_bad] == after) {
      if (truncated[next_bad]) {
        const size_t len = buffer.size() - 1 - last_line_start;  // last valid line, no newline
        const size_t cut = len / 4 + rng.Below(len / 2 + 1);
        bad_line.assign(buffer, last_line_start, cut);
        DefuseMarkers(bad_line);
      } else {
        bad_line = MakeGarbageLine(rng);
      }
      buffer += bad_line;
      buffer.push_back('\n');
      ++result.bad_lines;
      ++next_bad;
    }
  };

  plant_bad(0);
  for (int k = 0; k < eph; ++k) {
    const uint64_t id = kFirstEventId + (static_cast<uint64_t>(job.hour) * static_cast<uint64_t>(eph) + k) * 4 +
                        rng.Below(4);
    last_line_start = buffer.size();
    const bool take_lifecycle =
        lc < lc_end && (bg >= seconds.size() || plan.actions[lc].time <= hour_start + seconds[bg]);
    if (take_lifecycle) {
      const EventType type = events.WriteLifecycle(plan.actions[lc++], id, buffer);
      ++result.by_type[static_cast<size_t>(type)];
    } else {
      EventType type = DrawBackgroundType(rng);
      const Repo* forced = renamed_shown ? nullptr : renamed;
      if (forced != nullptr) type = EventType::kPush;
      renamed_shown = true;
      events.WriteBackground(type, hour_start + seconds[bg++], id, rng, buffer, forced);
      ++result.by_type[static_cast<size_t>(type)];
    }
    buffer.push_back('\n');
    ++result.events;
    plant_bad(k + 1);
    if (buffer.size() >= kFlushBytes) {
      result.bytes_uncompressed += buffer.size();
      result.status = writer.Write(buffer);
      if (!result.status.ok()) return result;
      buffer.clear();
      last_line_start = 0;
    }
  }
  result.bytes_uncompressed += buffer.size();
  result.status = writer.Write(buffer);
  if (result.status.ok()) result.status = writer.Close();
  result.bytes_written = writer.bytes_written();
  return result;
}

}  // namespace ghsift::gen
