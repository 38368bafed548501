#pragma once
// Options and summary of the synthetic GH Archive generator (`ghsift gen`).
#include <cstdint>
#include <string>

namespace ghsift::gen {

struct GenOptions {
  std::string out_dir;                       //!< created if missing
  int hours = 1;                             //!< number of hourly files
  int events_per_hour = 2000;                //!< valid events per file (planted bad lines excluded)
  uint64_t seed = 1;
  std::string compress = "gz";               //!< "gz" | "zst" | "none" -> .json.gz / .json.zst / .json
  int level = 6;                             //!< compression level
  std::string start_hour = "2024-01-01T00";  //!< first file's UTC hour
  int bad_lines_per_file = 0;                //!< planted invalid lines per file
  double tracked_share = 0.15;               //!< share of issue/PR activity on tracked repos
  int threads = 0;                           //!< 0 = hardware concurrency; output never depends on it
};

struct GenSummary {
  int files = 0;
  uint64_t events = 0;              //!< valid events written
  uint64_t bytes_uncompressed = 0;  //!< every line, bad ones included, with newlines
  uint64_t bytes_written = 0;       //!< bytes of the hourly files on disk (truth.json excluded)
};

}  // namespace ghsift::gen
