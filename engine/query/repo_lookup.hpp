#pragma once
// A repository asked for by name: the store knows the names the dumps showed it under; the
// tracked list also knows the names it had in hours not ingested (yet), and its GitHub ids.
#include <cstdint>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "store/store.hpp"

namespace ghsift {

//! The store's ids of the repository named `name` under any name it had: the store's name index,
//! and the former and current names and ids that the store's tracked list gives it (for a store
//! of every repository, the default rules/repos.txt's). Sorted, without repeats; empty when the
//! store holds none.
Result<std::vector<int64_t>> RepoIdsByAnyName(const Store& store, const std::string& name);

}  // namespace ghsift
