#pragma once
// Which repositories' issue reports are kept (event counters always cover every repo).
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

  bool Tracks(std::string_view repo_name) const;
  bool all() const { return all_; }
  //! A stable text naming the scope, stored with the aggregates.
  std::string Describe() const;

 private:
  bool all_ = false;
  std::unordered_set<std::string> names_;  //!< lowercase
};

std::string ToLower(std::string_view s);

}  // namespace ghsift
