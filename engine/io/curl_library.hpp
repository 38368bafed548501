#pragma once
// libcurl, loaded the first time a URL is read rather than by every ghsift process: libcurl and
// its TLS, Kerberos and LDAP libraries are a quarter of the shared-library loading that every
// command (a query, an ingest of local files) pays before main (about 10 ms of CPU here).
#include <curl/curl.h>

#include "common/result.hpp"

namespace ghsift {

//! The libcurl functions ghsift calls, as found in the loaded library.
struct CurlLibrary {
  CURL* (*easy_init)();
  CURLcode (*easy_setopt)(CURL*, CURLoption, ...);
  CURLcode (*easy_perform)(CURL*);
  CURLcode (*easy_getinfo)(CURL*, CURLINFO, ...);
  void (*easy_cleanup)(CURL*);
  const char* (*easy_strerror)(CURLcode);
};

//! Loads libcurl (libcurl.so.4) and runs curl_global_init once, thread-safely; later calls
//! return the same library. An error names the library and what is missing.
Result<const CurlLibrary*> LoadCurlLibrary();

}  // namespace ghsift
