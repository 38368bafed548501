#pragma once
// Which repositories' issue reports are kept (event counters always cover every repo).
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "common/result.hpp"

namespace ghsift {

class RepoFilter {
 public:
  static RepoFilter All() {
    RepoFilter f;
    f.all_ = true;
    return f;
  }
  //! Reads owner/name lines ('#' comments, blank lines ignored).
  static Result<RepoFilter> FromFile(const std::string& path);
  static RepoFilter FromNames(const std::vector<std::string>& names);
  //! The filter a Describe() text names ("all" or "tracked:a,b,"; what follows a ';', as the
  //! store's ";keep-text", is not the filter's). None for any other text.
  static std::optional<RepoFilter> FromDescription(std::string_view description);

  //! Asked for every event: compares without allocating (names of up to 255 bytes; GitHub's
  //! owner/name is at most 140).
  bool Tracks(std::string_view repo_name) const;
  bool all() const { return all_; }
  //! A stable text naming the scope, stored with the aggregates.
  std::string Describe() const;

 private:
  bool all_ = false;
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_set<std::string, NameHash, std::equal_to<>> names_;  //!< lowercase
};

std::string ToLower(std::string_view s);

}  // namespace ghsift
