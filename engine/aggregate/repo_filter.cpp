#include "aggregate/repo_filter.hpp"

#include <algorithm>
#include <fstream>
#include <vector>

namespace ghsift {

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

Result<RepoFilter> RepoFilter::FromFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IoError(path + ": cannot read the tracked repository list");
  std::vector<std::string> names;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    line.erase(std::remove_if(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r'; }),
               line.end());
    if (line.empty()) continue;
    const size_t slash = line.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == line.size()) {
      return Status::InvalidArgument(path + ":" + std::to_string(number) + ": expected owner/name");
    }
    names.push_back(line);
  }
  return FromNames(names);
}

RepoFilter RepoFilter::FromNames(const std::vector<std::string>& names) {
  RepoFilter f;
  for (const auto& n : names) f.names_.insert(ToLower(n));
  return f;
}

std::optional<RepoFilter> RepoFilter::FromDescription(std::string_view description) {
  description = description.substr(0, description.find(';'));
  if (description == "all") return All();
  constexpr std::string_view kTracked = "tracked:";
  if (!description.starts_with(kTracked)) return std::nullopt;
  RepoFilter f;
  description.remove_prefix(kTracked.size());
  for (size_t comma; (comma = description.find(',')) != std::string_view::npos; description.remove_prefix(comma + 1)) {
    if (comma > 0) f.names_.insert(ToLower(description.substr(0, comma)));
  }
  return f;
}

bool RepoFilter::Tracks(std::string_view repo_name) const {
  if (all_) return true;
  if (repo_name.empty() || repo_name.size() > 255) return false;
  char lower[255];
  for (size_t i = 0; i < repo_name.size(); ++i) {
    const char c = repo_name[i];
    lower[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return names_.find(std::string_view(lower, repo_name.size())) != names_.end();
}

std::string RepoFilter::Describe() const {
  if (all_) return "all";
  std::vector<std::string> sorted(names_.begin(), names_.end());
  std::sort(sorted.begin(), sorted.end());
  std::string out = "tracked:";
  for (const auto& n : sorted) out += n + ",";
  return out;
}

}  // namespace ghsift
