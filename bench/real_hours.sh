#!/usr/bin/env bash
# ghsift against the decompression limit on REAL GH Archive hours and on a generated corpus, in
# the same run: does the generated data time like the real thing?
#
#   bench/real_hours.sh [--real DIR_OR_FILE]... [--years "2016"] [--rounds 5] [--threads 2]
#                       [--gen-hours 4] [--events-per-hour 6000] [--seed 20240101]
#                       [--gen-args "..."] [--no-gen] [--corpus DIR]
#                       [--build-dir build-bench | --ghsift PATH] [--out bench/results/real-DATE]
#
# Inputs (read in place, never copied or written): the real hours, by default the 2016 hours of
# ../shared/data/gharchive-real/hours; --real (repeatable) takes every .json.gz/.json.zst/.json
# of a directory, or one file; --years keeps only the files whose name starts with those years
# (default: 2016 with the default directory, all otherwise). Files are grouped by the year of
# their name (one "era" each); with several eras each is timed alone and all of them together.
# The generated corpus: ghsift gen --hours 4 --events-per-hour 6000 (about the uncompressed size
# of the four 2016 hours; --gen-args adds generator options, e.g. a profile), kept in
# bench/results/corpus/ and reused.
#
# Before timing, each set is ingested once (untimed, also warming the page cache) in both
# scopes, and ghsift's events by type and bad lines must equal an independent count: Python's
# json reader (tests/pipelines/count_real_events.py) for real hours, truth.json for generated
# ones. A mismatch prints VERIFY FAILED and exits 3.
#
# Then, for --rounds rounds, each set is timed with (in this order, under /usr/bin/time):
#   igzip     igzip -dc FILE > /dev/null, T files at a time: the decompression limit
#   all-repos ghsift ingest --quiet --timings --all-repos --threads T, into a fresh store
#   tracked   the same in the default scope (rules/repos.txt)
# and once per round ghsift's fixed cost: the same ingest of one generated 1-event hour.
# Reported per set and tool: median and best wall s, uncompressed MB/s, peak RSS, and
# "igzip share" = igzip s / ghsift s (the share of the decompression limit ghsift reaches,
# as issue 17 states its targets; 1.0 = at the limit), of the medians and of the bests.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED_HOURS="$ROOT/../shared/data/gharchive-real/hours"
REAL=()
YEARS=""
ROUNDS=5
THREADS=2
GEN_HOURS=4
EVENTS=6000
SEED=20240101
GEN_ARGS=""
WITH_GEN=1
CORPUS=""
BUILD_DIR="$ROOT/build-bench"
GHSIFT=""
OUT=""

usage() { sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --real) REAL+=("$2"); shift 2 ;;
    --years) YEARS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --gen-hours) GEN_HOURS=$2; shift 2 ;;
    --events-per-hour) EVENTS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --gen-args) GEN_ARGS=$2; shift 2 ;;
    --no-gen) WITH_GEN=0; shift ;;
    --corpus) CORPUS=$2; shift 2 ;;
    --build-dir) BUILD_DIR=$2; shift 2 ;;
    --ghsift) GHSIFT=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "real_hours.sh: unknown argument '$1' (valid: --real --years --rounds --threads --gen-hours" \
            "--events-per-hour --seed --gen-args --no-gen --corpus --build-dir --ghsift --out)" >&2; exit 2 ;;
  esac
done
log() { printf '[real_hours] %s\n' "$*" >&2; }
if [[ ${#REAL[@]} -eq 0 ]]; then
  REAL=("$SHARED_HOURS")
  [[ -n "$YEARS" ]] || YEARS=2016
fi
for tool in igzip python3 /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "real_hours.sh: $tool missing (apt-get install isal python3 time)" >&2; exit 2; }
done
source "$ROOT/bench/lib.sh"
ensure_ghsift

# ------------------------------------------------------------------ the real files, by era
FILES=()
for input in "${REAL[@]}"; do
  if [[ -d "$input" ]]; then
    while IFS= read -r f; do FILES+=("$f"); done < <(find "$input" -maxdepth 1 -type f \
      \( -name '*.json.gz' -o -name '*.json.zst' -o -name '*.json' \) | sort -V)
  elif [[ -f "$input" ]]; then
    FILES+=("$input")
  else
    echo "real_hours.sh: --real $input: no such file or directory" >&2; exit 2
  fi
done
declare -A ERA_FILES=()
for f in "${FILES[@]}"; do
  name=$(basename "$f")
  year=other
  [[ ! $name =~ ^([0-9]{4})- ]] || year=${BASH_REMATCH[1]}
  if [[ -n "$YEARS" && " $YEARS " != *" $year "* ]]; then continue; fi
  ERA_FILES[$year]+="$(cd "$(dirname "$f")" && pwd)/$name"$'\n'
done
mapfile -t ERAS < <(printf '%s\n' "${!ERA_FILES[@]}" | sort)
[[ ${#ERAS[@]} -gt 0 ]] || { echo "real_hours.sh: no real hours in ${REAL[*]} (years: ${YEARS:-all})" >&2; exit 2; }

[[ -n "$OUT" ]] || OUT="$ROOT/bench/results/real-$(date +%Y-%m-%d-%H%M%S)"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ghsift-real-hours.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# Sets: name, file list (one path a line), expected counts (JSON).
SETS=()
add_set() {  # add_set NAME FILE_LIST EXPECTED_JSON
  SETS+=("$1")
  cp "$2" "$WORK/$1.files"
  [[ -z "$3" ]] || cp "$3" "$WORK/$1.expected.json"
}
count_real() {  # count_real FILE_LIST OUT_JSON: the independent count
  mapfile -t list < "$1"
  python3 "$ROOT/tests/pipelines/count_real_events.py" "${list[@]}" > "$2"
}

if [[ $WITH_GEN -eq 1 ]]; then
  if [[ -z "$CORPUS" ]]; then
    tag=$(printf '%s' "$GEN_ARGS" | cksum | cut -d' ' -f1)
    CORPUS="$ROOT/bench/results/corpus/h${GEN_HOURS}-e${EVENTS}-s${SEED}${GEN_ARGS:+-a$tag}"
  fi
  # shellcheck disable=SC2086  # GEN_ARGS is a list of options
  ensure_gen_corpus "$CORPUS" --hours "$GEN_HOURS" --events-per-hour "$EVENTS" --seed "$SEED" $GEN_ARGS
  ls "$CORPUS"/*.json.gz | sort -V > "$WORK/gen.list"
  add_set generated "$WORK/gen.list" "$CORPUS/truth.json"
fi
for era in "${ERAS[@]}"; do
  printf '%s' "${ERA_FILES[$era]}" > "$WORK/era.list"
  count_real "$WORK/era.list" "$WORK/era.json"
  add_set "real-$era" "$WORK/era.list" "$WORK/era.json"
done
if [[ ${#ERAS[@]} -gt 1 ]]; then
  for era in "${ERAS[@]}"; do printf '%s' "${ERA_FILES[$era]}"; done > "$WORK/all.list"
  count_real "$WORK/all.list" "$WORK/all.json"
  add_set real-all "$WORK/all.list" "$WORK/all.json"
fi

# One generated 1-event hour: what an ingest costs whatever its input (start, rules, store).
"$GHSIFT" gen --out "$WORK/one" --hours 1 --events-per-hour 1 --seed 1 >/dev/null 2>&1
rm -f "$WORK/one/truth.json"

for set in "${SETS[@]}"; do
  mapfile -t list < "$WORK/$set.files"
  bytes=0
  for f in "${list[@]}"; do
    case "$f" in
      *.gz) n=$(igzip -dc "$f" | wc -c) ;;
      *.zst) n=$(zstd -qdc "$f" | wc -c) ;;
      *) n=$(wc -c < "$f") ;;
    esac
    bytes=$((bytes + n))
  done
  echo "$bytes" > "$WORK/$set.bytes"
  log "$set: ${#list[@]} files, $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB uncompressed"
  # Verify before timing, in both scopes (the same ingest as timed, untimed here).
  for scope in all-repos tracked; do
    rm -rf "$WORK/store"
    flag=""
    [[ $scope == tracked ]] || flag=--all-repos
    "$GHSIFT" ingest --store "$WORK/store" --quiet $flag --threads "$THREADS" "${list[@]}"
    verify_by_type "$set ($scope)" "$WORK/$set.expected.json" "$WORK/store"
  done
done

# ------------------------------------------------------------------ the timed runs
RAW="$OUT/raw.csv"
echo "set,tool,round,wall_s,peak_rss_kb,ghsift_total_s,cpu_s" > "$RAW"
run() {  # run SET TOOL ROUND FILES...
  local set=$1 tool=$2 round=$3 wall rss user sys total=""
  shift 3
  rm -rf "$WORK/store" "$WORK/timings"
  case "$tool" in
    igzip) /usr/bin/time -f '%e %M %U %S' -o "$WORK/time.out" \
             bash -c 'printf "%s\0" "$@" | xargs -0 -P "$0" -n 1 sh -c '\''igzip -dc "$0" > /dev/null'\' "$THREADS" "$@" ;;
    all-repos|fixed-all-repos)
      /usr/bin/time -f '%e %M %U %S' -o "$WORK/time.out" "$GHSIFT" ingest --store "$WORK/store" --quiet --timings \
        --all-repos --threads "$THREADS" "$@" 2>"$WORK/timings" ;;
    tracked|fixed-tracked)
      /usr/bin/time -f '%e %M %U %S' -o "$WORK/time.out" "$GHSIFT" ingest --store "$WORK/store" --quiet --timings \
        --threads "$THREADS" "$@" 2>"$WORK/timings" ;;
  esac
  read -r wall rss user sys < <(tail -1 "$WORK/time.out")
  [[ ! -s "$WORK/timings" ]] || total=$(sed -nE 's/.*; total ([0-9.]+) s.*/\1/p' "$WORK/timings")
  echo "$set,$tool,$round,$wall,$rss,$total,$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" >> "$RAW"
}
for ((r = 1; r <= ROUNDS; r++)); do
  for set in "${SETS[@]}"; do
    mapfile -t list < "$WORK/$set.files"
    for tool in igzip all-repos tracked; do run "$set" "$tool" "$r" "${list[@]}"; done
  done
  run fixed fixed-all-repos "$r" "$WORK/one"
  run fixed fixed-tracked "$r" "$WORK/one"
  log "round $r of $ROUNDS done"
done

# ------------------------------------------------------------------ report
CSV="$OUT/summary.csv"
echo "set,files,uncompressed_mb,tool,rounds,median_s,best_s,mb_s_median,peak_rss_mb,igzip_share_median,igzip_share_best,igzip_share_median_without_fixed,median_cpu_s,igzip_share_cpu,igzip_share_cpu_without_fixed" > "$CSV"
col() { awk -F, -v s="$1" -v t="$2" -v c="$3" '$1 == s && $2 == t { print $c }' "$RAW"; }
FIX_ALL=$(col fixed fixed-all-repos 4 | median)
FIX_TRACKED=$(col fixed fixed-tracked 4 | median)
FIX_CPU_ALL=$(col fixed fixed-all-repos 7 | median)
FIX_CPU_TRACKED=$(col fixed fixed-tracked 7 | median)
for set in "${SETS[@]}"; do
  bytes=$(cat "$WORK/$set.bytes")
  nfiles=$(wc -l < "$WORK/$set.files")
  ig_med=$(col "$set" igzip 4 | median)
  ig_best=$(col "$set" igzip 4 | best)
  ig_cpu=$(col "$set" igzip 7 | median)
  for tool in igzip all-repos tracked; do
    med=$(col "$set" "$tool" 4 | median)
    bst=$(col "$set" "$tool" 4 | best)
    rss=$(col "$set" "$tool" 5 | sort -g | tail -1)
    cpu=$(col "$set" "$tool" 7 | median)
    fixed=0 fixed_cpu=0
    [[ $tool != all-repos ]] || { fixed=$FIX_ALL; fixed_cpu=$FIX_CPU_ALL; }
    [[ $tool != tracked ]] || { fixed=$FIX_TRACKED; fixed_cpu=$FIX_CPU_TRACKED; }
    awk -v set="$set" -v n="$nfiles" -v b="$bytes" -v tool="$tool" -v r="$ROUNDS" -v med="$med" -v bst="$bst" \
        -v rss="$rss" -v igm="$ig_med" -v igb="$ig_best" -v fx="$fixed" -v cpu="$cpu" -v igc="$ig_cpu" -v fxc="$fixed_cpu" 'BEGIN {
      share_wo = (med - fx > 0) ? sprintf("%.2f", igm / (med - fx)) : "-"
      # GNU time counts in 10 ms steps: a share of a CPU time that rounds to 0 is left out ("-").
      cpu_share = (igc > 0 && cpu > 0) ? sprintf("%.2f", igc / cpu) : "-"
      cpu_share_wo = (igc > 0 && cpu - fxc > 0) ? sprintf("%.2f", igc / (cpu - fxc)) : "-"
      if (tool == "igzip") cpu_share_wo = cpu_share
      printf "%s,%d,%.1f,%s,%d,%.2f,%.2f,%.1f,%.0f,%.2f,%.2f,%s,%.2f,%s,%s\n", set, n, b / 1e6, tool, r, med, bst,
             b / 1e6 / med, rss / 1024, igm / med, igb / bst, (tool == "igzip" ? "1.00" : share_wo), cpu,
             cpu_share, cpu_share_wo }' >> "$CSV"
  done
done
for tool in fixed-all-repos fixed-tracked; do
  printf 'fixed,1,0.0,%s,%d,%s,%s,-,%.0f,-,-,-,%s,-,-\n' "$tool" "$ROUNDS" "$(col fixed "$tool" 4 | median)" \
    "$(col fixed "$tool" 4 | best)" "$(col fixed "$tool" 5 | sort -g | tail -1 | awk '{ print $1 / 1024 }')" \
    "$(col fixed "$tool" 7 | median)" >> "$CSV"
done

MD="$OUT/summary.md"
{
  echo "# ghsift on real and generated hours ($(date -u +%Y-%m-%dT%H:%MZ))"
  echo
  echo "ghsift: \`$GHSIFT\`; threads $THREADS; $ROUNDS rounds; machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)."
  for set in "${SETS[@]}"; do
    echo "* $set: $(tr '\n' ' ' < "$WORK/$set.files" | xargs -n1 basename | tr '\n' ' ')"
  done
  [[ $WITH_GEN -eq 0 ]] || echo "* generated: \`ghsift gen --hours $GEN_HOURS --events-per-hour $EVENTS --seed $SEED $GEN_ARGS\`"
  echo
  echo "| set | files | MB | tool | median s | best s | MB/s (median) | peak RSS MB | igzip share (median) | igzip share (best) | igzip share without fixed cost | median CPU s | igzip share of CPU | igzip share of CPU without fixed cost |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  tail -n +2 "$CSV" | awk -F, '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15 }'
  echo
  echo "* igzip share = igzip's wall time / ghsift's (the share of the decompression limit ghsift reaches; 1.0 = at the limit)."
  echo "* fixed: ingest of one generated 1-event hour (start, rule database, store open, final flush);" \
       "\"without fixed cost\" subtracts its median from ghsift's median: the share a long run approaches."
  echo "* CPU = user + sys (GNU time; igzip: all its processes). On a shared machine the CPU share is steadier than the wall share;" \
       "it leaves out waiting (fsync, I/O), which the wall share includes."
  echo "* Verified before timing: events by type and bad lines equal count_real_events.py (real) or truth.json (generated), both scopes."
} > "$MD"
column -t -s, "$CSV"
log "wrote $MD, $CSV, $RAW"
