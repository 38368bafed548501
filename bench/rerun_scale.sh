#!/usr/bin/env bash
# A re-run over an archive of many ingested files: known by name, size and modification time,
# none of them read. Generates N small hours (default 10,000), ingests them, then times a re-run
# (every file skipped) and a re-run with --verify (every file hashed again).
#   bench/rerun_scale.sh [--files 10000] [--events-per-hour 20]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
files=10000 events=20
while [[ $# -gt 0 ]]; do
  case "$1" in
    --files) files="$2"; shift 2 ;;
    --events-per-hour) events="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
log() { echo "rerun_scale: $*" >&2; }
source "$ROOT/bench/lib.sh"
ensure_ghsift
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
log "generating $files hours of $events events"
"$GHSIFT" gen --out "$work/hours" --hours "$files" --events-per-hour "$events" --seed 5 >/dev/null 2>&1
rm -f "$work/hours/truth.json"
timed() {  # timed LABEL ARGS...: seconds of one ingest, and its summary line
  local label="$1" start end
  shift
  start=$(date +%s.%N)
  "$GHSIFT" ingest --all-repos --store "$work/store" "$@" "$work/hours" 2>"$work/err" || true
  end=$(date +%s.%N)
  printf '%-22s %8.2f s   %s\n' "$label" "$(echo "$end - $start" | bc -l)" "$(grep -o 'ingested [0-9]* files ([0-9]* skipped, [0-9]* failed' "$work/err")"
}
timed first-ingest
timed rerun
timed rerun-verify --verify
