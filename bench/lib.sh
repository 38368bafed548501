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

# median: the median of the numbers on stdin, one per line (nothing when there is none).
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit; if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# timing_of KEY FILE: the seconds that follow KEY in each `ghsift ingest|merge --timings` line of
# FILE, one a line ("scan and commit", "last chunk", "rollup refresh", "flush", "compactions",
# "total", "rules", "store open"); nothing for a line without that part. Each part is looked up
# by its name, so a part added to the line breaks no script.
timing_of() { sed -nE "/timings:/s/.*$1 ([0-9.]+) s.*/\1/p" "$2"; }

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

# ------------------------------------------------------------------ peers (bench/peers)
# The peers, each a Node script bench/peers/<name>.cjs answering the same question (distinct
# flagged reports per repository, see bench/peers/words.txt). One entry per peer: add a name here
# and a script there.
PEER_NAMES=(chdb duckdb)
PEERS_DIR="$ROOT/bench/peers"

# ensure_peers: sets PEERS to the peers that can run (installing bench/peers' npm packages, at
# the versions its package.json pins, when they are missing) and PEERS_NOTE to why the others
# cannot. Never fails: a missing node or an npm error leaves PEERS empty and says so.
ensure_peers() {
  PEERS=()
  PEERS_NOTE=""
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    PEERS_NOTE="node and npm are not installed (apt-get install nodejs npm), so chDB and DuckDB are not timed"
    log "$PEERS_NOTE"
    return 0
  fi
  if ! npm ls --prefix "$PEERS_DIR" >/dev/null 2>&1; then
    log "installing the peers' npm packages into $PEERS_DIR/node_modules (chDB, DuckDB; about 620 MB)"
    local npm_log
    npm_log=$(mktemp "${TMPDIR:-/tmp}/ghsift-npm.XXXXXX")
    if ! npm install --prefix "$PEERS_DIR" --no-package-lock --no-audit --no-fund --loglevel=error >"$npm_log" 2>&1; then
      PEERS_NOTE="npm install in $PEERS_DIR failed ($(tail -3 "$npm_log" | tr '\n' ' ')), so chDB and DuckDB are not timed"
      log "$PEERS_NOTE"
      rm -f "$npm_log"
      return 0
    fi
    rm -f "$npm_log"
  fi
  local peer out
  for peer in "${PEER_NAMES[@]}"; do
    if out=$(node "$PEERS_DIR/$peer.cjs" --version 2>&1); then
      PEERS+=("$peer")
      log "peer $peer: $out"
    else
      PEERS_NOTE+="${PEERS_NOTE:+; }$peer cannot start: $(tail -2 <<<"$out" | tr '\n' ' ')"
      log "$peer skipped: cannot start: $out"
    fi
  done
}

# peer_words: the alternatives of the peers' regex, "slow|slower|...", from bench/peers/words.txt
# (bench/peers/common.cjs builds (?i)\b(...)\b from the same list).
peer_words() {
  grep -v -e '^#' -e '^[[:space:]]*$' "$PEERS_DIR/words.txt" | paste -sd'|'
}

# run_peer PEER THREADS LIST OUT_JSON: the peer over the files of LIST (one path a line), its JSON
# line (reports, repos, start_s, query_s; see bench/peers/common.cjs) into OUT_JSON.
run_peer() {
  node "$PEERS_DIR/$1.cjs" --threads "$2" --files "$3" > "$4"
}

# peer_field OUT_JSON FIELD: one member of a peer's JSON line.
peer_field() {
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

# verify_peers LABEL LIST THREADS: runs bench/peers/reference.py (Python, independent of the
# engines) and every peer of PEERS once over LIST (untimed) and exits 3 (VERIFY FAILED) unless
# each peer finds as many flagged reports in as many repositories as the reference; prints the
# answer (none found is said, not failed: hours before 2015 give little or no report text in this shape).
# Sets PEER_ANSWER to "N reports in M repositories".
verify_peers() {
  local label=$1 list=$2 threads=$3 peer expected this out
  PEER_ANSWER=""
  [[ ${#PEERS[@]} -gt 0 ]] || return 0
  out=$(mktemp "${TMPDIR:-/tmp}/ghsift-peer.XXXXXX")
  answer_of() { echo "$(peer_field "$1" reports) reports in $(peer_field "$1" repos) repositories"; }
  if ! python3 "$PEERS_DIR/reference.py" --files "$list" > "$out" 2>"$out.err"; then
    echo "VERIFY FAILED: $label: bench/peers/reference.py failed: $(tail -3 "$out.err")" >&2
    rm -f "$out" "$out.err"
    exit 3
  fi
  expected=$(answer_of "$out")
  for peer in "${PEERS[@]}"; do
    if ! run_peer "$peer" "$threads" "$list" "$out" 2>"$out.err"; then
      echo "VERIFY FAILED: $label: $peer failed: $(tail -3 "$out.err")" >&2
      rm -f "$out" "$out.err"
      exit 3
    fi
    this=$(answer_of "$out")
    if [[ $this != "$expected" ]]; then
      echo "VERIFY FAILED: $label: $peer found $this, the reference (bench/peers/reference.py) $expected" >&2
      rm -f "$out" "$out.err"
      exit 3
    fi
  done
  rm -f "$out" "$out.err"
  PEER_ANSWER=$expected
  log "verified $label: ${PEERS[*]} and the Python reference agree: $expected"
  [[ ${expected%% *} -gt 0 ]] || log "note: $label: no flagged report in these files (the peers' question reads the 2015-on layout)"
}
