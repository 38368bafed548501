#pragma once
// GitHub closes an issue from a merged pull request whose title or body says "fixes #12": a
// closing keyword (close, closes, closed, fix, fixes, fixed, resolve, resolves, resolved; any
// case; an optional ':'), then `#N`, `owner/repo#N` or the URL.
#include <cstdint>
#include <string_view>
#include <vector>

namespace ghsift {

//! Issue numbers of `repo` ("owner/name") that `text` closes, sorted and distinct. References
//! to other repositories are left out.
std::vector<int64_t> FindClosingReferences(std::string_view text, std::string_view repo);

}  // namespace ghsift
