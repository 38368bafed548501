// The allocator's settings, read by jemalloc when the process starts.
//
// Why jemalloc with transparent huge pages: on real GH Archive hours most of ghsift's memory is
// touched once (rule databases of ~10 MB, per-repository maps, RocksDB arenas), and on virtual
// machines every first touch of a 4 KiB page is an expensive fault. Measured on the four real
// 2016 hours (`--all-repos`, 2 threads): glibc malloc 19,000 page faults and 0.59 s of CPU;
// jemalloc backing its arenas with 2 MiB pages 3,800 faults and 0.36 s, for 40 MB more peak RSS.
// The settings are compiled in, so every run gets them without an environment variable;
// MALLOC_CONF still overrides them.
#ifdef GHSIFT_WITH_JEMALLOC
extern "C" {
// NOLINTNEXTLINE: the name is jemalloc's; it looks this symbol up at its initialization.
extern const char* malloc_conf;
const char* malloc_conf = "thp:always,metadata_thp:always";
}
#endif
