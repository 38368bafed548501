#pragma once
// The version of this ghsift: the project's (CMakeLists.txt `project(... VERSION ...)`), the one
// place it is written. `--version`, the man page, the HTTP user agent and the provenance of
// `rules eval` all read it here.
#include <string_view>

namespace ghsift::cli {

std::string_view GhsiftVersion();

}  // namespace ghsift::cli
