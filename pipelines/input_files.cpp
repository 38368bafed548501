#include "pipelines/input_files.hpp"

#include <algorithm>
#include <filesystem>

namespace ghsift {

bool LooksLikeDump(const std::string& name) {
  for (const char* ending : {".json", ".json.gz", ".json.zst", ".ndjson", ".ndjson.gz", ".ndjson.zst"}) {
    const std::string e(ending);
    if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0) return true;
  }
  return false;
}

Result<std::vector<std::string>> ResolveInputs(const std::vector<std::string>& arguments) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const std::string& arg : arguments) {
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      std::vector<std::string> found;
      for (const auto& entry : fs::directory_iterator(arg, ec)) {
        if (entry.is_regular_file() && LooksLikeDump(entry.path().filename().string())) {
          found.push_back(entry.path().string());
        }
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
