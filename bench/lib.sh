# Shared by the bench/ scripts (sourced, not run): the ghsift binary they time, the median they
# report, and the checks they make before timing. Needs ROOT, BUILD_DIR and a log function from
# the caller.

# ensure_ghsift: the binary to time. A GHSIFT set by the caller (a script's --ghsift PATH: another
# build, e.g. before/after a change) is used as it is; otherwise BUILD_DIR is configured
# (Release, no tests) if needed and ghsift built, so the timed binary is the current source.
ensure_ghsift() {
  if [[ -n "${GHSIFT:-}" ]]; then
    [[ -x "$GHSIFT" ]] || { echo "bench: --ghsift $GHSIFT is not an executable file" >&2; exit 2; }
    GHSIFT=$(cd "$(dirname "$GHSIFT")" && pwd)/$(basename "$GHSIFT")
    log "timing $GHSIFT as given (not rebuilt)"
    return 0
  fi
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

# best: the smallest of the numbers on stdin, one per line.
best() { sort -g | head -1; }

# by_type_of_json FILE: "type,count" lines, sorted, of the events_by_type member of a JSON file
# (a generator's truth.json or tests/pipelines/count_real_events.py's output), then
# "(bad),N" from its bad_lines or bad member.
by_type_of_json() {
  python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k, v in sorted(d["events_by_type"].items()):
    print(f"{k},{v}")
print(f"(bad),{d.get('bad_lines', d.get('bad', 0))}")
PY
}

# by_type_of_store STORE: the same lines from what ghsift stored (query --metric events --by
# type, and stats' bad_lines).
by_type_of_store() {
  "$GHSIFT" query --store "$1" --metric events --by type --format csv | tail -n +2 | LC_ALL=C sort
  "$GHSIFT" stats --store "$1" --format json | python3 -c 'import json, sys; print("(bad),%d" % json.load(sys.stdin)["bad_lines"])'
}

# verify_by_type LABEL EXPECTED_JSON STORE: exits 3 (VERIFY FAILED) unless ghsift's events by
# type and bad lines in STORE equal the expected file's.
verify_by_type() {
  local label=$1 expected=$2 store=$3 diffs
  if ! diffs=$(diff <(by_type_of_json "$expected") <(by_type_of_store "$store")); then
    echo "VERIFY FAILED: $label: ghsift's events by type differ from $expected (< expected, > ghsift):" >&2
    echo "$diffs" >&2
    exit 3
  fi
  log "verified $label: events by type and bad lines equal $(basename "$expected")"
}

# ensure_gen_corpus DIR GEN_OPTIONS...: a generated corpus in DIR (`ghsift gen --out DIR
# GEN_OPTIONS`, .json.gz hours and truth.json), reused when DIR/gen_args records the same
# options. DIR is removed and generated again only when it is ours (it holds a truth.json or a
# gen_args stamp); any other non-empty directory, and anything under ../shared, is refused
# (exit 2), never removed.
ensure_gen_corpus() {
  local dir=$1 args
  shift
  args="$*"
  if [[ -f "$dir/truth.json" && -f "$dir/gen_args" && $(cat "$dir/gen_args") == "$args" ]]; then
    return 0
  fi
  local real_dir shared_dir
  real_dir=$(realpath -m "$dir")
  shared_dir=$(realpath -m "$ROOT/../shared")
  if [[ $real_dir == "$shared_dir" || $real_dir == "$shared_dir"/* ]]; then
    echo "bench: refusing to generate into $dir (under $shared_dir, which is read only by path)" >&2
    exit 2
  fi
  if [[ -d "$dir" && -n $(ls -A "$dir") && ! -f "$dir/truth.json" && ! -f "$dir/gen_args" ]]; then
    echo "bench: refusing to replace $dir: it is not a generated corpus (no truth.json, no gen_args)" >&2
    exit 2
  fi
  log "generating ghsift gen $args into $dir"
  rm -rf "$dir"
  "$GHSIFT" gen --out "$dir" "$@" >&2
  printf '%s' "$args" > "$dir/gen_args"
}
