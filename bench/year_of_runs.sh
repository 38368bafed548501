#!/usr/bin/env bash
# An operator's year of hourly cron runs, end to end: N generated hours (default 8,760, a year)
# served by a local HTTP mirror, and N `ghsift ingest` runs, each as tools/cron/ghsift-hourly
# makes it (`--quiet --from <25 h before> --to <the hour>`: the last day's hours, 25 of them held
# and skipped by name), one after the other into one store. Samples the time of every run and,
# every --every runs, the store's size, its file count and a run's peak RSS and --timings; at the
# end, the time of the first and the last tenth of the runs and the answers of a query and stats.
#   bench/year_of_runs.sh [--hours 8760] [--events-per-hour 300] [--every 500] [--work DIR] [--ghsift PATH]
# Writes runs.csv (run,seconds) and samples.csv in the work directory (default: a temporary one,
# removed at the end unless --work is given).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
hours=8760 events=300 every=500 work=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --hours) hours="$2"; shift 2 ;;
    --events-per-hour) events="$2"; shift 2 ;;
    --every) every="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --ghsift) GHSIFT="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
log() { echo "year_of_runs: $*" >&2; }
source "$ROOT/bench/lib.sh"
ensure_ghsift
if [[ -z "$work" ]]; then
  work="$(mktemp -d)"
  trap 'kill "${server:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
else
  rm -rf "$work" && mkdir -p "$work"
  trap 'kill "${server:-0}" 2>/dev/null || true' EXIT
fi

log "generating $hours hours of $events events from 2024-01-01T00"
"$GHSIFT" gen --out "$work/hours" --hours "$hours" --events-per-hour "$events" --start 2024-01-01T00 --seed 11 \
  >/dev/null 2>&1
rm -f "$work/hours/truth.json"
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
/usr/bin/python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/hours" >/dev/null 2>&1 &
server=$!
for _ in $(seq 50); do
  curl -sf -o /dev/null "http://127.0.0.1:$port/" && break
  sleep 0.1
done

hour_name() {  # hour_name K: the name (YYYY-MM-DD-H) of the K-th hour from 2024-01-01T00, UTC
  date -u -d "2024-01-01 00:00 UTC + $1 hours" +%Y-%m-%d-%-H
}
store="$work/store"
echo "run,seconds" >"$work/runs.csv"
echo "run,store_bytes,store_files,peak_rss_kb,seconds,timings" >"$work/samples.csv"
log "ingesting: $hours runs, one an hour (sampled every $every runs)"
for ((run = 0; run < hours; run++)); do
  from=$(hour_name $((run > 25 ? run - 25 : 0)))
  to=$(hour_name "$run")
  args=(ingest --quiet --store "$store" --from "$from" --to "$to" --source "http://127.0.0.1:$port")
  if (((run + 1) % every == 0 || run == 0)); then
    start=$(date +%s.%N)
    /usr/bin/time -f "%M" -o "$work/rss" "$GHSIFT" "${args[@]}" --timings 2>"$work/err" ||
      { cat "$work/err" >&2; exit 1; }
    end=$(date +%s.%N)
    seconds=$(echo "$end - $start" | bc -l)
    timings=$(grep -o 'timings: .*' "$work/err" | tr ',' ';' || true)
    printf '%d,%s,%s,%s,%.3f,%s\n' "$((run + 1))" "$(du -sb "$store" | cut -f1)" "$(ls "$store" | wc -l)" \
      "$(tail -1 "$work/rss")" "$seconds" "$timings" >>"$work/samples.csv"
    log "run $((run + 1)): $(printf '%.3f' "$seconds") s, store $(du -sh "$store" | cut -f1)"
  else
    start=$(date +%s.%N)
    "$GHSIFT" "${args[@]}" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    end=$(date +%s.%N)
    seconds=$(echo "$end - $start" | bc -l)
  fi
  printf '%d,%.4f\n' "$((run + 1))" "$seconds" >>"$work/runs.csv"
done

tenth=$((hours / 10 > 0 ? hours / 10 : 1))
# (awk reads the whole file: `head` would close the pipe early, a SIGPIPE that pipefail reports)
first=$(awk -F, -v n="$tenth" 'NR > 1 && NR <= n + 1 { print $2 }' "$work/runs.csv" | median)
last=$(awk -F, 'NR > 1 { print $2 }' "$work/runs.csv" | tail -n "$tenth" | median)
log "median run: first tenth $first s, last tenth $last s (ratio $(echo "$last / $first" | bc -l | cut -c1-4))"
"$GHSIFT" stats --store "$store" --coverage --check >"$work/coverage" 2>&1 ||
  { cat "$work/coverage" >&2; log "coverage check failed"; exit 1; }
events_in_store=$("$GHSIFT" query --store "$store" --metric events --format csv | tail -1)
log "store: $("$GHSIFT" stats --store "$store" | grep -E '^(files|events|reports|store_bytes) ' | tr -s ' ' | tr '\n' ' ')"
log "events counted $events_in_store, generated $((hours * events)); samples in $work/samples.csv"
[[ "$events_in_store" == "$((hours * events))" ]] || { log "event count differs"; exit 1; }
