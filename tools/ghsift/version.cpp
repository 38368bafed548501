#include "version.hpp"

#ifndef GHSIFT_VERSION
#error "GHSIFT_VERSION is set by tools/ghsift/CMakeLists.txt from the project's version"
#endif

namespace ghsift::cli {

std::string_view GhsiftVersion() { return GHSIFT_VERSION; }

}  // namespace ghsift::cli
