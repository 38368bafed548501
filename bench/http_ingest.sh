#!/usr/bin/env bash
# Streaming ingest over HTTP against ingest of the same files from disk, in the same run.
#   bench/http_ingest.sh [--hours 24] [--events-per-hour 10000] [--rounds 3] [--connections "1 2 4 8"]
#                        [--latency-ms 0] [--rate-mbps 0]
# Serves a generated day from tests/io/fault_http_server.py (no faults) on 127.0.0.1, then for
# each round ingests it from disk and over HTTP with each --connections value into fresh stores,
# and prints the median seconds and peak RSS of each (GNU time). Also checks that every HTTP
# store answers like the disk store before reporting a time for it. --latency-ms and --rate-mbps
# make the local server answer like a distant one (a wait before each answer, each connection's
# body paced to that many MB/s), to choose --connections for the real archive.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
hours=24 events=10000 rounds=3 connections="1 2 4 8" latency_ms=0 rate_mbps=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --hours) hours="$2"; shift 2 ;;
    --events-per-hour) events="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --latency-ms) latency_ms="$2"; shift 2 ;;
    --rate-mbps) rate_mbps="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
log() { echo "http_ingest: $*" >&2; }
source "$ROOT/bench/lib.sh"
ensure_ghsift

work="$(mktemp -d)"
server_pid=""
cleanup() { [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
log "generating $hours hours of $events events"
"$GHSIFT" gen --out "$work/hours" --hours "$hours" --events-per-hour "$events" --seed 7 >/dev/null 2>&1
python3 "$ROOT/tests/io/fault_http_server.py" --dir "$work/hours" --idle 600 --lifetime 7200 \
  --latency-ms "$latency_ms" --rate-mbps "$rate_mbps" >"$work/port" &
server_pid=$!
for _ in $(seq 100); do [[ -s "$work/port" ]] && break; sleep 0.1; done
base="http://127.0.0.1:$(head -1 "$work/port")"
last=$((hours - 1))
to="2024-01-01-$last"
(( hours > 24 )) && { echo "at most 24 hours (one day)" >&2; exit 2; }

answers() { "$GHSIFT" query --store "$1" --metric events --by repo,day,type --format csv; "$GHSIFT" query --store "$1" --kind all --by repo,month,category,state --format csv; }
# run NAME ARGS...: one timed ingest into a fresh store; appends "seconds rss_kb" to $work/NAME.
run() {
  local name="$1"; shift
  rm -rf "$work/store"
  /usr/bin/time -f "%e %M" -o "$work/t" "$GHSIFT" ingest -q --all-repos --store "$work/store" "$@"
  cat "$work/t" >>"$work/$name"
  if [[ "$name" == disk ]]; then answers "$work/store" >"$work/disk.answers"
  elif ! cmp -s <(answers "$work/store") "$work/disk.answers"; then echo "$name: store differs from the disk ingest" >&2; exit 1; fi
}
for r in $(seq "$rounds"); do
  log "round $r"
  run disk "$work/hours"
  for c in $connections; do run "http-$c" --from 2024-01-01 --to "$to" --source "$base" --connections "$c"; done
done
bytes=$(du -cb "$work"/hours/*.json.gz | tail -1 | cut -f1)
printf '%-10s %10s %12s %14s\n' run seconds "peak RSS MB" "x disk speed"
disk_s=$(cut -d' ' -f1 "$work/disk" | median)
for name in disk $(for c in $connections; do echo "http-$c"; done); do
  s=$(cut -d' ' -f1 "$work/$name" | median)
  m=$(cut -d' ' -f2 "$work/$name" | median)
  printf '%-10s %10.2f %12.0f %14.2f\n' "$name" "$s" "$(echo "$m / 1024" | bc -l)" "$(echo "$disk_s / $s" | bc -l)"
done
log "$hours hours, $((bytes / 1000000)) MB of gzip; server latency $latency_ms ms, $rate_mbps MB/s per connection (0: unshaped)"
