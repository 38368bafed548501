#include "aggregate/repo_filter.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <vector>

#include "common/ascii_case.hpp"

namespace ghsift {
namespace {

constexpr std::string_view kTracked = "tracked:";
constexpr std::string_view kFormerMark = "former:";
constexpr std::string_view kIdMark = "id:";

//! GitHub's owner/name: one '/', neither part empty, letters, digits, '.', '_' and '-' (so the
//! stored description's ',', '|' and '#' never occur in a name).
bool IsRepoName(std::string_view name) {
  const size_t slash = name.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == name.size()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-' || (c == '/' && i == slash);
    if (!ok) return false;
  }
  return true;
}

std::optional<int64_t> ParseId(std::string_view text) {
  int64_t id = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc() || end != text.data() + text.size() || id <= 0) return std::nullopt;
  return id;
}

std::vector<std::string_view> Tokens(std::string_view line) {
  std::vector<std::string_view> tokens;
  size_t pos = 0;
  while (pos < line.size()) {
    const size_t start = line.find_first_not_of(" \t\r", pos);
    if (start == std::string_view::npos) break;
    const size_t end = std::min(line.find_first_of(" \t\r", start), line.size());
    tokens.push_back(line.substr(start, end - start));
    pos = end;
  }
  return tokens;
}

}  // namespace

Result<RepoFilter> RepoFilter::FromFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IoError(path + ": cannot read the tracked repository list");
  RepoFilter f;
  std::unordered_map<std::string, int> line_of;  // name or "#id" -> the line that listed it
  std::vector<std::string> bare;                   // names listed alone on their line
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    const std::vector<std::string_view> tokens = Tokens(line);
    if (tokens.empty()) continue;
    if (!IsRepoName(tokens[0])) {
      return Status::InvalidArgument(where + "expected owner/name (letters, digits, '.', '_', '-'), got '" +
                                     std::string(tokens[0]) + "'");
    }
    Repository r;
    r.name = AsciiLower(tokens[0]);
    r.display = std::string(tokens[0]);
    bool former = false;
    for (size_t i = 1; i < tokens.size(); ++i) {
      std::string_view t = tokens[i];
      if (t.starts_with(kFormerMark)) {
        if (former) return Status::InvalidArgument(where + "'former:' is given twice");
        former = true;
        t.remove_prefix(kFormerMark.size());
        if (t.empty()) continue;
      } else if (t.starts_with(kIdMark)) {
        t.remove_prefix(kIdMark.size());
        if (t.empty() && i + 1 < tokens.size()) t = tokens[++i];
        const std::optional<int64_t> id = ParseId(t);
        if (!id) return Status::InvalidArgument(where + "expected a GitHub repository id (a positive number) after 'id:'");
        r.ids.push_back(*id);
        continue;
      } else if (!former) {
        return Status::InvalidArgument(where + "expected 'id:N' or 'former: owner/name...' after the name, got '" +
                                       std::string(t) + "'");
      }
      if (!IsRepoName(t)) {
        return Status::InvalidArgument(where + "expected a former owner/name after 'former:', got '" + std::string(t) +
                                       "'");
      }
      r.former.push_back(AsciiLower(t));
    }
    if (former && r.former.empty()) return Status::InvalidArgument(where + "'former:' names no repository");
    const bool is_bare = r.former.empty() && r.ids.empty();
    // The same name alone on two lines is harmless (lists before former names allowed it).
    if (is_bare && std::find(bare.begin(), bare.end(), r.name) != bare.end()) continue;
    std::vector<std::string> keys = r.former;
    keys.push_back(r.name);
    for (int64_t id : r.ids) keys.push_back("#" + std::to_string(id));
    for (const std::string& key : keys) {
      if (auto it = line_of.find(key); it != line_of.end() && it->second != number) {
        return Status::InvalidArgument(where + (key[0] == '#' ? "id " + key.substr(1) : key) +
                                       " is already listed on line " + std::to_string(it->second) +
                                       " (one line per repository, with all its names and ids)");
      } else if (it != line_of.end()) {
        return Status::InvalidArgument(where + (key[0] == '#' ? "id " + key.substr(1) : key) +
                                       " is given twice on this line");
      }
      line_of.emplace(key, number);
    }
    if (is_bare) bare.push_back(r.name);
    f.Add(std::move(r));
  }
  return f;
}

RepoFilter RepoFilter::FromNames(const std::vector<std::string>& names) {
  RepoFilter f;
  for (const auto& n : names) f.Add(Repository{AsciiLower(n), {}, {}, n});
  return f;
}

std::optional<RepoFilter> RepoFilter::FromDescription(std::string_view description) {
  description = description.substr(0, description.find(';'));
  if (description == "all") return All();
  if (!description.starts_with(kTracked)) return std::nullopt;
  RepoFilter f;
  description.remove_prefix(kTracked.size());
  for (size_t comma; (comma = description.find(',')) != std::string_view::npos; description.remove_prefix(comma + 1)) {
    std::string_view entry = description.substr(0, comma);
    if (entry.empty()) continue;
    Repository r;
    const size_t bar = entry.find('|');
    r.name = AsciiLower(entry.substr(0, bar));
    entry.remove_prefix(bar == std::string_view::npos ? entry.size() : bar + 1);
    while (!entry.empty()) {
      const size_t next = entry.find('|');
      const std::string_view part = entry.substr(0, next);
      if (part.starts_with('#')) {
        if (const std::optional<int64_t> id = ParseId(part.substr(1))) r.ids.push_back(*id);
      } else if (!part.empty()) {
        r.former.push_back(AsciiLower(part));
      }
      entry.remove_prefix(next == std::string_view::npos ? entry.size() : next + 1);
    }
    f.Add(std::move(r));
  }
  return f;
}

bool RepoFilter::Add(Repository r) {
  std::sort(r.former.begin(), r.former.end());
  r.former.erase(std::unique(r.former.begin(), r.former.end()), r.former.end());
  std::sort(r.ids.begin(), r.ids.end());
  r.ids.erase(std::unique(r.ids.begin(), r.ids.end()), r.ids.end());
  if (names_.count(r.name)) return false;
  for (const std::string& n : r.former) {
    if (n == r.name || names_.count(n)) return false;
  }
  for (int64_t id : r.ids) {
    if (ids_.count(id)) return false;
  }
  const auto index = static_cast<uint32_t>(repos_.size());
  names_.emplace(r.name, NameEntry{index, false});
  for (const std::string& n : r.former) names_.emplace(n, NameEntry{index, true});
  for (int64_t id : r.ids) ids_.emplace(id, index);
  repos_.push_back(std::move(r));
  return true;
}

const RepoFilter::NameEntry* RepoFilter::Find(std::string_view repo_name) const {
  if (repo_name.empty() || repo_name.size() > 255) return nullptr;
  char lower[255];
  for (size_t i = 0; i < repo_name.size(); ++i) {
    const char c = repo_name[i];
    lower[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  const auto it = names_.find(std::string_view(lower, repo_name.size()));
  return it == names_.end() ? nullptr : &it->second;
}

bool RepoFilter::Tracks(std::string_view repo_name, int64_t repo_id) const {
  if (all_) return true;
  if (repo_id > 0 && !ids_.empty() && ids_.count(repo_id)) return true;
  const NameEntry* entry = Find(repo_name);
  if (entry == nullptr) return false;
  if (!entry->former) return true;
  // A listed id that did not match above: this record is of another repository that took the name.
  return repo_id <= 0 || repos_[entry->repository].ids.empty();
}

bool RepoFilter::Tracks(std::string_view repo_name) const { return all_ || Find(repo_name) != nullptr; }

std::vector<std::string> RepoFilter::NamesOf(std::string_view repo_name) const {
  const NameEntry* entry = Find(repo_name);
  if (entry == nullptr) return {};
  const Repository& r = repos_[entry->repository];
  std::vector<std::string> names{r.name};
  names.insert(names.end(), r.former.begin(), r.former.end());
  return names;
}

std::vector<int64_t> RepoFilter::IdsOf(std::string_view repo_name) const {
  const NameEntry* entry = Find(repo_name);
  return entry == nullptr ? std::vector<int64_t>{} : repos_[entry->repository].ids;
}

std::vector<std::string> RepoFilter::Names() const {
  std::vector<std::string> names;
  names.reserve(names_.size());
  for (const auto& [name, entry] : names_) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

std::string RepoFilter::DisplayNames() const {
  std::vector<const Repository*> sorted;
  for (const Repository& r : repos_) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(), [](const Repository* a, const Repository* b) { return a->name < b->name; });
  std::string out;
  for (const Repository* r : sorted) out += (r->display.empty() ? r->name : r->display) + "\n";
  return out;
}

std::unordered_map<std::string, std::string> RepoFilter::SpellingsOf(std::string_view display_names) {
  std::unordered_map<std::string, std::string> spellings;
  for (size_t at = 0; at < display_names.size();) {
    const size_t end = std::min(display_names.find('\n', at), display_names.size());
    const std::string_view name = display_names.substr(at, end - at);
    if (!name.empty()) spellings.emplace(AsciiLower(name), std::string(name));
    at = end + 1;
  }
  return spellings;
}

std::string RepoFilter::Describe() const {
  if (all_) return "all";
  std::vector<const Repository*> sorted;
  for (const Repository& r : repos_) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(), [](const Repository* a, const Repository* b) { return a->name < b->name; });
  std::string out(kTracked);
  for (const Repository* r : sorted) {
    out += r->name;
    for (int64_t id : r->ids) out += "|#" + std::to_string(id);
    for (const std::string& n : r->former) out += "|" + n;
    out += ",";
  }
  return out;
}

}  // namespace ghsift
