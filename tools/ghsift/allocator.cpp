// The allocator's settings, read by jemalloc when the process starts.
//
// jemalloc, without transparent huge pages. Measured 2026-12-04 in one session, alternating,
// 6 rounds each, `ingest --all-repos` (medians; peak RSS):
//
//   |                               | 12 real hours (184 MB) | 2 generated 2024 hours (597 MB) |
//   | glibc malloc                  | 0.37 s, 106 MB         | 0.885 s, 168 MB                 |
//   | jemalloc                      | 0.36 s, 111 MB         | 0.85 s, 176 MB                  |
//   | jemalloc on 2 MiB huge pages  | 0.42 s, 157 MB         | 1.03 s, 223 MB                  |
//
// Huge pages (on until then) save minor faults (5,400 against 25,900 on the real hours) but not
// time: on a machine whose memory is fragmented, as an operator's is after reading dumps all
// day, a huge-page fault first compacts memory, and 8 of the 12 runs with them spent 0.12-0.46 s
// in the kernel against 0.02-0.18 s without. The defaults are stated, not left out, because a
// distribution's jemalloc may be built with others; MALLOC_CONF still overrides them.
#ifdef GHSIFT_WITH_JEMALLOC
extern "C" {
// NOLINTNEXTLINE: the name is jemalloc's; it looks this symbol up at its initialization.
extern const char* malloc_conf;
const char* malloc_conf = "thp:default,metadata_thp:disabled";
}
#endif
