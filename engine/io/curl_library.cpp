#include "io/curl_library.hpp"

#include <dlfcn.h>

#include <string>
#include <type_traits>

namespace ghsift {
namespace {

constexpr const char* kLibraryName = "libcurl.so.4";

Result<const CurlLibrary*> Load() {
  void* handle = ::dlopen(kLibraryName, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    return Status::IoError(std::string("cannot load ") + kLibraryName + " for http(s) input (" +
                           (why != nullptr ? why : "not found") + "); install the libcurl4 package");
  }
  static CurlLibrary library;
  Status missing = Status::Ok();
  auto find = [&](auto& function, const char* name) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(::dlsym(handle, name));
    if (function == nullptr && missing.ok()) {
      missing = Status::IoError(std::string(kLibraryName) + " has no " + name + ": not a libcurl ghsift can use");
    }
  };
  CURLcode (*global_init)(long) = nullptr;
  find(global_init, "curl_global_init");
  find(library.easy_init, "curl_easy_init");
  find(library.easy_setopt, "curl_easy_setopt");
  find(library.easy_perform, "curl_easy_perform");
  find(library.easy_getinfo, "curl_easy_getinfo");
  find(library.easy_cleanup, "curl_easy_cleanup");
  find(library.easy_strerror, "curl_easy_strerror");
  if (!missing.ok()) return missing;
  // curl_global_init is not thread-safe: done once, before any transfer thread starts. The
  // library stays loaded until the process ends.
  if (global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return Status::IoError("libcurl failed to initialize");
  return static_cast<const CurlLibrary*>(&library);
}

}  // namespace

Result<const CurlLibrary*> LoadCurlLibrary() {
  static const Result<const CurlLibrary*> loaded = Load();
  return loaded;
}

}  // namespace ghsift
