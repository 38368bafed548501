#!/usr/bin/env bash
# What ingesting costs per FILE, apart from the bytes: many small hours against a few large hours
# holding the very same events, each ingested into a fresh store.
#
#   bench/per_file.sh [--files 1000] [--events-per-hour 50] [--large 4] [--rounds 3] [--threads 2]
#                     [--seed 17] [--no-perf] [--build-dir build-bench | --ghsift PATH]
#                     [--work bench/results/per-file] [--out bench/results/per-file-DATE]
#
# Corpus (kept in --work and reused): `ghsift gen --hours FILES --events-per-hour E` (small),
# and LARGE files made of the same hours: each holds FILES/LARGE consecutive small hours'
# decoded lines, recompressed with gzip -6 (the generator's level). Both sets hold the same
# events and the same uncompressed bytes, so the difference of their ingest times is the cost
# of the number of files: per-file cost = (small s - large s) / (FILES - LARGE); a year of
# hourly files (8,760) pays 8,760 times that.
#
# Verified before timing: both stores' events by type and bad lines equal truth.json, and
# stats counts FILES and LARGE files (else VERIFY FAILED, exit 3).
#
# Timed, --rounds times, alternated (wall s and peak RSS by /usr/bin/time, --timings parts):
#   small      ghsift ingest --quiet --timings --all-repos --threads T over the small hours
#   large      the same over the large files
#   small-c0   the small hours with --commit-mib 0 (each file its own atomic batch)
#   rerun      a second ingest into the small store: every file skipped by name, size, mtime
#   verify     the same with --verify: every file read and hashed again
#   rerun-large, verify-large: the same on the large store (the baseline of the two above)
# With perf (unless --no-perf), one more ingest of each set under `perf record --call-graph
# dwarf` gives the CPU time by part, each sample counted under the first of these that is on
# its stack: commit (Store::CommitFiles, CommitGroup::Add, FileCommitter), lookup (FindFile,
# ScanFiles, the size/mtime stats before reading), open (opening, typing and closing the
# input: OpenInput, OpenDecoder, FileSource, the decoders' and LineSplitter's set-up and
# tear-down), hash (crc64 of the compressed bytes), rest. Per-file CPU ms per part =
# (small - large) / (FILES - LARGE).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FILES=1000
EVENTS=50
LARGE=4
ROUNDS=3
THREADS=2
SEED=17
WITH_PERF=1
BUILD_DIR="$ROOT/build-bench"
GHSIFT=""
WORK="$ROOT/bench/results/per-file"
OUT=""

usage() { sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --files) FILES=$2; shift 2 ;;
    --events-per-hour) EVENTS=$2; shift 2 ;;
    --large) LARGE=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --no-perf) WITH_PERF=0; shift ;;
    --build-dir) BUILD_DIR=$2; shift 2 ;;
    --ghsift) GHSIFT=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "per_file.sh: unknown argument '$1' (valid: --files --events-per-hour --large --rounds --threads" \
            "--seed --no-perf --build-dir --ghsift --work --out)" >&2; exit 2 ;;
  esac
done
log() { printf '[per_file] %s\n' "$*" >&2; }
if ((FILES % LARGE != 0 || LARGE >= FILES)); then
  echo "per_file.sh: --large ($LARGE) must divide --files ($FILES) and be smaller" >&2; exit 2
fi
for tool in gzip python3 /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "per_file.sh: $tool missing (apt-get install gzip python3 time)" >&2; exit 2; }
done
if [[ $WITH_PERF -eq 1 ]] && ! perf record -q -o /dev/null -e cpu-clock -- true >/dev/null 2>&1; then
  log "perf cannot record here (not installed or perf_event_paranoid); the breakdown by part is left out"
  WITH_PERF=0
fi
source "$ROOT/bench/lib.sh"
ensure_ghsift

# ------------------------------------------------------------------ corpus
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
SMALL="$WORK/small-f$FILES-e$EVENTS-s$SEED"
BIG="$WORK/large-f$FILES-e$EVENTS-s$SEED-l$LARGE"
ensure_gen_corpus "$SMALL" --hours "$FILES" --events-per-hour "$EVENTS" --seed "$SEED"
mapfile -t SMALL_FILES < <(ls "$SMALL"/*.json.gz | sort -V)
[[ ${#SMALL_FILES[@]} -eq $FILES ]] || { echo "per_file.sh: $SMALL holds ${#SMALL_FILES[@]} hours, not $FILES" >&2; exit 2; }
if [[ $(ls "$BIG"/*.json.gz 2>/dev/null | wc -l) -ne $LARGE || ! -f "$BIG/done" ]]; then
  log "writing $LARGE large files from the $FILES small hours into $BIG"
  rm -rf "$BIG"
  mkdir -p "$BIG"
  per=$((FILES / LARGE))
  for ((i = 0; i < LARGE; i++)); do
    slice=("${SMALL_FILES[@]:$((i * per)):$per}")
    gzip -dc "${slice[@]}" | gzip -6 > "$BIG/$(basename "${slice[0]}")"
  done
  touch "$BIG/done"
fi
BIG_FILES=("$BIG"/*.json.gz)
bytes_of() { gzip -dc "$@" | wc -c; }
SMALL_BYTES=$(bytes_of "${SMALL_FILES[@]}")
BIG_BYTES=$(bytes_of "${BIG_FILES[@]}")
SMALL_GZ=$(cat "${SMALL_FILES[@]}" | wc -c)
BIG_GZ=$(cat "${BIG_FILES[@]}" | wc -c)
log "small: $FILES files, $SMALL_BYTES bytes ($SMALL_GZ gz); large: $LARGE files, $BIG_BYTES bytes ($BIG_GZ gz)"
[[ $SMALL_BYTES -eq $BIG_BYTES ]] || { echo "VERIFY FAILED: small and large sets differ in uncompressed bytes" >&2; exit 3; }

[[ -n "$OUT" ]] || OUT="$ROOT/bench/results/per-file-$(date +%Y-%m-%d-%H%M%S)"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ghsift-per-file.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

ingest() {  # ingest STORE EXTRA_ARGS... -- FILES...: one ingest, stderr (timings) to $TMP/err
  local store=$1
  shift
  "$GHSIFT" ingest --store "$store" --quiet --timings --all-repos --threads "$THREADS" "$@" 2>"$TMP/err"
}
files_in_store() { "$GHSIFT" stats --store "$1" --format json | python3 -c 'import json, sys; print(json.load(sys.stdin)["files"])'; }

# ------------------------------------------------------------------ verify before timing
for set in small large; do
  rm -rf "$TMP/store"
  if [[ $set == small ]]; then ingest "$TMP/store" "${SMALL_FILES[@]}"; want=$FILES
  else ingest "$TMP/store" "${BIG_FILES[@]}"; want=$LARGE; fi
  verify_by_type "$set" "$SMALL/truth.json" "$TMP/store"
  got=$(files_in_store "$TMP/store")
  [[ $got -eq $want ]] || { echo "VERIFY FAILED: $set: the store holds $got files, not $want" >&2; exit 3; }
done

# ------------------------------------------------------------------ timed runs
RAW="$OUT/raw.csv"
echo "run,round,wall_s,peak_rss_kb,pipeline_s,rollup_s,flush_s,total_s,cpu_s" > "$RAW"
timed() {  # timed RUN ROUND STORE ARGS...
  local run=$1 round=$2 store=$3 wall rss user sys parts
  shift 3
  /usr/bin/time -f '%e %M %U %S' -o "$TMP/time.out" \
    "$GHSIFT" ingest --store "$store" --quiet --timings --all-repos --threads "$THREADS" "$@" 2>"$TMP/t.err"
  read -r wall rss user sys < <(tail -1 "$TMP/time.out")
  parts="$(timing_of 'scan and commit' "$TMP/t.err"),$(timing_of 'rollup refresh' "$TMP/t.err"),$(timing_of flush "$TMP/t.err"),$(timing_of total "$TMP/t.err")"
  echo "$run,$round,$wall,$rss,$parts,$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" >> "$RAW"
}
for ((r = 1; r <= ROUNDS; r++)); do
  rm -rf "$TMP/small" "$TMP/large" "$TMP/c0"
  timed small "$r" "$TMP/small" "${SMALL_FILES[@]}"
  timed large "$r" "$TMP/large" "${BIG_FILES[@]}"
  timed small-c0 "$r" "$TMP/c0" --commit-mib 0 "${SMALL_FILES[@]}"
  timed rerun "$r" "$TMP/small" "${SMALL_FILES[@]}"
  timed rerun-large "$r" "$TMP/large" "${BIG_FILES[@]}"
  timed verify "$r" "$TMP/small" --verify "${SMALL_FILES[@]}"
  timed verify-large "$r" "$TMP/large" --verify "${BIG_FILES[@]}"
  log "round $r of $ROUNDS: $(awk -F, -v r="$r" '$2 == r { printf "%s %s s; ", $1, $3 }' "$RAW")"
done

# ------------------------------------------------------------------ CPU by part (perf)
PARTS="$OUT/parts.csv"
if [[ $WITH_PERF -eq 1 ]]; then
  cat > "$TMP/classify.py" <<'PY'
# Reads `perf script` output (samples with call chains) and prints "part,cpu_ms": each sample
# is counted under the first part (in this order) with a frame on its stack.
import re, sys
PARTS = [
    ("commit", re.compile(r"Store::CommitFiles|CommitGroup::|FileCommitter")),
    ("lookup", re.compile(r"Store::FindFile|Store::ScanFiles|ModificationTimeNs|filesystem::file_size")),
    ("open", re.compile(r"OpenInput|OpenDecoder|FileSource::Open|FileSource::~FileSource|GzipDecoder::GzipDecoder|"
                        r"GzipDecoder::~GzipDecoder|ZstdDecoder::ZstdDecoder|ZstdDecoder::~ZstdDecoder|"
                        r"LineSplitter::LineSplitter|LineSplitter::~LineSplitter|ContentTypedDecoder::~|"
                        r"__x64_sys_openat|__x64_sys_close|__x64_sys_fadvise64|__x64_sys_newfstat")),
    ("hash", re.compile(r"crc64|ExtendContentHash|HashFile")),
]
ms = {name: 0.0 for name, _ in PARTS}
ms["rest"] = 0.0
leaf = {}
period, frames = None, []
def flush():
    if period is None:
        return
    stack = "\n".join(frames)
    sym = re.sub(r"^\S+\s+", "", frames[0]) if frames else "?"
    sym = re.sub(r"\+0x[0-9a-f]+", "", sym)
    leaf[sym] = leaf.get(sym, 0.0) + period / 1e6
    for name, pattern in PARTS:
        if pattern.search(stack):
            ms[name] += period / 1e6
            return
    ms["rest"] += period / 1e6
for line in sys.stdin:
    if not line.strip():
        flush(); period, frames = None, []
    elif not line.startswith((" ", "\t")):
        flush(); frames = []
        m = re.search(r"\s(\d+)\s+cpu-clock", line)
        period = int(m.group(1)) if m else 0
    else:
        frames.append(line.strip())
flush()
for name in [p for p, _ in PARTS] + ["rest"]:
    print(f"{name},{ms[name]:.1f}")
with open(sys.argv[1], "w") as out:  # CPU ms by the sampled (innermost) function
    for sym, v in sorted(leaf.items(), key=lambda kv: -kv[1]):
        out.write(f"{v:.1f}\t{sym}\n")
PY
  for set in small large; do
    rm -rf "$TMP/perf-store"
    if [[ $set == small ]]; then list=("${SMALL_FILES[@]}"); else list=("${BIG_FILES[@]}"); fi
    log "perf record: $set"
    perf record -q -e cpu-clock -F 499 --call-graph dwarf,16384 -o "$TMP/$set.perf" -- \
      "$GHSIFT" ingest --store "$TMP/perf-store" --quiet --all-repos --threads "$THREADS" "${list[@]}" 2>/dev/null
    perf script -i "$TMP/$set.perf" -F comm,tid,period,event,ip,sym --no-inline 2>/dev/null \
      | python3 "$TMP/classify.py" "$TMP/$set.leaf" > "$TMP/$set.parts"
  done
  echo "part,small_cpu_ms,large_cpu_ms,per_file_cpu_ms,year_cpu_s" > "$PARTS"
  paste -d, "$TMP/small.parts" "$TMP/large.parts" | awk -F, -v n="$((FILES - LARGE))" '
    { d = ($2 - $4) / n; printf "%s,%.0f,%.0f,%.3f,%.1f\n", $1, $2, $4, d, d * 8760 / 1000 }' >> "$PARTS"
  # The functions whose CPU time grows most with the number of files.
  awk -F'\t' -v n="$((FILES - LARGE))" 'FNR == NR { l[$2] = $1; next } { d[$2] = $1 - l[$2] }
    END { for (s in d) printf "%.3f\t%s\n", d[s] / n, s }' "$TMP/large.leaf" "$TMP/small.leaf" \
    | sort -t$'\t' -k1,1gr | head -15 > "$OUT/top_functions.tsv"
fi

# ------------------------------------------------------------------ report
col() { awk -F, -v r="$1" -v c="$2" '$1 == r { print $c }' "$RAW"; }
SUM="$OUT/summary.csv"
echo "run,files,median_s,best_s,median_cpu_s,peak_rss_mb,median_pipeline_s,median_rollup_s,median_flush_s" > "$SUM"
for run in small large small-c0 rerun rerun-large verify verify-large; do
  n=$FILES
  [[ $run != *large ]] || n=$LARGE
  printf '%s,%s,%s,%s,%s,%.0f,%s,%s,%s\n' "$run" "$n" "$(col "$run" 3 | median)" "$(col "$run" 3 | best)" "$(col "$run" 9 | median)" \
    "$(col "$run" 4 | sort -g | tail -1 | awk '{ print $1 / 1024 }')" \
    "$(col "$run" 5 | median)" "$(col "$run" 6 | median)" "$(col "$run" 7 | median)" >> "$SUM"
done
n=$((FILES - LARGE))
# per_file_ms RUN BASE COLUMN: (RUN's median - BASE's median) / n, in ms (3: wall, 5: CPU).
per_file_ms() {
  awk -F, -v a="$1" -v b="$2" -v c="$3" -v n="$n" '$1 == a { x = $c } $1 == b { y = $c }
    END { printf "%.2f", (x - y) * 1000 / n }' "$SUM"
}
year() { awk -v ms="$1" 'BEGIN { printf "%.1f", ms * 8760 / 1000 }'; }
cost_row() {  # cost_row LABEL RUN BASE
  local wall cpu
  wall=$(per_file_ms "$2" "$3" 3)
  cpu=$(per_file_ms "$2" "$3" 5)
  echo "| $1 | $wall | $(year "$wall") | $cpu | $(year "$cpu") |"
}

MD="$OUT/summary.md"
{
  echo "# ghsift per-file cost ($(date -u +%Y-%m-%dT%H:%MZ))"
  echo
  echo "ghsift: \`$GHSIFT\`; threads $THREADS; $ROUNDS rounds; machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "small: $FILES hours x $EVENTS events (\`ghsift gen --seed $SEED\`), $SMALL_GZ bytes gz; large: $LARGE files of the same" \
       "hours, $BIG_GZ bytes gz; both $SMALL_BYTES bytes uncompressed."
  echo
  echo "| run | files | median wall s | best wall s | median CPU s | peak RSS MB | pipeline s | rollup s | flush s |"
  echo "|---|---|---|---|---|---|---|---|---|"
  tail -n +2 "$SUM" | awk -F, '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }'
  echo
  echo "CPU = user + sys of the ghsift process (GNU time): what the files cost when other work competes for the cores."
  echo
  echo "| cost per file (medians) | wall ms | a year (8,760 files), wall s | CPU ms | a year, CPU s |"
  echo "|---|---|---|---|---|"
  cost_row "first ingest, grouped commits (default): (small - large) / $n" small large
  cost_row "first ingest, each file its own commit (--commit-mib 0): (small-c0 - large) / $n" small-c0 large
  cost_row "re-run, every file skipped (name, size, mtime): (rerun - rerun-large) / $n" rerun rerun-large
  cost_row "re-run --verify, every file hashed again: (verify - verify-large) / $n" verify verify-large
  if [[ -s "$PARTS" ]]; then
    echo
    echo "CPU by part (perf record --call-graph dwarf, one ingest of each set; CPU of all threads, not wall):"
    echo
    echo "| part | small CPU ms | large CPU ms | per file CPU ms | a year of files, CPU s |"
    echo "|---|---|---|---|---|"
    tail -n +2 "$PARTS" | awk -F, '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }'
    echo
    echo "Sampled functions whose CPU time grows most with the number of files (per-file CPU ms, small - large):"
    echo
    echo "| per file CPU ms | function (dso) |"
    echo "|---|---|"
    awk -F'\t' '{ gsub(/\|/, "\\|", $2); printf "| %s | %s |\n", $1, $2 }' "$OUT/top_functions.tsv"
  fi
} > "$MD"
cat "$MD"
log "wrote $MD, $SUM, $RAW${WITH_PERF:+, $PARTS}"
