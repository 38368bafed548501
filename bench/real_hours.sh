#!/usr/bin/env bash
# ghsift against the decompression limit on REAL GH Archive hours and on a generated corpus, in
# the same run: does the generated data time like the real thing?
#
#   bench/real_hours.sh [--real DIR_OR_FILE]... [--years "2016"] [--rounds 5] [--threads 2]
#                       [--gen-hours 4] [--events-per-hour 6000] [--seed 20240101]
#                       [--gen-args "..."] [--no-gen] [--corpus DIR] [--no-peers]
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
# The peers (bench/peers, npm packages installed there when missing; --no-peers leaves them out)
# are run once per set too, untimed: chDB and DuckDB must find as many flagged reports in as
# many repositories as bench/peers/reference.py (Python's json and re; else VERIFY FAILED, exit 3).
#
# Then, for --rounds rounds, each set is timed with (in this order, under /usr/bin/time):
#   igzip     igzip -dc FILE > /dev/null, T files at a time: the decompression limit
#   all-repos ghsift ingest --quiet --timings --all-repos --threads T, into a fresh store
#   tracked   the same in the default scope (rules/repos.txt)
#   chdb      node bench/peers/chdb.cjs: chDB (ClickHouse in the process), T threads
#   duckdb    node bench/peers/duckdb.cjs: DuckDB, T threads
# and once per round each tool's fixed cost (its start-up): the same run over one generated
# 1-event hour. The peers answer a simpler question than ghsift's store: distinct reports per
# repository whose title, body or comment matches one regex (bench/peers/words.txt).
# Reported per set and tool: median and best wall s, uncompressed MB/s, peak RSS, and
# "igzip share" = igzip s / tool s (the share of the decompression limit the tool reaches,
# as issue 17 states its targets; 1.0 = at the limit), of the medians and of the bests, with and
# without the tool's fixed cost.
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
WITH_PEERS=1

usage() { sed -n '2,39p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
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
    --no-peers) WITH_PEERS=0; shift ;;
    -h|--help) usage 0 ;;
    *) echo "real_hours.sh: unknown argument '$1' (valid: --real --years --rounds --threads --gen-hours" \
            "--events-per-hour --seed --gen-args --no-gen --corpus --build-dir --ghsift --out --no-peers)" >&2; exit 2 ;;
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
PEERS=()
PEERS_NOTE="left out (--no-peers)"
[[ $WITH_PEERS -eq 0 ]] || ensure_peers

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
ls "$WORK/one"/*.json.gz > "$WORK/one.list"

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
    # ghsift's own answer, for the table: reports its rules flag as performance problems.
    "$GHSIFT" query --store "$WORK/store" --by repo --category performance --format csv \
      | awk -F, 'NR > 1 { s += $NF; n++ } END { printf "%d reports in %d repositories\n", s, n }' > "$WORK/$set.$scope.answer"
  done
  verify_peers "$set" "$WORK/$set.files" "$THREADS"
  for peer in "${PEERS[@]}"; do echo "$PEER_ANSWER" > "$WORK/$set.$peer.answer"; done
done

# ------------------------------------------------------------------ the timed runs
RAW="$OUT/raw.csv"
echo "set,tool,round,wall_s,peak_rss_kb,ghsift_total_s,cpu_s,peer_start_s,peer_query_s" > "$RAW"
run() {  # run SET TOOL ROUND FILES...
  local set=$1 tool=$2 round=$3 wall rss user sys total="" start="" query=""
  shift 3
  rm -rf "$WORK/store" "$WORK/timings" "$WORK/peer.json"
  case "$tool" in
    igzip) /usr/bin/time -f '%e %M %U %S' -o "$WORK/time.out" \
             bash -c 'printf "%s\0" "$@" | xargs -0 -P "$0" -n 1 sh -c '\''igzip -dc "$0" > /dev/null'\' "$THREADS" "$@" ;;
    all-repos|fixed-all-repos)
      /usr/bin/time -f '%e %M %U %S' -o "$WORK/time.out" "$GHSIFT" ingest --store "$WORK/store" --quiet --timings \
        --all-repos --threads "$THREADS" "$@" 2>"$WORK/timings" ;;
    tracked|fixed-tracked)
      /usr/bin/time -f '%e %M %U %S' -o "$WORK/time.out" "$GHSIFT" ingest --store "$WORK/store" --quiet --timings \
        --threads "$THREADS" "$@" 2>"$WORK/timings" ;;
    *)  # a peer, or its fixed cost (fixed-<peer>)
      printf '%s\n' "$@" > "$WORK/run.list"
      if ! /usr/bin/time -f '%e %M %U %S' -o "$WORK/time.out" node "$PEERS_DIR/${tool#fixed-}.cjs" --threads "$THREADS" \
             --files "$WORK/run.list" > "$WORK/peer.json" 2>"$WORK/peer.err"; then
        echo "real_hours.sh: $tool failed on $set: $(tail -3 "$WORK/peer.err")" >&2; exit 1
      fi
      start=$(peer_field "$WORK/peer.json" start_s)
      query=$(peer_field "$WORK/peer.json" query_s) ;;
  esac
  read -r wall rss user sys < <(tail -1 "$WORK/time.out")
  [[ ! -s "$WORK/timings" ]] || total=$(timing_of total "$WORK/timings")
  echo "$set,$tool,$round,$wall,$rss,$total,$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }'),$start,$query" >> "$RAW"
}
TOOLS=(igzip all-repos tracked "${PEERS[@]}")
FIXED_TOOLS=(fixed-all-repos fixed-tracked)
for peer in "${PEERS[@]}"; do FIXED_TOOLS+=("fixed-$peer"); done
for ((r = 1; r <= ROUNDS; r++)); do
  for set in "${SETS[@]}"; do
    mapfile -t list < "$WORK/$set.files"
    for tool in "${TOOLS[@]}"; do run "$set" "$tool" "$r" "${list[@]}"; done
  done
  for tool in "${FIXED_TOOLS[@]}"; do run fixed "$tool" "$r" "$(cat "$WORK/one.list")"; done
  log "round $r of $ROUNDS done"
done

# ------------------------------------------------------------------ report
CSV="$OUT/summary.csv"
echo "set,files,uncompressed_mb,tool,rounds,median_s,best_s,mb_s_median,peak_rss_mb,igzip_share_median,igzip_share_best,median_s_without_fixed,igzip_share_median_without_fixed,median_query_s,igzip_share_query,median_cpu_s,igzip_share_cpu,igzip_share_cpu_without_fixed,answer" > "$CSV"
col() { awk -F, -v s="$1" -v t="$2" -v c="$3" '$1 == s && $2 == t && $c != "" { print $c }' "$RAW"; }
for set in "${SETS[@]}"; do
  bytes=$(cat "$WORK/$set.bytes")
  nfiles=$(wc -l < "$WORK/$set.files")
  ig_med=$(col "$set" igzip 4 | median)
  ig_best=$(col "$set" igzip 4 | best)
  ig_cpu=$(col "$set" igzip 7 | median)
  for tool in "${TOOLS[@]}"; do
    med=$(col "$set" "$tool" 4 | median)
    bst=$(col "$set" "$tool" 4 | best)
    rss=$(col "$set" "$tool" 5 | sort -g | tail -1)
    cpu=$(col "$set" "$tool" 7 | median)
    query=$(col "$set" "$tool" 9 | median)
    fixed=0 fixed_cpu=0
    if [[ $tool != igzip ]]; then
      fixed=$(col fixed "fixed-$tool" 4 | median)
      fixed_cpu=$(col fixed "fixed-$tool" 7 | median)
    fi
    answer="-"
    [[ ! -f "$WORK/$set.$tool.answer" ]] || answer=$(cat "$WORK/$set.$tool.answer")
    awk -v set="$set" -v n="$nfiles" -v b="$bytes" -v tool="$tool" -v r="$ROUNDS" -v med="$med" -v bst="$bst" \
        -v rss="$rss" -v igm="$ig_med" -v igb="$ig_best" -v fx="$fixed" -v cpu="$cpu" -v igc="$ig_cpu" -v fxc="$fixed_cpu" \
        -v q="$query" -v ans="$answer" 'BEGIN {
      wo = (tool == "igzip") ? sprintf("%.2f", med) : (med - fx > 0 ? sprintf("%.2f", med - fx) : "-")
      share_wo = (tool == "igzip") ? "1.00" : (med - fx > 0 ? sprintf("%.2f", igm / (med - fx)) : "-")
      query = (q == "") ? "-" : sprintf("%.2f", q)
      share_q = (q == "" || q <= 0) ? "-" : sprintf("%.2f", igm / q)
      # GNU time counts in 10 ms steps: a share of a CPU time that rounds to 0 is left out ("-").
      cpu_share = (igc > 0 && cpu > 0) ? sprintf("%.2f", igc / cpu) : "-"
      cpu_share_wo = (igc > 0 && cpu - fxc > 0) ? sprintf("%.2f", igc / (cpu - fxc)) : "-"
      if (tool == "igzip") cpu_share_wo = cpu_share
      printf "%s,%d,%.1f,%s,%d,%.2f,%.2f,%.1f,%.0f,%.2f,%.2f,%s,%s,%s,%s,%.2f,%s,%s,%s\n", set, n, b / 1e6, tool, r, med, bst,
             b / 1e6 / med, rss / 1024, igm / med, igb / bst, wo, share_wo, query, share_q, cpu, cpu_share, cpu_share_wo, ans }' >> "$CSV"
  done
done
for tool in "${FIXED_TOOLS[@]}"; do
  query=$(col fixed "$tool" 9 | median)
  [[ -z "$query" ]] || query=$(printf '%.3f' "$query")
  printf 'fixed,1,0.0,%s,%d,%s,%s,-,%.0f,-,-,-,-,%s,-,%s,-,-,-\n' "$tool" "$ROUNDS" "$(col fixed "$tool" 4 | median)" \
    "$(col fixed "$tool" 4 | best)" "$(col fixed "$tool" 5 | sort -g | tail -1 | awk '{ print $1 / 1024 }')" \
    "${query:--}" "$(col fixed "$tool" 7 | median)" >> "$CSV"
done

MD="$OUT/summary.md"
{
  echo "# ghsift and its peers on real and generated hours ($(date -u +%Y-%m-%dT%H:%MZ))"
  echo
  echo "ghsift: \`$GHSIFT\`; threads $THREADS; $ROUNDS rounds; machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)."
  for set in "${SETS[@]}"; do
    echo "* $set: $(tr '\n' ' ' < "$WORK/$set.files" | xargs -n1 basename | tr '\n' ' ')"
  done
  [[ $WITH_GEN -eq 0 ]] || echo "* generated: \`ghsift gen --hours $GEN_HOURS --events-per-hour $EVENTS --seed $SEED $GEN_ARGS\`"
  for peer in "${PEERS[@]}"; do echo "* peer $peer: $(node "$PEERS_DIR/$peer.cjs" --version)"; done
  [[ -z "$PEERS_NOTE" ]] || echo "* peers: $PEERS_NOTE"
  echo
  echo "| set | files | MB | tool | median s | best s | MB/s (median) | peak RSS MB | igzip share (median) | igzip share (best) | median s without fixed cost | igzip share without fixed cost | query s (in-process) | igzip share of the query alone | median CPU s | igzip share of CPU | igzip share of CPU without fixed cost | answer |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  tail -n +2 "$CSV" | awk -F, '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19 }'
  echo
  echo "* igzip share = igzip's wall time / the tool's (the share of the decompression limit the tool reaches; 1.0 = at the limit)."
  echo "* fixed: the same run over one generated 1-event hour (ghsift: start, rule database, store open, final flush;" \
       "a peer: Node, loading the engine, a query over a tiny file, exit); \"without fixed cost\" subtracts its median:" \
       "what a long run approaches."
  echo "* query s (in-process): the peer's query alone, timed inside its process (from the engine being open to the answer)."
  echo "* CPU = user + sys (GNU time; igzip: all its processes). On a shared machine the CPU share is steadier than the wall share;" \
       "it leaves out waiting (fsync, I/O), which the wall share includes."
  echo "* answer: ghsift: reports its rules flag as performance problems (\`query --by repo --category performance\`);" \
       "chdb, duckdb: distinct reports whose issue title/body/comment or pull request title/body matches" \
       "\`(?i)\\b($(peer_words))\\b\` (bench/peers/words.txt): a simpler question than ghsift's."
  echo "* Verified before timing: events by type and bad lines equal count_real_events.py (real) or truth.json (generated), both scopes;" \
       "chdb and duckdb find what bench/peers/reference.py (Python) finds."
} > "$MD"
# On the terminal: the times with and without the fixed cost, and the shares of the limit.
cut -d, -f1,4,6,9,10,12,13,14,15,19 "$CSV" | column -t -s,
log "wrote $MD, $CSV, $RAW"
