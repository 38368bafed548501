// ghsift gen --out DIR --hours N --events-per-hour K --seed S [--compress gz|zst|none]
//            [--profile P] [--legacy | --schema S] [--quirk-joined N] [--quirk-nul N]
//            [--quirk-duplicates N] [--quirk-missing-hours H,H] [--quirk-single-event-hours H,H]
// The profiles and schemas are gen's tables (gen/profile.hpp, gen/schemas.hpp).
#include <chrono>
#include <cstdio>

#include "commands/commands.hpp"
#include "commands/common_options.hpp"
#include "common/closest_name.hpp"
#include "gen/generator.hpp"
#include "gen/profile.hpp"
#include "gen/schemas.hpp"
#include "output.hpp"

namespace ghsift::cli {
namespace {

int RunGen(const gen::GenOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  gen::GenSummary summary;
  const Status s = gen::Generate(options, &summary);
  if (!s.ok()) return Fail(s.message());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "ghsift: wrote %s, %s, %s uncompressed (%s on disk) to %s in %.1f s; truth in %s/truth.json\n",
               Counted(static_cast<uint64_t>(summary.files), "file").c_str(), Counted(summary.events, "event").c_str(),
               HumanBytes(static_cast<double>(summary.bytes_uncompressed)).c_str(),
               HumanBytes(static_cast<double>(summary.bytes_written)).c_str(), options.out_dir.c_str(), seconds,
               options.out_dir.c_str());
  return kExitOk;
}

std::vector<std::string> ProfileNameList() {
  std::vector<std::string> names;
  for (const gen::Profile& p : gen::Profiles()) names.emplace_back(p.name);
  return names;
}

// "2016: 11956, 2024: 140000": each profile's events per hour.
std::string ProfileSizes() {
  std::vector<std::string> sizes;
  for (const gen::Profile& p : gen::Profiles()) {
    sizes.push_back(std::string(p.name) + ": " + std::to_string(p.events_per_hour));
  }
  return JoinNames(sizes);
}

// "default: a --profile's first hour (2016: ..., 2024: ...), else the --schema's (modern: ...)".
std::string StartHourDefaults() {
  std::vector<std::string> of_profiles, of_schemas;
  for (const gen::Profile& p : gen::Profiles()) of_profiles.push_back(std::string(p.name) + ": " + p.start_hour);
  for (const gen::Schema& s : gen::Schemas()) {
    of_schemas.push_back(std::string(s.name) + ": " + std::string(s.start_hour));
  }
  return "default: a --profile's first hour (" + JoinNames(of_profiles) + "), else the --schema's (" +
         JoinNames(of_schemas) + ")";
}

}  // namespace

void AddGenCommand(CLI::App& command, int& exit_code) {
  auto options = std::make_shared<gen::GenOptions>();
  CLI::App* cmd = &command;
  cmd->add_option("--out", options->out_dir, "Output directory")->required();
  cmd->add_option("--hours", options->hours, "Hourly files to write")->capture_default_str()->check(CountCheck(1, 100000));
  cmd->add_option("--events-per-hour", options->events_per_hour, "Valid events per file")
      ->capture_default_str()
      ->check(CountCheck(1, 100000000));
  cmd->add_option("--seed", options->seed, "Random seed (same seed, same bytes)")->capture_default_str();
  cmd->add_option("--compress", options->compress, "gz, zst or none")
      ->capture_default_str()
      ->check(CLI::IsMember({"gz", "zst", "none"}));
  cmd->add_option("--level", options->level, "Compression level")->capture_default_str();
  cmd->add_option("--start", options->start_hour, "First hour, YYYY-MM-DDTHH (UTC); " + StartHourDefaults());
  cmd->add_option("--bad-lines", options->bad_lines_per_file, "Invalid lines planted per file")->capture_default_str();
  cmd->add_option("--tracked-share", options->tracked_share, "Share of issue/PR activity in tracked DL repos")
      ->capture_default_str()
      ->check(NumberCheck(0, 1));
  cmd->add_option("--lifecycle-share", options->lifecycle_share,
                  "Share of events that are issue/PR lifecycle events (default: the archive's mix, 180 of 980)")
      ->check(NumberCheck(0, 1));
  cmd->add_option("--pr-share", options->pr_share,
                  "Share of new reports that are pull requests (default 0.6, or the profile's)")
      ->check(NumberCheck(0, 1));
  cmd->add_option("--threads", options->threads, "Generator threads (output does not depend on it)");
  std::vector<std::string> schema_names;
  std::vector<std::string_view> schema_whats;
  for (const gen::Schema& row : gen::Schemas()) {
    schema_names.emplace_back(row.name);
    schema_whats.push_back(row.what);
  }
  CLI::Option* schema = cmd->add_option("--schema", options->schema, "Event layout: " + JoinChoices(schema_whats))
                            ->capture_default_str()
                            ->check(CLI::IsMember(schema_names));
  cmd->add_flag_callback("--legacy", [options] { options->schema = "legacy"; }, "Same as --schema legacy")
      ->excludes(schema);
  cmd->add_option("--profile", options->profile,
                  "Shape of a real hour of that era: type mix, distinct repos and actors per event, event "
                  "sizes; --events-per-hour defaults to the real hour's size (" + ProfileSizes() + ")")
      ->check(CLI::IsMember(ProfileNameList()));
  cmd->add_option("--quirk-joined", options->quirk_joined, "Lines per file holding two records with no newline (}{)")
      ->check(CountCheck());
  cmd->add_option("--quirk-nul", options->quirk_nul, "Lines per file made of NUL bytes (some then a partial record)")
      ->check(CountCheck());
  cmd->add_option("--quirk-duplicates", options->quirk_duplicates,
                  "Events per file written twice, same id (modern events only)")
      ->check(CountCheck());
  cmd->add_option("--quirk-missing-hours", options->quirk_missing_hours,
                  "Comma list of hour indexes (0 = first file) not written at all")
      ->delimiter(',');
  cmd->add_option("--quirk-single-event-hours", options->quirk_single_event_hours,
                  "Comma list of hour indexes whose file holds exactly one event")
      ->delimiter(',');
  cmd->callback([cmd, options, &exit_code] {
    if (!options->profile.empty() && cmd->count("--events-per-hour") == 0) {
      options->events_per_hour = gen::FindProfile(options->profile)->events_per_hour;
    }
    exit_code = RunGen(*options);
  });
}

}  // namespace ghsift::cli
