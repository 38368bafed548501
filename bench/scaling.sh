#!/usr/bin/env bash
# Does `ghsift ingest` scale? Cost per GB from 1 to 48 hours of input, peak memory, and the
# speed-up from one thread to two, all measured in one run on the same generated files.
#
#   bench/scaling.sh [--hours "1 4 48"] [--events-per-hour 40000] [--rounds 3]
#                    [--thread-hours 8] [--build-dir build-bench] [--work bench/results/scaling]
#
# For each corpus size the first N hours of one 48-hour corpus (ghsift gen, fixed seed) are
# ingested into a fresh store (--all-repos, default rules, --threads 2), --rounds times; the
# median wall time gives seconds per uncompressed GB. Then the --thread-hours corpus is ingested
# with --threads 1 and --threads 2, alternated, and the ratio of their medians is the speed-up.
# igzip -dc over the same files (two at a time) is timed alongside as the reference.
# Output: a Markdown table on stdout, summary.md/.csv in the work folder (not committed).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SIZES="1 4 48"
EVENTS=40000
ROUNDS=3
THREAD_HOURS=8
BUILD_DIR="$ROOT/build-bench"
WORK="$ROOT/bench/results/scaling"
SEED=48

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --hours) SIZES=$2; shift 2 ;;
    --events-per-hour) EVENTS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --thread-hours) THREAD_HOURS=$2; shift 2 ;;
    --build-dir) BUILD_DIR=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "scaling.sh: unknown argument '$1'" >&2; usage 2 ;;
  esac
done
log() { printf '[scaling] %s\n' "$*" >&2; }
command -v igzip >/dev/null || { echo "scaling.sh: igzip missing (apt-get install isal)" >&2; exit 1; }

source "$ROOT/bench/lib.sh"
ensure_ghsift

MAX=0
for h in $SIZES $THREAD_HOURS; do ((h > MAX)) && MAX=$h; done
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
CORPUS="$WORK/corpus-h$MAX-e$EVENTS-s$SEED"
if [[ ! -f "$CORPUS/truth.json" ]]; then
  log "generating $MAX hours x $EVENTS events into $CORPUS"
  rm -rf "$CORPUS"
  "$GHSIFT" gen --out "$CORPUS" --hours "$MAX" --events-per-hour "$EVENTS" --seed "$SEED"
fi
mapfile -t ALL < <(ls "$CORPUS"/*.json.gz | sort -V)

# first_hours N: a directory of symlinks to the first N hourly files.
first_hours() {
  local dir="$WORK/first-$1"
  if [[ ! -d "$dir" ]]; then
    mkdir -p "$dir"
    for ((i = 0; i < $1; i++)); do ln -s "${ALL[$i]}" "$dir/"; done
  fi
  echo "$dir"
}
bytes_of() { local n=0; for f in "$1"/*.json.gz; do n=$((n + $(igzip -dc "$f" | wc -c))); done; echo $n; }

# timed OUTVAR_TIME OUTVAR_RSS command...: wall seconds and peak RSS (KB) of one run.
timed() {
  local tf; tf=$(mktemp)
  /usr/bin/time -f '%e %M' -o "$tf" "${@:3}" >/dev/null 2>&1
  read -r "$1" "$2" <"$tf"
  rm -f "$tf"
}
ingest() {  # ingest DIR THREADS -> "seconds rss"
  rm -rf "$WORK/store"
  local t m
  timed t m "$GHSIFT" ingest --quiet --all-repos --threads "$2" --store "$WORK/store" "$1"
  echo "$t $m"
}
unzip_limit() {  # the decompression reference: igzip -dc, two files at a time
  local t m
  timed t m bash -c "ls '$1'/*.json.gz | xargs -P 2 -n 1 igzip -dc > /dev/null"
  echo "$t"
}

CSV="$WORK/summary.csv"
echo "hours,uncompressed_bytes,ghsift_s,ghsift_s_per_gb,peak_rss_mb,igzip_s,ghsift_over_igzip_throughput" >"$CSV"
for h in $SIZES; do
  dir=$(first_hours "$h")
  bytes=$(bytes_of "$dir")
  g=() r=() z=()
  for ((k = 0; k < ROUNDS; k++)); do
    read -r t m < <(ingest "$dir" 2)
    g+=("$t"); r+=("$m"); z+=("$(unzip_limit "$dir")")
  done
  gs=$(printf '%s\n' "${g[@]}" | median)
  rss=$(printf '%s\n' "${r[@]}" | sort -n | tail -1)
  zs=$(printf '%s\n' "${z[@]}" | median)
  per_gb=$(awk -v s="$gs" -v b="$bytes" 'BEGIN { printf "%.3f", s / (b / 1e9) }')
  share=$(awk -v g="$gs" -v z="$zs" 'BEGIN { printf "%.2f", z / g }')
  echo "$h,$bytes,$gs,$per_gb,$((rss / 1024)),$zs,$share" >>"$CSV"
  log "$h h: $bytes bytes, ghsift $gs s ($per_gb s/GB, peak $((rss / 1024)) MB), igzip $zs s"
done

dir=$(first_hours "$THREAD_HOURS")
one=() two=()
for ((k = 0; k < ROUNDS; k++)); do
  read -r t _ < <(ingest "$dir" 1); one+=("$t")
  read -r t _ < <(ingest "$dir" 2); two+=("$t")
done
s1=$(printf '%s\n' "${one[@]}" | median)
s2=$(printf '%s\n' "${two[@]}" | median)
speedup=$(awk -v a="$s1" -v b="$s2" 'BEGIN { printf "%.2f", a / b }')
echo "threads,$THREAD_HOURS,$s1,$s2,$speedup" >"$WORK/threads.csv"
rm -rf "$WORK/store"

{
  echo "Median of $ROUNDS rounds; ghsift ingest --all-repos --threads 2 into a fresh store; igzip -dc two files at a time on the same files."
  echo
  echo "| hours | uncompressed GB | ghsift s | s per GB | peak RSS MB | igzip s | ghsift throughput / igzip |"
  echo "|---:|---:|---:|---:|---:|---:|---:|"
  tail -n +2 "$CSV" | while IFS=, read -r h b g p m z x; do
    echo "| $h | $(awk -v b="$b" 'BEGIN { printf "%.2f", b / 1e9 }') | $g | $p | $m | $z | $x |"
  done
  echo
  echo "Threads ($THREAD_HOURS hours): --threads 1 $s1 s, --threads 2 $s2 s: speed-up ${speedup}x."
} | tee "$WORK/summary.md"
