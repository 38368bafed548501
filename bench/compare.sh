#!/usr/bin/env bash
# End-to-end comparison of `ghsift ingest` with the decompression limit and two peers, on the
# same generated GH Archive files. See bench/README.md for what each number means.
#
#   bench/compare.sh [--hours 24] [--profile 2016|2024|none] [--events-per-hour N] [--rounds 3]
#                    [--threads 2] [--out bench/results/DATE] [--build-dir build-bench]
#                    [--seed 20240101] [--corpus DIR] [--zst] [--no-duckdb] [--no-jq] [--ghsift PATH]
#
# The corpus is generated with `ghsift gen --profile 2016` by default: hours shaped like the real
# 2016 hours (repositories and actors per event, type mix, event sizes), 12,700 events each as
# a real 2016 hour, so that the ratio to igzip is the one real hours give (bench/real_hours.sh
# times those). --profile none gives the generator's older uniform shape (40,000 events an hour
# by default), --profile 2024 today's (140,000 events an hour).
# --ghsift PATH times that binary as it is (another build) instead of building --build-dir.
# --corpus DIR is generated (and replaced) only if it is a generated corpus or empty: a directory
# of other dump files (the real hours in ../shared) is refused; bench/real_hours.sh times those.
#
# Tools, each run --rounds times one after another (wall time and peak RSS by /usr/bin/time):
#   ghsift   ghsift ingest --quiet --all-repos --threads T into a fresh store
#   igzip    igzip -dc FILE > /dev/null, T files at a time (xargs -P): the decompression limit
#   zstd     zstd -dc on the .json.zst twins (only with --zst)
#   duckdb   @duckdb/node-api: read_ndjson over the .json.gz files, regexp_matches, count distinct
#   jq       zcat | jq | grep per file, T at a time, then sort -u | wc -l
# Peers answer the "same question": distinct (repo, issue number) among IssuesEvent and
# IssueCommentEvent whose issue title or body matches PEER_REGEX (case-insensitive). duckdb and
# jq must agree on the count before the table is written (verify before you time).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HOURS=24
PROFILE=2016
EVENTS=""
ROUNDS=3
THREADS=2
OUT=""
BUILD_DIR="$ROOT/build-bench"
SEED=20240101
CORPUS=""
GHSIFT=""
WITH_ZST=0
WITH_DUCKDB=1
WITH_JQ=1
PEER_WORDS='slow|memory leak|out of memory|oom|hang'

usage() { sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --hours) HOURS=$2; shift 2 ;;
    --events-per-hour) EVENTS=$2; shift 2 ;;
    --profile) PROFILE=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --build-dir) BUILD_DIR=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --corpus) CORPUS=$2; shift 2 ;;
    --ghsift) GHSIFT=$2; shift 2 ;;
    --zst) WITH_ZST=1; shift ;;
    --no-duckdb) WITH_DUCKDB=0; shift ;;
    --no-jq) WITH_JQ=0; shift ;;
    -h|--help) usage 0 ;;
    *) echo "compare.sh: unknown argument '$1'" >&2; usage 2 ;;
  esac
done
case "$PROFILE" in
  2016) DEFAULT_EVENTS=12700 ;;
  2024) DEFAULT_EVENTS=140000 ;;
  none) DEFAULT_EVENTS=40000 ;;
  *) echo "compare.sh: --profile must be 2016, 2024 or none (got '$PROFILE')" >&2; exit 2 ;;
esac
[[ -n "$EVENTS" ]] || EVENTS=$DEFAULT_EVENTS
PROFILE_ARGS=()
[[ $PROFILE == none ]] || PROFILE_ARGS=(--profile "$PROFILE")
[[ -n "$OUT" ]] || OUT="$ROOT/bench/results/$(date +%Y-%m-%d-%H%M%S)"
[[ -n "$CORPUS" ]] || CORPUS="$ROOT/bench/results/corpus/h${HOURS}-e${EVENTS}-s${SEED}-p${PROFILE}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
log() { printf '[compare] %s\n' "$*" >&2; }

# ------------------------------------------------------------------ tools (apt-get if missing)
SUDO=""
[[ $(id -u) -eq 0 ]] || SUDO="sudo"
APT_UPDATED=0
need() {  # need COMMAND PACKAGE
  command -v "$1" >/dev/null 2>&1 && return 0
  log "installing $2 (for $1)"
  if [[ $APT_UPDATED -eq 0 ]]; then $SUDO apt-get update -qq >/dev/null; APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$2" >/dev/null
}
[[ -x /usr/bin/time ]] || need /usr/bin/time time
need igzip isal
[[ $WITH_JQ -eq 0 ]] || need jq jq
[[ $WITH_ZST -eq 0 ]] || need zstd zstd

# ------------------------------------------------------------------ build ghsift (Release)
source "$ROOT/bench/lib.sh"
ensure_ghsift

# ------------------------------------------------------------------ corpus (fixed seed, reused)
ensure_gen_corpus "$CORPUS" --hours "$HOURS" --events-per-hour "$EVENTS" --seed "$SEED" --compress gz "${PROFILE_ARGS[@]}"
if [[ $WITH_ZST -eq 1 && $(ls "$CORPUS"/zst/*.json.zst 2>/dev/null | wc -l) -ne $HOURS ]]; then
  log "generating the .json.zst twins (same seed) into $CORPUS/zst"
  rm -rf "$CORPUS/zst"
  "$GHSIFT" gen --out "$CORPUS/zst" --hours "$HOURS" --events-per-hour "$EVENTS" --seed "$SEED" --compress zst \
    "${PROFILE_ARGS[@]}" >&2
fi
mapfile -t FILES < <(ls "$CORPUS"/*.json.gz | sort)
if [[ ! -s "$CORPUS/uncompressed_bytes" ]]; then
  cat "${FILES[@]}" | igzip -dc | wc -c > "$CORPUS/uncompressed_bytes"
fi
BYTES=$(cat "$CORPUS/uncompressed_bytes")
log "corpus: ${#FILES[@]} files, $(du -sbc "${FILES[@]}" | tail -1 | cut -f1) bytes gz, $BYTES bytes uncompressed"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ghsift-compare.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# ------------------------------------------------------------------ the measured commands
# A fresh store per round; removing the previous one is not timed (ghsift.pre.sh).
printf 'rm -rf "%s"\n' "$WORK/store" > "$WORK/ghsift.pre.sh"
{
  echo '#!/usr/bin/env bash'
  echo 'set -e'
  printf '"%s" ingest --store "%s" --quiet --timings --all-repos --threads %s' "$GHSIFT" "$WORK/store" "$THREADS"
  printf ' "%s"' "${FILES[@]}"
  # --timings: where ghsift's time went, one line per round (summarised below).
  printf ' >/dev/null 2>>"%s"\n' "$WORK/ghsift.timings"
} > "$WORK/ghsift.sh"
cat > "$WORK/igzip.sh" <<EOF
#!/usr/bin/env bash
set -e
printf '%s\0' "$CORPUS"/*.json.gz | xargs -0 -P $THREADS -n 1 sh -c 'igzip -dc "\$0" > /dev/null'
EOF
cat > "$WORK/zstd.sh" <<EOF
#!/usr/bin/env bash
set -e
printf '%s\0' "$CORPUS"/zst/*.json.zst | xargs -0 -P $THREADS -n 1 sh -c 'zstd -qdc "\$0" > /dev/null'
EOF
# jq: per file, keep the (repo, number) of matching reports; then one global sort -u.
# @tsv escapes newlines inside title/body as "\n", which sed turns back into a space so that
# \b sees a word boundary there, as the other tools do. The regex must hit the title or body
# (third tab-separated field on), never the repo name.
TAB=$'\t'
cat > "$WORK/jq_one.sh" <<EOF
#!/usr/bin/env bash
set -eo pipefail
zcat "\$1" \
  | jq -r 'select(.type=="IssuesEvent" or .type=="IssueCommentEvent")
           | [.repo.name, (.payload.issue.number|tostring), (.payload.issue.title // ""), (.payload.issue.body // "")]
           | @tsv' \
  | sed 's/\\\\[nrt]/ /g' \
  | { LC_ALL=C grep -iE '^[^$TAB]*$TAB[^$TAB]*$TAB.*\b($PEER_WORDS)' || true; } \
  | cut -f1,2
EOF
cat > "$WORK/jq.sh" <<EOF
#!/usr/bin/env bash
set -eo pipefail
printf '%s\0' "$CORPUS"/*.json.gz | xargs -0 -P $THREADS -n 1 bash "$WORK/jq_one.sh" | LC_ALL=C sort -u > "$WORK/jq_pairs.tsv"
wc -l < "$WORK/jq_pairs.tsv" > "$WORK/jq.answer"
EOF

# DuckDB through its Node API, installed into bench/.node_modules (git-ignored, not committed).
NODE_DIR="$ROOT/bench/.node_modules"
DUCKDB_NOTE=""
if [[ $WITH_DUCKDB -eq 1 ]]; then
  if ! command -v node >/dev/null 2>&1; then
    DUCKDB_NOTE="node is not installed"
  elif [[ ! -d "$NODE_DIR/node_modules/@duckdb/node-api" ]]; then
    log "installing @duckdb/node-api into $NODE_DIR"
    mkdir -p "$NODE_DIR"
    if ! npm install --prefix "$NODE_DIR" --no-audit --no-fund --loglevel=error @duckdb/node-api >"$WORK/npm.log" 2>&1; then
      DUCKDB_NOTE="npm install @duckdb/node-api failed: $(tail -3 "$WORK/npm.log" | tr '\n' ' ')"
    fi
  fi
  [[ -z "$DUCKDB_NOTE" ]] || { log "DuckDB skipped: $DUCKDB_NOTE"; WITH_DUCKDB=0; }
fi
printf '%s\n' "${FILES[@]}" > "$WORK/files.txt"
cat > "$WORK/duckdb.cjs" <<'EOF'
// Usage: node duckdb.cjs FILES_LIST THREADS REGEX ANSWER_FILE
const fs = require('fs');
const { DuckDBInstance } = require('@duckdb/node-api');
const [files, threads, regex, answer] = process.argv.slice(2);
const list = fs.readFileSync(files, 'utf8').split('\n').filter(Boolean).map((f) => `'${f.replace(/'/g, "''")}'`);
const re = `'${regex.replace(/'/g, "''")}'`;
(async () => {
  const db = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const con = await db.connect();
  // payload stays JSON: its shape differs per event type, so no schema is inferred for it.
  const sql = `
    WITH ev AS (
      SELECT repo.name AS repo,
             json_extract(payload, '$.issue.number')::BIGINT AS number,
             coalesce(json_extract_string(payload, '$.issue.title'), '') AS title,
             coalesce(json_extract_string(payload, '$.issue.body'), '') AS body
      FROM read_ndjson([${list.join(', ')}],
                       columns = {type: 'VARCHAR', repo: 'STRUCT(id BIGINT, name VARCHAR)', payload: 'JSON'},
                       compression = 'gzip', maximum_object_size = 67108864)
      WHERE type IN ('IssuesEvent', 'IssueCommentEvent'))
    SELECT repo, count(DISTINCT number) AS issues
    FROM ev
    WHERE regexp_matches(title, ${re}) OR regexp_matches(body, ${re})
    GROUP BY repo`;
  const reader = await con.runAndReadAll(sql);
  let total = 0;
  for (const row of reader.getRows()) total += Number(row[1]);
  fs.writeFileSync(answer, `${total}\n`);
})().catch((e) => { console.error(e); process.exit(1); });
EOF
cat > "$WORK/duckdb.sh" <<EOF
#!/usr/bin/env bash
set -e
NODE_PATH="$NODE_DIR/node_modules" node "$WORK/duckdb.cjs" "$WORK/files.txt" $THREADS '(?i)\\b($PEER_WORDS)' "$WORK/duckdb.answer"
EOF

# ------------------------------------------------------------------ run
RAW="$OUT/raw.csv"
echo "tool,round,wall_s,peak_rss_kb" > "$RAW"
measure() {  # measure TOOL SCRIPT
  local tool=$1 script=$2 r
  for ((r = 1; r <= ROUNDS; r++)); do
    [[ ! -f "$WORK/$tool.pre.sh" ]] || bash "$WORK/$tool.pre.sh"
    if ! /usr/bin/time -f '%e %M' -o "$WORK/time.out" bash "$script" 2>"$WORK/$tool.err"; then
      log "$tool failed (round $r): $(tail -3 "$WORK/$tool.err" | tr '\n' ' ')"
      return 1
    fi
    read -r wall rss < <(tail -1 "$WORK/time.out")
    echo "$tool,$r,$wall,$rss" >> "$RAW"
    log "$tool round $r: ${wall}s, $((rss / 1024)) MB peak RSS"
  done
}
TOOLS=()
measure ghsift "$WORK/ghsift.sh" && TOOLS+=(ghsift)
if [[ -d "$WORK/store" ]]; then
  "$GHSIFT" query --store "$WORK/store" --by repo --category performance --format csv \
    | awk -F, 'NR > 1 { s += $NF } END { print s + 0 }' > "$WORK/ghsift.answer" || rm -f "$WORK/ghsift.answer"
fi
measure igzip "$WORK/igzip.sh" && TOOLS+=(igzip)
if [[ $WITH_ZST -eq 1 ]]; then measure zstd "$WORK/zstd.sh" && TOOLS+=(zstd); fi
if [[ $WITH_DUCKDB -eq 1 ]]; then measure duckdb "$WORK/duckdb.sh" && TOOLS+=(duckdb) || DUCKDB_NOTE="duckdb run failed: $(tail -2 "$WORK/duckdb.err" | tr '\n' ' ')"; fi
if [[ $WITH_JQ -eq 1 ]]; then measure jq "$WORK/jq.sh" && TOOLS+=(jq); fi

# Verify: the two peers answer the same question, so their counts must agree.
ANSWER_NOTE=""
if [[ -f "$WORK/duckdb.answer" && -f "$WORK/jq.answer" ]]; then
  if [[ $(cat "$WORK/duckdb.answer") -ne $(cat "$WORK/jq.answer") ]]; then
    ANSWER_NOTE="WARNING: duckdb ($(cat "$WORK/duckdb.answer")) and jq ($(cat "$WORK/jq.answer")) disagree on the peer question"
    log "$ANSWER_NOTE"
  fi
fi

# ------------------------------------------------------------------ report
CSV="$OUT/summary.csv"
echo "tool,rounds,median_wall_s,uncompressed_mb_s,peak_rss_mb,ghsift_time_over_tool,answer" > "$CSV"
GH_MED=$(awk -F, '$1 == "ghsift" { print $3 }' "$RAW" | median)
for tool in "${TOOLS[@]}"; do
  med=$(awk -F, -v t="$tool" '$1 == t { print $3 }' "$RAW" | median)
  rss=$(awk -F, -v t="$tool" '$1 == t && $4 > m { m = $4 } END { printf "%.0f", m / 1024 }' "$RAW")
  mbs=$(awk -v b="$BYTES" -v s="$med" 'BEGIN { printf "%.1f", (s > 0 ? b / 1e6 / s : 0) }')
  ratio=$(awk -v g="$GH_MED" -v s="$med" 'BEGIN { printf "%.2f", ((g != "" && s > 0) ? g / s : 0) }')
  ans="-"
  [[ ! -f "$WORK/$tool.answer" ]] || ans=$(cat "$WORK/$tool.answer")
  echo "$tool,$ROUNDS,$med,$mbs,$rss,$ratio,$ans" >> "$CSV"
done

MD="$OUT/summary.md"
{
  echo "# ghsift end-to-end comparison ($(date -u +%Y-%m-%dT%H:%MZ))"
  echo
  echo "Corpus: ${#FILES[@]} hours x $EVENTS events (seed $SEED), $(awk -v b="$BYTES" 'BEGIN { printf "%.1f", b / 1e6 }') MB uncompressed;" \
       "threads $THREADS; $ROUNDS round(s) each; machine: $(nproc) cores, $(uname -r)."
  echo
  echo "| tool | rounds | median wall s | uncompressed MB/s | peak RSS MB | ghsift time / tool time | answer |"
  echo "|---|---|---|---|---|---|---|"
  tail -n +2 "$CSV" | awk -F, '{ printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7 }'
  echo
  echo "* ghsift: \`ghsift ingest --quiet --all-repos --threads $THREADS\` into a fresh store (all rules, all counters, RocksDB commit);" \
       "answer = performance-flagged issues (\`query --by repo --category performance\`)."
  echo "* igzip / zstd: decompression only, $THREADS files at a time, output discarded: the limit for any tool reading these files."
  echo "* duckdb / jq: distinct (repo, number) of IssuesEvent/IssueCommentEvent whose title or body matches \`(?i)\\b($PEER_WORDS)\`."
  echo "* ghsift time / tool time: < 1 means ghsift is faster; against igzip it is how far ghsift is from the decompression limit."
  echo "* peak RSS: the largest single process (GNU time), not the sum over parallel processes."
  if [[ -s "$WORK/ghsift.timings" ]]; then
    # "ghsift: timings: start S s CPU (...), rules R s, store open O s; read, parse, scan and commit P s; rollup refresh R s (N reports); flush F s; total T s"
    sed -nE 's/.*commit ([0-9.]+) s; rollup refresh ([0-9.]+) s.*flush ([0-9.]+) s; total ([0-9.]+) s/\1 \2 \3 \4/p' \
      "$WORK/ghsift.timings" > "$WORK/ghsift.parts"
    parts=()
    for col in 1 2 3; do parts+=("$(awk -v c=$col '{ print $c }' "$WORK/ghsift.parts" | median)"); done
    echo "* where ghsift's time went (\`--timings\`, medians): pipeline (read, inflate, parse, scan, commit) ${parts[0]} s," \
         "rollup refresh ${parts[1]} s, final flush ${parts[2]} s; the rest is starting up (rules, store)."
  fi
  [[ -z "$DUCKDB_NOTE" ]] || echo "* DuckDB not measured: $DUCKDB_NOTE"
  [[ -z "$ANSWER_NOTE" ]] || echo "* $ANSWER_NOTE"
} > "$MD"

# SVG: one horizontal bar per tool, length = median wall time.
SVG="$OUT/summary.svg"
tail -n +2 "$CSV" | awk -F, -v title="median wall time, s (${#FILES[@]} h x $EVENTS events, $THREADS threads)" '
  { tool[NR] = $1; t[NR] = $3 + 0; if (t[NR] > max) max = t[NR] }
  END {
    w = 640; left = 90; bar = 26; gap = 10; top = 40; h = top + NR * (bar + gap) + 20
    if (max <= 0) max = 1
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"13\">\n", w, h
    printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
    printf "<text x=\"%d\" y=\"22\" font-weight=\"bold\">%s</text>\n", left, title
    for (i = 1; i <= NR; i++) {
      y = top + (i - 1) * (bar + gap); len = (w - left - 90) * t[i] / max
      color = tool[i] == "ghsift" ? "#d9480f" : (tool[i] == "igzip" || tool[i] == "zstd" ? "#868e96" : "#1c7ed6")
      printf "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", left - 8, y + bar * 0.7, tool[i]
      printf "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n", left, y, len, bar, color
      printf "<text x=\"%.1f\" y=\"%d\">%.2f s</text>\n", left + len + 6, y + bar * 0.7, t[i]
    }
    print "</svg>"
  }' > "$SVG"

column -t -s, "$CSV"
[[ -z "$DUCKDB_NOTE" ]] || echo "note: DuckDB not measured: $DUCKDB_NOTE"
[[ -z "$ANSWER_NOTE" ]] || echo "note: $ANSWER_NOTE"
log "wrote $MD, $CSV, $RAW, $SVG"
