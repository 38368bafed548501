#!/usr/bin/env bash
# How fast `ghsift query` answers on a store of a million reports and more.
#
#   bench/query_scale.sh [--hours 34] [--events-per-hour 100000] [--rounds 5] [--slices 1] [--scan-once]
#                        [--build-dir build-bench | --ghsift PATH] [--work bench/results/query-scale] [--seed 7]
#
# Builds the store the way a user would: `ghsift gen` with every event an issue lifecycle event
# (--lifecycle-share 1 --pr-share 0: about one new issue per three events, so 34 x 100,000 events
# hold over a million issues), then `ghsift ingest --all-repos`. It then times, --rounds times
# each, the query of issue #4 (`query --by repo,month,category`) and a few others, answered from
# the rollup and, as the reference in the same run, by reading every report (`--scan`); both
# answers must be byte-identical before anything is printed. The same for the lists of `issues`
# and `sample`, from the listing index and by `--scan` (stdout and stderr compared), with the
# peak RSS of the index's run. Wall time includes starting the process and opening the store as
# a reader. Output: Markdown tables on stdout and summary.md/.csv and listings.csv
# (';'-separated) in the work folder (not committed).
# --slices N ingests the hours in N runs of consecutive hours into the same store (as a cron
# job would), each timed with its peak RSS, so that the last slice's throughput can be read
# against the first's while the store grows; `--hours 340 --slices 10` builds 8.4 million issues.
# --scan-once runs each --scan reference once (the equality check, timed) instead of every round:
# at millions of reports a scan takes a minute.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HOURS=34
EVENTS=100000
ROUNDS=5
BUILD_DIR="$ROOT/build-bench"
WORK="$ROOT/bench/results/query-scale"
SEED=7
SLICES=1
SCAN_ONCE=0

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --hours) HOURS=$2; shift 2 ;;
    --events-per-hour) EVENTS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --build-dir) BUILD_DIR=$2; shift 2 ;;
    --ghsift) GHSIFT=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --slices) SLICES=$2; shift 2 ;;
    --scan-once) SCAN_ONCE=1; shift ;;
    -h|--help) usage 0 ;;
    *) echo "query_scale.sh: unknown argument '$1'" >&2; usage 2 ;;
  esac
done
log() { printf '[query-scale] %s\n' "$*" >&2; }

source "$ROOT/bench/lib.sh"
ensure_ghsift

mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
CORPUS="$WORK/corpus-h$HOURS-e$EVENTS-s$SEED"
SLICE_CSV="$WORK/ingest-slices-h$HOURS-e$EVENTS-s$SEED.csv"
STORE="$WORK/store-h$HOURS-e$EVENTS-s$SEED"
if [[ ! -f "$CORPUS/truth.json" ]]; then
  log "generating $HOURS hours x $EVENTS events into $CORPUS"
  rm -rf "$CORPUS"
  "$GHSIFT" gen --out "$CORPUS" --hours "$HOURS" --events-per-hour "$EVENTS" --seed "$SEED" \
    --lifecycle-share 1 --pr-share 0 --compress zst --level 1
fi
# The hours in time order (the names sort as text otherwise: -1, -10, -11, ..., -2).
mapfile -t HOUR_NAMES < <(cd "$CORPUS" && ls -- *.json.zst | sort -t- -k1,1n -k2,2n -k3,3n -k4,4n)
if [[ ! -f "$STORE/GHSIFT_STORE" ]] || ! "$GHSIFT" stats --store "$STORE" >/dev/null 2>&1; then
  log "ingesting into $STORE in $SLICES slice(s)"
  rm -rf "$STORE"
  FILES=("${HOUR_NAMES[@]/#/$CORPUS/}")
  # Each slice's --timings split: the pipeline, the rollup refresh, the final flush and the
  # compactions Finish waits for (on a growing store the refresh and the compactions grow most).
  echo "slice;files;wall_s;peak_rss_kb;store_mb;pipeline_s;refresh_s;flush_s;compactions_s" >"$SLICE_CSV"
  "$GHSIFT" rules check >/dev/null  # the rule cache filled first: slice 1 does not pay for compiling
  for ((s = 0; s < SLICES; s++)); do
    from=$((s * ${#FILES[@]} / SLICES)) to=$(((s + 1) * ${#FILES[@]} / SLICES))
    /usr/bin/time -f '%e %M' -o "$WORK/slice-time.txt" \
      "$GHSIFT" ingest --quiet --timings --all-repos --store "$STORE" "${FILES[@]:from:to-from}" \
      2>"$WORK/slice-timings.txt"
    read -r wall rss <"$WORK/slice-time.txt"
    mb=$(du -sm "$STORE" | cut -f1)
    parts=""
    for key in 'scan and commit' 'rollup refresh' flush compactions; do
      parts+="${parts:+;}$(timing_of "$key" "$WORK/slice-timings.txt")"
    done
    echo "$((s + 1));$((to - from));$wall;$rss;$mb;$parts" >>"$SLICE_CSV"
    log "ingest slice $((s + 1))/$SLICES ($((to - from)) hours): $wall s wall, $rss KB peak RSS, store $mb MB; pipeline;refresh;flush;compactions s: $parts"
  done
fi
ISSUES=$("$GHSIFT" query --store "$STORE" --format csv | tail -1)
log "the store holds $ISSUES issues"

now_ns() { date +%s%N; }

# The questions, as `ghsift query` arguments.
QUESTIONS=(
  "--by repo,month,category"
  "--by category"
  "--by month,state"
  "--metric closed --by repo"
  "--category performance --by repo --from 2024-01 --to 2024-01"
)

CSV="$WORK/summary.csv"  # ';'-separated: the questions hold commas
echo "question;rows;issues;rollup_ms;scan_ms;scan_over_rollup" >"$CSV"
for item in "${QUESTIONS[@]}"; do
  label=$item
  read -r -a args <<<"$item"
  rollup_answer=$("$GHSIFT" query --store "$STORE" --format csv "${args[@]}")
  t0=$(now_ns)
  scan_answer=$("$GHSIFT" query --store "$STORE" --format csv --scan "${args[@]}")
  scan_once_ms=$((($(now_ns) - t0) / 1000000))
  if [[ "$rollup_answer" != "$scan_answer" ]]; then
    log "MISMATCH for '$label': the rollup and the scan disagree"
    diff <(echo "$rollup_answer") <(echo "$scan_answer") | head -20 >&2
    exit 1
  fi
  rows=$(($(echo "$rollup_answer" | wc -l) - 1))
  times_rollup=() times_scan=()
  for ((r = 0; r < ROUNDS; r++)); do
    t0=$(now_ns); "$GHSIFT" query --store "$STORE" --format csv "${args[@]}" >/dev/null; t1=$(now_ns)
    [[ $SCAN_ONCE -eq 1 ]] || "$GHSIFT" query --store "$STORE" --format csv --scan "${args[@]}" >/dev/null
    t2=$(now_ns)
    times_rollup+=($(((t1 - t0) / 1000000)))
    times_scan+=($([[ $SCAN_ONCE -eq 1 ]] && echo "$scan_once_ms" || echo $(((t2 - t1) / 1000000))))
  done
  ms_rollup=$(printf '%s\n' "${times_rollup[@]}" | median)
  ms_scan=$(printf '%s\n' "${times_scan[@]}" | median)
  ratio=$(awk -v a="$ms_scan" -v b="$ms_rollup" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
  echo "$label;$rows;$ISSUES;$ms_rollup;$ms_scan;$ratio" >>"$CSV"
  log "$label: $rows rows; rollup $ms_rollup ms, scan $ms_scan ms (median of $ROUNDS)"
done

# "Recent" reports: those created in the last quarter of the corpus's hours. `--since 4w` counts
# back from today, and the generated hours are of January 2024: it matched nothing, and its time
# was that of an empty answer.
RECENT_HOUR=${HOUR_NAMES[$((3 * ${#HOUR_NAMES[@]} / 4))]%%.*}  # 2024-01-09-7
RECENT=$(printf '%sT%02d' "${RECENT_HOUR%-*}" "${RECENT_HOUR##*-}")     # 2024-01-09T07
# The lists, as ghsift arguments (the store added): `issues` and `sample` read the listing index
# unless --scan is given.
LISTINGS=(
  "issues --category performance --limit 20"
  "issues --category performance --since $RECENT"
  "issues --limit 20"
  "sample --category silent --n 50 --seed 1"
  "sample --category performance,accuracy,silent --n 50 --seed 1"
)
# Both outputs, stderr after stdout; a list that matches nothing exits non-zero.
answer_of() { "$GHSIFT" "$@" 2>&1 || true; }
LIST_CSV="$WORK/listings.csv"
echo "command;index_ms;scan_ms;index_peak_rss_kb;scan_over_index" >"$LIST_CSV"
for item in "${LISTINGS[@]}"; do
  read -r -a args <<<"$item"
  index_answer=$(answer_of "${args[@]}" --store "$STORE")
  t0=$(now_ns)
  scan_answer=$(answer_of "${args[@]}" --store "$STORE" --scan)
  scan_once_ms=$((($(now_ns) - t0) / 1000000))
  if [[ "$index_answer" != "$scan_answer" ]]; then
    log "MISMATCH for '$item': the listing index and the scan disagree"
    diff <(echo "$index_answer") <(echo "$scan_answer") | head -20 >&2
    exit 1
  fi
  times_index=() times_scan=()
  for ((r = 0; r < ROUNDS; r++)); do
    t0=$(now_ns); answer_of "${args[@]}" --store "$STORE" >/dev/null; t1=$(now_ns)
    [[ $SCAN_ONCE -eq 1 ]] || answer_of "${args[@]}" --store "$STORE" --scan >/dev/null
    t2=$(now_ns)
    times_index+=($(((t1 - t0) / 1000000)))
    times_scan+=($([[ $SCAN_ONCE -eq 1 ]] && echo "$scan_once_ms" || echo $(((t2 - t1) / 1000000))))
  done
  /usr/bin/time -f '%M' -o "$WORK/rss.txt" "$GHSIFT" "${args[@]}" --store "$STORE" >/dev/null 2>&1 || true
  rss=$(tail -1 "$WORK/rss.txt")
  ms_index=$(printf '%s\n' "${times_index[@]}" | median)
  ms_scan=$(printf '%s\n' "${times_scan[@]}" | median)
  ratio=$(awk -v a="$ms_scan" -v b="$ms_index" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
  echo "$item;$ms_index;$ms_scan;$rss;$ratio" >>"$LIST_CSV"
  log "$item: index $ms_index ms (peak RSS $rss KB), scan $ms_scan ms (median of $ROUNDS)"
done

# stats reads the store's counters and meta only.
times_stats=()
for ((r = 0; r < ROUNDS; r++)); do
  t0=$(now_ns); "$GHSIFT" stats --store "$STORE" >/dev/null; t1=$(now_ns)
  times_stats+=($(((t1 - t0) / 1000000)))
done
/usr/bin/time -f '%M' -o "$WORK/rss.txt" "$GHSIFT" stats --store "$STORE" >/dev/null
STATS_MS=$(printf '%s\n' "${times_stats[@]}" | median)
STATS_RSS=$(tail -1 "$WORK/rss.txt")
STORE_BYTES=$(du -sb "$STORE" | cut -f1)
EVENTS_TOTAL=$((HOURS * EVENTS))

{
  echo "Store: $ISSUES issues ($HOURS generated hours x $EVENTS events, seed $SEED). Median of $ROUNDS runs, wall time of the whole \`ghsift query\` process."
  echo
  echo "Store on disk: $((STORE_BYTES / 1048576)) MB, $((STORE_BYTES / ISSUES)) bytes per issue, $((STORE_BYTES / EVENTS_TOTAL)) bytes per event. \`stats\`: $STATS_MS ms, peak RSS $((STATS_RSS / 1024)) MB."
  if [[ -f "$SLICE_CSV" ]] && [[ $(wc -l <"$SLICE_CSV") -gt 2 ]]; then
    echo
    echo "| ingest slice | hours | wall s | peak RSS | store MB | pipeline s | refresh s | flush s | compactions waited s |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    tail -n +2 "$SLICE_CSV" | while IFS=';' read -r n f w rss mb pipeline refresh flush compactions; do
      echo "| $n | $f | $w | $((rss / 1024)) MB | $mb | $pipeline | $refresh | $flush | $compactions |"
    done
    first=$(sed -n 2p "$SLICE_CSV" | cut -d';' -f3)
    last=$(tail -1 "$SLICE_CSV" | cut -d';' -f3)
    slowest=$(tail -n +2 "$SLICE_CSV" | cut -d';' -f3 | sort -g | tail -1)
    echo
    echo "Last slice's wall time over the first's: $(awk -v a="$last" -v b="$first" 'BEGIN { printf "%.2f", a / b }');" \
      "the slowest slice's over the first's: $(awk -v a="$slowest" -v b="$first" 'BEGIN { printf "%.2f", a / b }')"
  fi
  echo
  echo "| question | rows | rollup ms | scan ms | scan / rollup |"
  echo "|---|---:|---:|---:|---:|"
  tail -n +2 "$CSV" | while IFS=';' read -r q rows _ r s x; do echo "| \`$q\` | $rows | $r | $s | ${x}x |"; done
  echo
  echo "| list | index ms | index peak RSS | scan ms | scan / index |"
  echo "|---|---:|---:|---:|---:|"
  tail -n +2 "$LIST_CSV" | while IFS=';' read -r c i s rss x; do echo "| \`$c\` | $i | $((rss / 1024)) MB | $s | ${x}x |"; done
} | tee "$WORK/summary.md"
