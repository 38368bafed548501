#pragma once
// Entry point of the synthetic GH Archive generator. Everything is planned up front from
// the seed, then hours are written in parallel, so the bytes never depend on `threads`.
#include "common/status.hpp"
#include "gen/gen_options.hpp"

namespace ghsift::gen {

//! Writes `hours` hourly files and `truth.json` into `options.out_dir`.
//! `summary` may be null. Never throws.
Status Generate(const GenOptions& options, GenSummary* summary);

}  // namespace ghsift::gen
