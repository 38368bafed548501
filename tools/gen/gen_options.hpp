#pragma once
// Options and summary of the synthetic GH Archive generator (`ghsift gen`).
#include <cstdint>
#include <string>
#include <vector>

namespace ghsift::gen {

struct GenOptions {
  std::string out_dir;                       //!< created if missing
  int hours = 1;                             //!< number of hourly files
  int events_per_hour = 2000;                //!< valid events per file (planted bad lines excluded)
  uint64_t seed = 1;
  std::string compress = "gz";               //!< "gz" | "zst" | "none" -> .json.gz / .json.zst / .json
  int level = 6;                             //!< compression level
  std::string start_hour;                    //!< first file's UTC hour; empty = the profile's, else the schema's (gen/schemas.hpp)
  int bad_lines_per_file = 0;                //!< planted invalid lines per file
  double tracked_share = 0.15;               //!< share of issue/PR activity on tracked repos
  //! Share of all events that are issue/PR lifecycle events; < 0 = the archive's mix (180 of 980).
  //! Raised (with pr_share) to build stores of millions of reports from few gigabytes.
  double lifecycle_share = -1.0;
  //! Share of new reports that are pull requests; < 0 = the profile's, or kDefaultPrShare.
  double pr_share = -1.0;
  //! Share of new reports opened before the corpus, first seen through a later event (a
  //! comment, a close); < 0 = the profile's, or kDefaultPreCorpusShare.
  double pre_corpus_share = -1.0;
  int threads = 0;                           //!< 0 = hardware concurrency; output never depends on it

  //! "modern" (Events API, 2015 on) | "legacy" (Timeline API, 2011-2014: no id, created_at
  //! first with a UTC offset, actor a login, repository.owner + repository.name) | "mixed"
  //! (each event independently modern or legacy, 50/50, within the same file) | "timeline"
  //! (legacy records at the US-Pacific offset, files named by the Pacific hour, as GH Archive
  //! files of 2012-03-11..2014) | "timeline-2012" (the original 2012 files: timeline, plus every
  //! record of the hour glued `}{` on one line without newlines and dates written
  //! "2012/04/11 15:01:33 -0700"; no bad lines or quirks) | "events-2011" (GH Archive's first
  //! hours, 2011-02-12..2012-03-10: Events API records of api.github.dev, key order `repo, type,
  //! [org], public, created_at, payload, actor, id`; issue events carry only number and issue id,
  //! pull requests a title but no body, state or merge; gen/events_2011_writer.hpp) |
  //! "slim-2025" (since October 2025: modern records whose PushEvent has no commits and whose
  //! PullRequestEvent has no title, body, state or merge).
  std::string schema = "modern";

  //! "" (none: the fixed cast and mix of earlier versions) | "2016" | "2024": the shape of a
  //! real hour of that era (gen/profile.hpp). Sets the type mix, distinct repositories and
  //! actors per event, push sizes, and the defaults of start_hour, lifecycle_share and pr_share.
  std::string profile;

  // Known quirks of the real archive, each off by default. Per-file counts are caps: a file
  // too small for them gets fewer, and truth.json reports what was written.
  int quirk_joined = 0;      //!< lines holding two consecutive valid records with no newline (`}{`)
  int quirk_nul = 0;         //!< bad lines of NUL bytes, half followed by a truncated record
  int quirk_duplicates = 0;  //!< modern events written a second time (same id, same bytes) later in the file
  std::vector<int> quirk_missing_hours;       //!< hour indexes whose files are not written at all
  std::vector<int> quirk_single_event_hours;  //!< hour indexes whose files hold exactly one line, one event
};

inline constexpr double kDefaultPrShare = 0.6;
inline constexpr double kDefaultPreCorpusShare = 0.1;
struct GenSummary {
  int files = 0;
  uint64_t events = 0;              //!< valid events written
  uint64_t bytes_uncompressed = 0;  //!< every line, bad ones included, with newlines
  uint64_t bytes_written = 0;       //!< bytes of the hourly files on disk (truth.json excluded)
};

}  // namespace ghsift::gen
