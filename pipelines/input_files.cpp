#include "pipelines/input_files.hpp"

#include <algorithm>
#include <filesystem>
#include <string_view>

#include "io/http_source.hpp"

namespace ghsift {

namespace {

bool EndsWith(const std::string& s, const std::string& e) {
  return s.size() > e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

//! YYYY-MM-DD-H or YYYY-MM-DD-HH before the first '.'.
bool HourName(const std::string& name) {
  const std::string stem = name.substr(0, name.find('.'));
  if (stem.size() < 12 || stem.size() > 13) return false;
  for (size_t i = 0; i < stem.size(); ++i) {
    const bool dash = i == 4 || i == 7 || i == 10;
    if (dash ? stem[i] != '-' : (stem[i] < '0' || stem[i] > '9')) return false;
  }
  return true;
}

//! The endings of dump files; a plain ".json" only with an hour's name (LooksLikeDump).
constexpr const char* kDumpEndings[] = {".json", ".json.gz", ".json.zst", ".ndjson", ".ndjson.gz", ".ndjson.zst"};

}  // namespace

bool LooksLikeDump(const std::string& name) {
  for (const char* ending : kDumpEndings) {
    if (EndsWith(name, ending)) return std::string_view(ending) != ".json" || HourName(name);
  }
  return false;
}

std::vector<std::string> OtherNamesOfTheHour(const std::string& name) {
  if (!HourName(name) || !LooksLikeDump(name)) return {};
  const std::string stem = name.substr(0, name.find('.'));
  // The hour as GH Archive writes it (2024-01-01-2) and zero-padded (2024-01-01-02).
  const std::string date = stem.substr(0, 11);
  const std::string hour = stem.substr(11);
  const std::string bare = hour.size() == 2 && hour[0] == '0' ? hour.substr(1) : hour;
  std::vector<std::string> stems = {date + bare};
  if (bare.size() == 1) stems.push_back(date + "0" + bare);
  std::vector<std::string> names;
  for (const std::string& s : stems) {
    for (const char* ending : kDumpEndings) {
      if (s + ending != name) names.push_back(s + ending);
    }
  }
  return names;
}

Result<std::vector<std::string>> ResolveInputs(const std::vector<std::string>& arguments, bool recursive) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const std::string& arg : arguments) {
    std::error_code ec;
    if (IsHttpUrl(arg)) {
      files.push_back(arg);  // an hour on a server; read by HttpSource
    } else if (fs::is_directory(arg, ec)) {
      std::vector<std::string> found;
      auto take = [&](const fs::directory_entry& entry) {
        if (entry.is_regular_file() && LooksLikeDump(entry.path().filename().string())) {
          found.push_back(entry.path().string());
        }
      };
      if (recursive) {
        for (const auto& entry : fs::recursive_directory_iterator(arg, ec)) take(entry);
      } else {
        for (const auto& entry : fs::directory_iterator(arg, ec)) take(entry);
      }
      if (ec) return Status::IoError(arg + ": cannot list: " + ec.message());
      if (found.empty()) {
        return Status::NotFound(arg + ": no GH Archive dumps in this directory (*.json.gz, *.json.zst, " +
                                "YYYY-MM-DD-H.json" + (recursive ? "" : "; --recursive descends into subdirectories") +
                                ")");
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(arg, ec)) {
      files.push_back(arg);
    } else {
      return Status::NotFound(arg + ": no such file or directory");
    }
  }
  return files;
}

}  // namespace ghsift
