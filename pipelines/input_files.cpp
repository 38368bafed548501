#include "pipelines/input_files.hpp"

#include <algorithm>
#include <filesystem>

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

}  // namespace

bool LooksLikeDump(const std::string& name) {
  for (const char* ending : {".json.gz", ".json.zst", ".ndjson", ".ndjson.gz", ".ndjson.zst"}) {
    if (EndsWith(name, ending)) return true;
  }
  return EndsWith(name, ".json") && HourName(name);
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
