#pragma once
// GHSIFT_ASSERT guards invariants: a failure is a bug in ghsift, never bad input.
#include <cstdio>
#include <cstdlib>

#define GHSIFT_ASSERT(cond)                                                          \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      std::fprintf(stderr, "ghsift: internal error: %s (%s:%d)\n", #cond, __FILE__, \
                   __LINE__);                                                        \
      std::abort();                                                                  \
    }                                                                                \
  } while (0)
