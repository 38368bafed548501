#pragma once
// What a labeler needs of a flagged report beyond its title, shared by `sample` and `issues
// --format jsonl`: the texts a --keep-text store kept, and the MHNurf list format.
#include <string>
#include <vector>

#include "common/result.hpp"
#include "query/query.hpp"
#include "store/store.hpp"

namespace ghsift::cli {

//! A list as Python writes it (['a', 'b']), the form of the MHNurf Comments and Codes columns.
std::string PythonList(const std::vector<std::string>& items);

//! The body (markdown; its fenced code stays in it, and `rules eval` takes code out of fences as
//! ingest did) and the distinct comments a --keep-text store kept. Several versions of the body
//! (edits) are joined by a blank line.
struct KeptText {
  std::string body;
  std::vector<std::string> comments;
};
Result<KeptText> ReadKeptText(const Store& store, const ListedIssue& issue);

}  // namespace ghsift::cli
