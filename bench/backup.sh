#!/usr/bin/env bash
# What `ghsift backup` and `ghsift restore` cost, against `cp -a` of the same store in the same run.
#
#   bench/backup.sh [--hours 8] [--events-per-hour 100000] [--rounds 3] [--seed 11]
#                   [--ghsift PATH] [--build-dir build-bench] [--work bench/results/backup]
#
# Generates hours+1 hours of issue lifecycle events (`ghsift gen --lifecycle-share 1 --pr-share
# 0`, as bench/query_scale.sh: about 30,000 new issues per 100,000-event hour), ingests the first
# `hours` of them with --all-repos into a store, then, `rounds` times, alternating: `cp -a` of the
# store followed by `sync` (the reference: a backup writes its files to disk before it says it is
# done) and a first backup into a new backup directory. Then ingests the last hour (a day's
# cron runs, in small) and, per backup directory, times the second backup (it copies only the new
# table files) and a restore of it into a new store, whose answers (`query --by
# repo,month,category`, `query --metric events --by type`, `stats --format json` without the sizes)
# must equal the store's byte for byte (exit 3, VERIFY FAILED, otherwise).
# Output: a Markdown table on stdout (medians, and each as a share of `cp -a`'s median); the
# corpus and stores stay in the work folder (not committed) for later runs with the same arguments.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HOURS=8
EVENTS=100000
ROUNDS=3
SEED=11
BUILD_DIR="$ROOT/build-bench"
WORK="$ROOT/bench/results/backup"

usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --hours) HOURS=$2; shift 2 ;;
    --events-per-hour) EVENTS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --ghsift) GHSIFT=$2; shift 2 ;;
    --build-dir) BUILD_DIR=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "backup.sh: unknown argument '$1'" >&2; usage 2 ;;
  esac
done
log() { printf '[backup] %s\n' "$*" >&2; }

source "$ROOT/bench/lib.sh"
ensure_ghsift

mkdir -p "$WORK"
CORPUS="$WORK/lifecycle-h$((HOURS + 1))-e$EVENTS-s$SEED"
if [[ ! -f "$CORPUS/truth.json" ]]; then
  log "generating $((HOURS + 1)) hours of $EVENTS events"
  rm -rf "$CORPUS"
  "$GHSIFT" gen --out "$CORPUS" --hours $((HOURS + 1)) --events-per-hour "$EVENTS" --seed "$SEED" \
    --lifecycle-share 1 --pr-share 0 >/dev/null
fi
mapfile -t HOUR_FILES < <(ls "$CORPUS"/*.json.gz | sort -V)
FIRST=("${HOUR_FILES[@]:0:$HOURS}")
LAST=${HOUR_FILES[$HOURS]}

STORE="$WORK/store"
rm -rf "$STORE" "$WORK"/copy-* "$WORK"/backups-* "$WORK"/restored-*
log "ingesting $HOURS hours"
"$GHSIFT" ingest -q --all-repos --store "$STORE" "${FIRST[@]}"

seconds() { local start=$EPOCHREALTIME; "$@" >/dev/null 2>&1; echo "$EPOCHREALTIME - $start" | bc; }
answers() {
  "$GHSIFT" query --store "$1" --kind all --by repo,month,category --format csv
  "$GHSIFT" query --store "$1" --metric events --by type --format csv
  "$GHSIFT" stats --store "$1" --format json | grep -v -e store_bytes -e compressed_bytes
}

STORE_BYTES=$(du -sb "$STORE" | cut -f1)
cp_times=() full_times=()
for ((r = 1; r <= ROUNDS; r++)); do
  sync
  cp_times+=("$(seconds sh -c 'cp -a "$1" "$2" && sync' sh "$STORE" "$WORK/copy-$r")")
  sync
  full_times+=("$(seconds "$GHSIFT" backup --store "$STORE" --to "$WORK/backups-$r")")
  rm -rf "$WORK/copy-$r"
done

log "ingesting one more hour"
"$GHSIFT" ingest -q --all-repos --store "$STORE" "$LAST"
expected=$(answers "$STORE")
incr_times=() restore_times=() copied=""
for ((r = 1; r <= ROUNDS; r++)); do
  sync
  incr_times+=("$(seconds "$GHSIFT" backup --store "$STORE" --to "$WORK/backups-$r")")
  copied=$("$GHSIFT" backup --to "$WORK/backups-$r" --list --format json | sed -nE 's/.*"backup": 2,.*"new_bytes": ([0-9]+).*/\1/p')
  sync
  restore_times+=("$(seconds "$GHSIFT" restore --from "$WORK/backups-$r" --store "$WORK/restored-$r")")
  if [[ "$(answers "$WORK/restored-$r")" != "$expected" ]]; then
    echo "VERIFY FAILED: the store restored from backups-$r answers otherwise than the store" >&2
    exit 3
  fi
  rm -rf "$WORK/restored-$r"
done

med() { printf '%s\n' "$@" | median; }
CP=$(med "${cp_times[@]}")
share() { printf '%.2f' "$(echo "scale=4; $1 / $CP" | bc)"; }
FULL=$(med "${full_times[@]}") INCR=$(med "${incr_times[@]}") RESTORE=$(med "${restore_times[@]}")
echo "| store | cp -a, sync | first backup | second backup (one hour later) | restore | answers |"
echo "|---|---|---|---|---|---|"
printf '| %s hours, %s MB | %.2f s (1.00) | %.2f s (%s) | %.2f s (%s); copied %s MB | %.2f s (%s) | identical |\n' \
  "$HOURS" "$((STORE_BYTES / 1000000))" "$CP" "$FULL" "$(share "$FULL")" "$INCR" "$(share "$INCR")" \
  "$((copied / 1000000))" "$RESTORE" "$(share "$RESTORE")"
