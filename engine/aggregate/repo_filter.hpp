#pragma once
// Which repositories' issue reports are kept (event counters always cover every repo). A tracked
// repository is followed through its renames: its former names and its GitHub ids count toward
// it, so hours from before a rename are in the scope whatever order they are ingested in.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/result.hpp"

namespace ghsift {

//! Store meta key: RepoFilter::DisplayNames() of the list the store was last ingested with.
inline constexpr const char* kTrackedNamesMeta = "tracked_names";

class RepoFilter {
 public:
  static RepoFilter All() {
    RepoFilter f;
    f.all_ = true;
    return f;
  }
  //! Reads one repository per line: `owner/name [id:N]... [former: owner/name...]` ('#' comments
  //! and blank lines ignored). An error names the file, the line and the reason.
  static Result<RepoFilter> FromFile(const std::string& path);
  //! Each name its own repository, without former names or ids.
  static RepoFilter FromNames(const std::vector<std::string>& names);
  //! The filter a Describe() text names ("all", or "tracked:" then one entry per repository; a
  //! store written before former names existed holds plain names, read as repositories without
  //! any). What follows a ';', as the store's ";keep-text", is not the filter's. None for any
  //! other text.
  static std::optional<RepoFilter> FromDescription(std::string_view description);

  //! Asked for every event: compares without allocating (names of up to 255 bytes; GitHub's
  //! owner/name is at most 140). `repo_id` is the archive's id (<= 0: the record gave none). A
  //! listed id counts whatever the name; a former name counts only for a listed id, or for a
  //! record without one, when its line lists ids (GitHub hands a freed name to whoever takes it).
  bool Tracks(std::string_view repo_name, int64_t repo_id) const;
  //! By name alone (a name asked for on the command line): any name the list gives a repository.
  bool Tracks(std::string_view repo_name) const;
  bool all() const { return all_; }
  //! The number of tracked repositories (0 for All()).
  size_t size() const { return repos_.size(); }
  //! Every name (lower case, the current one first) of the tracked repository that has
  //! `repo_name` among its names; empty when none has.
  std::vector<std::string> NamesOf(std::string_view repo_name) const;
  //! The GitHub ids listed for that repository.
  std::vector<int64_t> IdsOf(std::string_view repo_name) const;
  //! Every name the list gives (current and former, lower case), sorted.
  std::vector<std::string> Names() const;
  //! A stable text naming the scope, stored with the aggregates: "tracked:" then, per repository
  //! in name order, its name, `|#id` per id and `|name` per former name, and a ','. A list
  //! without former names or ids reads as it did before they existed ("tracked:a,b,").
  std::string Describe() const;
  //! The current name of each tracked repository as the list spells it ("microsoft/CNTK"), one a
  //! line, in name order: what answers show for a repository the store has no event of, whose
  //! spelling the lower-case Describe() lost. Empty for All().
  std::string DisplayNames() const;
  //! The spellings a DisplayNames() text gives, by lower-case name.
  static std::unordered_map<std::string, std::string> SpellingsOf(std::string_view display_names);

 private:
  struct Repository {
    std::string name;                  //!< lower case
    std::vector<std::string> former;   //!< lower case, sorted
    std::vector<int64_t> ids;          //!< sorted
    std::string display;               //!< `name` as the list spells it ("" where none did)
  };
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  struct NameEntry {
    uint32_t repository;
    bool former;
  };

  //! The entry of a name; none when no repository has it.
  const NameEntry* Find(std::string_view repo_name) const;
  //! Adds a repository; false (and nothing added) when one of its names or ids is already taken.
  bool Add(Repository repository);

  bool all_ = false;
  std::vector<Repository> repos_;
  std::unordered_map<std::string, NameEntry, NameHash, std::equal_to<>> names_;  //!< lower case
  std::unordered_map<int64_t, uint32_t> ids_;
};

}  // namespace ghsift
