# Shared by the bench/ scripts (sourced, not run): the ghsift binary they time and the median
# they report. Needs ROOT, BUILD_DIR and a log function from the caller.

# ensure_ghsift: configures BUILD_DIR (Release, no tests) if needed and builds ghsift, so the
# timed binary is always the current source; sets GHSIFT.
ensure_ghsift() {
  GHSIFT="$BUILD_DIR/tools/ghsift/ghsift"
  if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
    log "configuring $BUILD_DIR (Release)"
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGHSIFT_BUILD_TESTS=OFF >/dev/null
  fi
  log "building ghsift in $BUILD_DIR"
  ninja -C "$BUILD_DIR" -j2 ghsift >/dev/null
}

# median: the median of the numbers on stdin, one per line.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
