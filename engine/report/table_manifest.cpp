#include "report/table_manifest.hpp"

#include <algorithm>
#include <fstream>

namespace ghsift {

namespace fs = std::filesystem;

bool IsTableFileName(const std::string& name) {
  const std::string ext = ".csv";
  if (name.size() <= ext.size() || name.front() == '.' || !name.ends_with(ext)) return false;
  // Table ids are built from category names ([a-z0-9_-]) and fixed words: no separator, no "..".
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
  });
}

Result<std::set<std::string>> ReadTableManifest(const fs::path& tables_dir) {
  std::set<std::string> names;
  const fs::path path = tables_dir / kTableManifestName;
  std::error_code ec;
  if (!fs::exists(path, ec)) return names;
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IoErrorFromErrno(path.string() + ": cannot read");
  for (std::string line; std::getline(in, line);) {
    if (IsTableFileName(line)) names.insert(line);
  }
  return names;
}

Status WriteTableManifest(const fs::path& tables_dir, const std::set<std::string>& names) {
  const fs::path path = tables_dir / kTableManifestName;
  const fs::path temporary = tables_dir / (std::string(kTableManifestName) + ".tmp");
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    for (const std::string& name : names) out << name << "\n";
    out.close();
    if (!out) return Status::IoErrorFromErrno(temporary.string() + ": cannot write");
  }
  std::error_code ec;
  fs::rename(temporary, path, ec);
  if (ec) return Status::IoError(path.string() + ": cannot replace: " + ec.message());
  return Status::Ok();
}

Result<size_t> RemoveStaleTables(const fs::path& tables_dir, const std::set<std::string>& previous,
                                 const std::set<std::string>& now) {
  size_t removed = 0;
  for (const std::string& name : previous) {
    if (now.count(name)) continue;
    std::error_code ec;
    // Only a file the report wrote: a directory a person made under that name stays.
    const fs::file_type type = fs::symlink_status(tables_dir / name, ec).type();
    if (type != fs::file_type::regular && type != fs::file_type::symlink) continue;
    fs::remove(tables_dir / name, ec);
    if (ec) return Status::IoError((tables_dir / name).string() + ": cannot remove: " + ec.message());
    ++removed;
  }
  return removed;
}

Result<std::vector<std::string>> OtherCsvFiles(const fs::path& tables_dir, const std::set<std::string>& now) {
  std::vector<std::string> others;
  std::error_code ec;
  for (fs::directory_iterator it(tables_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.front() == '.' || !name.ends_with(".csv") || now.count(name)) continue;
    std::error_code type_ec;
    const fs::file_type type = it->symlink_status(type_ec).type();
    if (type == fs::file_type::regular || type == fs::file_type::symlink) others.push_back(name);
  }
  if (ec) return Status::IoError(tables_dir.string() + ": cannot list: " + ec.message());
  std::sort(others.begin(), others.end());
  return others;
}

}  // namespace ghsift
