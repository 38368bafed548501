#include "commands/store_notes.hpp"

#include <cstdio>

#include "common/terminal_safe.hpp"

namespace ghsift::cli {

std::string FailedFilesNote(const Store& store) {
  size_t failed = 0;
  std::string first;
  for (const auto& [name, reason] : store.Failures()) {
    if (IsMissingAtSource(reason)) continue;
    if (failed++ == 0) first = name;
  }
  if (failed == 0) return "";
  return "ghsift: note: " + (failed == 1 ? "1 file" : std::to_string(failed) + " files") +
         " failed when ingested and " + (failed == 1 ? "is" : "are") + " not counted (" +
         (failed == 1 ? "" : "the first ") + TerminalSafe(first) +
         "); `ghsift stats --coverage` lists " + (failed == 1 ? "it, and ingesting it again counts it"
                                                              : "them, and ingesting them again counts them");
}

void PrintFailedFilesNote(const Store& store) {
  if (const std::string note = FailedFilesNote(store); !note.empty()) std::fprintf(stderr, "%s\n", note.c_str());
}

}  // namespace ghsift::cli
