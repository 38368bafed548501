#!/usr/bin/env bash
# How long `ghsift merge` takes per partial store, and how much memory, as the partials grow.
#
#   bench/merge_scale.sh [--partials 4] [--hours-per-partial 4] [--events-per-hour 100000]
#                        [--seed 7] [--ghsift PATH] [--build-dir build-bench]
#                        [--work bench/results/merge-scale] [--corpus DIR] [--reference STORE] [--once-only]
#
# Generates partials x hours-per-partial hours of issue lifecycle events (`ghsift gen
# --lifecycle-share 1 --pr-share 0`, as bench/query_scale.sh: about 30,000 new issues per
# 100,000-event hour, each issue's later events in later hours), ingests consecutive runs of
# hours-per-partial hours into partial stores (`ingest --partial --all-repos`, a worker's share
# of a cluster run) and all hours into one store (`ingest --all-repos`), the reference. Then
# merges the partials into a new store one `ghsift merge` per partial, each timed with
# /usr/bin/time (wall seconds, peak RSS), then all of them into another new store with one
# `ghsift merge` (a cluster's reduce step: one rollup refresh at the end), and checks that both
# merged stores answer `query --by repo,month,category`, `query --metric events --by type` and
# `stats` byte for byte as the single ingest does (exit 3, VERIFY FAILED, otherwise). Corpus, partials and reference
# are reused by later runs with the same arguments; --ghsift times another build (before/after).
# --corpus DIR takes the hours from DIR instead of generating them (it must hold exactly partials x
# hours-per-partial of them), and --reference STORE a store already ingested from them (for
# example bench/query_scale.sh's ten-million-issue store) instead of ingesting the reference
# again; --once-only skips the one-merge-per-partial run.
# Output: a Markdown table on stdout, summary.md/.csv in the work folder (not committed).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PARTIALS=4
HOURS=4
EVENTS=100000
SEED=7
BUILD_DIR="$ROOT/build-bench"
WORK="$ROOT/bench/results/merge-scale"
CORPUS_ARG=""
REFERENCE_ARG=""
ONCE_ONLY=0

usage() { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --partials) PARTIALS=$2; shift 2 ;;
    --hours-per-partial) HOURS=$2; shift 2 ;;
    --events-per-hour) EVENTS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --ghsift) GHSIFT=$2; shift 2 ;;
    --build-dir) BUILD_DIR=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    --corpus) CORPUS_ARG=$(cd "$2" && pwd); shift 2 ;;
    --reference) REFERENCE_ARG=$(cd "$2" && pwd); shift 2 ;;
    --once-only) ONCE_ONLY=1; shift ;;
    -h|--help) usage 0 ;;
    *) echo "merge_scale.sh: unknown argument '$1'" >&2; usage 2 ;;
  esac
done
log() { printf '[merge-scale] %s\n' "$*" >&2; }
[[ -x /usr/bin/time ]] || { echo "merge_scale.sh: /usr/bin/time is missing (Debian package time, see tools/setup.sh)" >&2; exit 2; }

source "$ROOT/bench/lib.sh"
ensure_ghsift

mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
TOTAL_HOURS=$((PARTIALS * HOURS))
NAME="p$PARTIALS-h$HOURS-e$EVENTS-s$SEED"
CORPUS="${CORPUS_ARG:-$WORK/corpus-h$TOTAL_HOURS-e$EVENTS-s$SEED}"
SINGLE="${REFERENCE_ARG:-$WORK/single-h$TOTAL_HOURS-e$EVENTS-s$SEED}"
MERGED="$WORK/merged-$NAME"
MERGED_ONCE="$WORK/merged-once-$NAME"

if [[ -z "$CORPUS_ARG" && ! -f "$CORPUS/truth.json" ]]; then
  log "generating $TOTAL_HOURS hours x $EVENTS events into $CORPUS"
  rm -rf "$CORPUS"
  "$GHSIFT" gen --out "$CORPUS" --hours "$TOTAL_HOURS" --events-per-hour "$EVENTS" --seed "$SEED" \
    --lifecycle-share 1 --pr-share 0 --compress zst --level 1
fi
mapfile -t FILES < <(find "$CORPUS" -maxdepth 1 -name '*.json.zst' | LC_ALL=C sort)
[[ ${#FILES[@]} -eq $TOTAL_HOURS ]] || { echo "merge_scale.sh: $CORPUS holds ${#FILES[@]} hours, not $TOTAL_HOURS" >&2; exit 2; }

# done_store DIR: whether DIR holds a store that a finished ingest left (its stamp).
done_store() { [[ -f "$1/.merge-scale-done" ]]; }
if [[ -n "$REFERENCE_ARG" ]]; then
  "$GHSIFT" stats --store "$SINGLE" >/dev/null || { echo "merge_scale.sh: --reference $SINGLE is not a store" >&2; exit 2; }
elif ! done_store "$SINGLE"; then
  log "ingesting all $TOTAL_HOURS hours into $SINGLE (the reference)"
  rm -rf "$SINGLE"
  /usr/bin/time -f '[merge-scale] single ingest: %e s wall, %M KB peak RSS' \
    "$GHSIFT" ingest --quiet --all-repos --store "$SINGLE" "${FILES[@]}"
  touch "$SINGLE/.merge-scale-done"
fi
PARTIAL_DIRS=()
for ((p = 0; p < PARTIALS; p++)); do
  dir="$WORK/partial-$NAME-$p"
  PARTIAL_DIRS+=("$dir")
  done_store "$dir" && continue
  log "ingesting hours $((p * HOURS + 1))-$(((p + 1) * HOURS)) into partial $dir"
  rm -rf "$dir"
  /usr/bin/time -f "[merge-scale] partial $p: %e s wall, %M KB peak RSS" \
    "$GHSIFT" ingest --quiet --all-repos --partial "$dir" "${FILES[@]:$((p * HOURS)):$HOURS}"
  touch "$dir/.merge-scale-done"
done

stat_of() { "$GHSIFT" stats --store "$1" --format json | python3 -c "import json, sys; print(json.load(sys.stdin)['$2'])"; }

rm -rf "$MERGED"
CSV="$WORK/summary-$NAME.csv"
echo "partial,reports,events,partial_mb,merge_s,peak_rss_mb" >"$CSV"
for ((p = 0; p < PARTIALS * (1 - ONCE_ONLY); p++)); do
  dir=${PARTIAL_DIRS[$p]}
  timing=$(mktemp)
  if ! /usr/bin/time -o "$timing" -f '%e %M' "$GHSIFT" merge --store "$MERGED" "$dir" 2>"$WORK/merge.err"; then
    cat "$WORK/merge.err" >&2
    echo "merge_scale.sh: merging $dir failed" >&2
    exit 1
  fi
  read -r seconds rss_kb <"$timing"
  rm -f "$timing"
  reports=$(stat_of "$dir" reports)
  events=$(stat_of "$dir" events)
  mb=$(du -sm --exclude='*.log' "$dir" | cut -f1)
  echo "$p,$reports,$events,$mb,$seconds,$((rss_kb / 1024))" >>"$CSV"
  log "partial $p: $reports reports, $mb MB: merged in $seconds s, peak RSS $((rss_kb / 1024)) MB"
done

rm -rf "$MERGED_ONCE"
timing=$(mktemp)
if ! /usr/bin/time -o "$timing" -f '%e %M' "$GHSIFT" merge --timings --store "$MERGED_ONCE" "${PARTIAL_DIRS[@]}" 2>"$WORK/merge.err"; then
  cat "$WORK/merge.err" >&2
  echo "merge_scale.sh: merging all partials at once failed" >&2
  exit 1
fi
read -r ONCE_S ONCE_KB <"$timing"
rm -f "$timing"
log "all $PARTIALS partials in one merge: $ONCE_S s, peak RSS $((ONCE_KB / 1024)) MB"
# Where its time went: each partial's copy, the rollup refresh, the flush (merge --timings).
grep 'timings' "$WORK/merge.err" | sed 's/^/[merge-scale] /' >&2 || true

# answers STORE: what the store answers, sizes on disk left out (they depend on how data arrived).
answers() {
  "$GHSIFT" query --store "$1" --by repo,month,category --format csv
  "$GHSIFT" query --store "$1" --metric events --by type --format csv
  "$GHSIFT" stats --store "$1" --format json | grep -v '"store_bytes"'
}
VERIFIED=("$MERGED_ONCE")
[[ $ONCE_ONLY -eq 1 ]] || VERIFIED+=("$MERGED")
for merged in "${VERIFIED[@]}"; do
  if ! diffs=$(diff <(answers "$SINGLE") <(answers "$merged")); then
    echo "VERIFY FAILED: $merged answers otherwise than the single ingest (< single, > merged):" >&2
    echo "$diffs" | head -20 >&2
    exit 3
  fi
done
REPORTS=$(stat_of "$MERGED_ONCE" reports)
log "verified: the merged store(s) ($REPORTS reports) answer as the single ingest, byte for byte"

{
  echo "$PARTIALS partials of $HOURS generated hours x $EVENTS events (seed $SEED), merged into a new store of $REPORTS reports; answers equal a single ingest's."
  echo
  echo "| partial | reports | events | on disk MB | merge s | peak RSS MB |"
  echo "|---:|---:|---:|---:|---:|---:|"
  tail -n +2 "$CSV" | while IFS=, read -r p r e mb s rss; do echo "| $p | $r | $e | $mb | $s | $rss |"; done
  awk -F, 'NR > 1 { s += $5; n++; if ($6 > m) m = $6 } END { if (n) printf "\nOne merge per partial: mean %.2f s per partial, highest peak RSS %d MB.\n", s / n, m }' "$CSV"
  awk -v s="$ONCE_S" -v p="$PARTIALS" -v kb="$ONCE_KB" 'BEGIN { printf "All partials in one merge: %.2f s (%.2f s per partial), peak RSS %d MB.\n", s, s / p, kb / 1024 }'
} | tee "$WORK/summary-$NAME.md"
