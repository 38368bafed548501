#!/usr/bin/env bash
# End-to-end comparison of `ghsift ingest` with the decompression limit and its peers (chDB,
# DuckDB, a jq pipeline), on the same generated GH Archive files in the same run. See
# bench/README.md for what each number means.
#
#   bench/compare.sh [--hours 24] [--profile 2016|2024|none] [--events-per-hour N] [--rounds 3]
#                    [--threads 2] [--out bench/results/DATE] [--build-dir build-bench]
#                    [--seed 20240101] [--corpus DIR] [--zst] [--no-peers] [--no-chdb]
#                    [--no-duckdb] [--no-jq] [--ghsift PATH]
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
# Tools, each run once per round, one after another (wall time, CPU and peak RSS by /usr/bin/time):
#   ghsift   ghsift ingest --quiet --all-repos --threads T into a fresh store
#   igzip    igzip -dc FILE > /dev/null, T files at a time (xargs -P): the decompression limit
#   zstd     zstd -dc on the .json.zst twins (only with --zst)
#   chdb     node bench/peers/chdb.cjs: chDB (ClickHouse in the process), T threads
#   duckdb   node bench/peers/duckdb.cjs: DuckDB, T threads
#   jq       zcat | jq | grep per file, T at a time, then sort -u | wc -l
# and each tool's fixed cost (start-up): the same run over one generated 1-event hour.
# The peers answer a simpler question than ghsift: distinct (repo, number) among IssuesEvent and
# IssueCommentEvent (issue title, body, comment body) and PullRequestEvent (title, body) whose
# text matches the regex of bench/peers/words.txt. chdb and duckdb must find what
# bench/peers/reference.py (Python) finds before any timing (verify before you time); jq's count
# is checked against theirs after.
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
WITH_PEERS=1
NO_PEERS=()
WITH_JQ=1

usage() { sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
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
    --no-peers) WITH_PEERS=0; shift ;;
    --no-jq) WITH_JQ=0; shift ;;
    --no-*) NO_PEERS+=("${1#--no-}"); shift ;;  # --no-chdb, --no-duckdb: one peer of bench/lib.sh's PEER_NAMES
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
for peer in "${NO_PEERS[@]}"; do
  [[ " ${PEER_NAMES[*]} " == *" $peer "* ]] || { echo "compare.sh: unknown argument '--no-$peer'" >&2; usage 2; }
done
PEERS=()
PEERS_NOTE="left out (--no-peers)"
if [[ $WITH_PEERS -eq 1 ]]; then
  ensure_peers
  kept=()
  for peer in "${PEERS[@]}"; do
    if [[ " ${NO_PEERS[*]} " == *" $peer "* ]]; then PEERS_NOTE+="${PEERS_NOTE:+; }$peer left out (--no-$peer)"; else kept+=("$peer"); fi
  done
  PEERS=("${kept[@]}")
fi
PEER_WORDS=$(peer_words)

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
# Every tool's script takes a file list (one path a line), so that the same command is timed on
# the corpus and, for its fixed cost, on one generated 1-event hour.
printf '%s\n' "${FILES[@]}" > "$WORK/corpus.list"
printf '%s\n' "$CORPUS"/zst/*.json.zst > "$WORK/corpus-zst.list"
"$GHSIFT" gen --out "$WORK/one" --hours 1 --events-per-hour 1 --seed 1 --compress gz >/dev/null 2>&1
ls "$WORK/one"/*.json.gz > "$WORK/one.list"
if [[ $WITH_ZST -eq 1 ]]; then
  "$GHSIFT" gen --out "$WORK/one-zst" --hours 1 --events-per-hour 1 --seed 1 --compress zst >/dev/null 2>&1
  ls "$WORK/one-zst"/*.json.zst > "$WORK/one-zst.list"
fi
# A fresh store per run; removing the previous one is not timed (ghsift.pre.sh). --timings:
# where ghsift's time went, one line per run (summarised below), into the file named by $2.
printf 'rm -rf "%s"\n' "$WORK/store" > "$WORK/ghsift.pre.sh"
cat > "$WORK/ghsift.sh" <<EOF
#!/usr/bin/env bash
set -e
mapfile -t files < "\$1"
"$GHSIFT" ingest --store "$WORK/store" --quiet --timings --all-repos --threads $THREADS "\${files[@]}" >/dev/null 2>>"\$2"
EOF
cat > "$WORK/igzip.sh" <<EOF
#!/usr/bin/env bash
set -e
tr '\n' '\0' < "\$1" | xargs -0 -P $THREADS -n 1 sh -c 'igzip -dc "\$0" > /dev/null'
EOF
cat > "$WORK/zstd.sh" <<EOF
#!/usr/bin/env bash
set -e
tr '\n' '\0' < "\$1" | xargs -0 -P $THREADS -n 1 sh -c 'zstd -qdc "\$0" > /dev/null'
EOF
# jq: per file, one line (repo, number, text) per text of a report (issue title, body and
# comment body; pull request title and body), kept when the text matches; then one global
# sort -u of (repo, number), so that a report seen in two hours counts once, as in the peers.
# @tsv escapes newlines inside a text as "\n", which sed turns back into a space so that \b sees
# a word boundary there, as the other tools do. The regex must hit the text (third field on),
# never the repo name.
TAB=$'\t'
cat > "$WORK/jq_one.sh" <<EOF
#!/usr/bin/env bash
set -eo pipefail
zcat "\$1" \
  | jq -r 'if .type == "PullRequestEvent" then [.repo.name, .payload.pull_request.number, .payload.pull_request.title, .payload.pull_request.body]
           elif .type == "IssuesEvent" or .type == "IssueCommentEvent" then [.repo.name, .payload.issue.number, .payload.issue.title, .payload.issue.body, .payload.comment.body]
           else empty end
           | select(.[1] != null) | .[0] as \$repo | (.[1] | tostring) as \$number
           | .[2:][] | select(. != null) | [\$repo, \$number, .] | @tsv' \
  | sed 's/\\\\[nrt]/ /g' \
  | { LC_ALL=C grep -iE '^[^$TAB]*$TAB[^$TAB]*$TAB.*\b($PEER_WORDS)\b' || true; } \
  | cut -f1,2 > "$WORK/jq_out/\$(basename "\$1").pairs"
EOF
# Each file's pairs go to a file of their own: the block-buffered output of T pipelines sharing
# one pipe would interleave mid-line and make up pairs.
cat > "$WORK/jq.sh" <<EOF
#!/usr/bin/env bash
set -eo pipefail
rm -rf "$WORK/jq_out" && mkdir "$WORK/jq_out"
tr '\n' '\0' < "\$1" | xargs -0 -P $THREADS -n 1 bash "$WORK/jq_one.sh"
cat "$WORK/jq_out"/*.pairs | LC_ALL=C sort -u > "$WORK/jq_pairs.tsv"
echo "\$(wc -l < "$WORK/jq_pairs.tsv") reports in \$(cut -f1 "$WORK/jq_pairs.tsv" | uniq | wc -l) repositories" > "\$2.answer"
EOF
for peer in "${PEERS[@]}"; do
  cat > "$WORK/$peer.sh" <<EOF
#!/usr/bin/env bash
set -e
node "$PEERS_DIR/$peer.cjs" --threads $THREADS --files "\$1" > "\$2.json"
EOF
done

# Verify before timing: the peers answer the same question, so they must agree (and find some).
verify_peers "corpus" "$WORK/corpus.list" "$THREADS"
for peer in "${PEERS[@]}"; do echo "$PEER_ANSWER" > "$WORK/$peer.corpus.answer"; done
# One untimed ingest: builds the rule database cache (a first run compiles it), warms the page
# cache, and gives ghsift's own answer: the reports its rules flag as performance problems.
bash "$WORK/ghsift.pre.sh"
bash "$WORK/ghsift.sh" "$WORK/corpus.list" /dev/null
"$GHSIFT" query --store "$WORK/store" --by repo --category performance --format csv \
  | awk -F, 'NR > 1 { s += $NF; n++ } END { printf "%d reports in %d repositories\n", s, n }' > "$WORK/ghsift.corpus.answer"

# ------------------------------------------------------------------ run
TOOLS=(ghsift igzip)
[[ $WITH_ZST -eq 0 ]] || TOOLS+=(zstd)
TOOLS+=("${PEERS[@]}")
[[ $WITH_JQ -eq 0 ]] || TOOLS+=(jq)
RAW="$OUT/raw.csv"
echo "tool,input,round,wall_s,peak_rss_kb,cpu_s,peer_query_s" > "$RAW"
FAILED=()
run() {  # run TOOL INPUT(corpus|one) ROUND: one timed run; returns 1 when the tool failed
  local tool=$1 input=$2 round=$3 list=$WORK/$2.list wall rss user sys query=""
  [[ $tool != zstd ]] || list=$WORK/$input-zst.list
  [[ ! -f "$WORK/$tool.pre.sh" ]] || bash "$WORK/$tool.pre.sh"
  rm -f "$WORK/$tool.$input.json"
  if ! /usr/bin/time -f '%e %M %U %S' -o "$WORK/time.out" bash "$WORK/$tool.sh" "$list" "$WORK/$tool.$input" \
         2>"$WORK/$tool.err"; then
    log "$tool failed ($input, round $round): $(tail -3 "$WORK/$tool.err" | tr '\n' ' ')"
    return 1
  fi
  read -r wall rss user sys < <(tail -1 "$WORK/time.out")
  [[ ! -s "$WORK/$tool.$input.json" ]] || query=$(peer_field "$WORK/$tool.$input.json" query_s)
  echo "$tool,$input,$round,$wall,$rss,$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }'),$query" >> "$RAW"
  [[ $input != corpus ]] || log "$tool round $round: ${wall}s, $((rss / 1024)) MB peak RSS"
}
for ((r = 1; r <= ROUNDS; r++)); do
  for tool in "${TOOLS[@]}"; do
    [[ " ${FAILED[*]} " != *" $tool "* ]] || continue
    if ! run "$tool" corpus "$r" || ! run "$tool" one "$r" 2>/dev/null; then FAILED+=("$tool"); fi
  done
  log "round $r of $ROUNDS done"
done
# jq answers the peers' question too: its count must be theirs.
ANSWER_NOTE=""
if [[ -f "$WORK/jq.corpus.answer" && -n "$PEER_ANSWER" ]]; then
  if [[ $(cat "$WORK/jq.corpus.answer") != "$PEER_ANSWER" ]]; then
    ANSWER_NOTE="WARNING: jq ($(cat "$WORK/jq.corpus.answer")) and ${PEERS[*]} ($PEER_ANSWER) disagree on the peer question"
    log "$ANSWER_NOTE"
  fi
fi

# ------------------------------------------------------------------ report
CSV="$OUT/summary.csv"
echo "tool,rounds,median_wall_s,best_wall_s,uncompressed_mb_s,peak_rss_mb,median_cpu_s,fixed_s,median_wall_s_without_fixed,igzip_share,igzip_share_without_fixed,median_query_s,igzip_share_query,ghsift_time_over_tool,answer" > "$CSV"
col() { awk -F, -v t="$1" -v i="$2" -v c="$3" '$1 == t && $2 == i && $c != "" { print $c }' "$RAW"; }
GH_MED=$(col ghsift corpus 4 | median)
IG_MED=$(col igzip corpus 4 | median)
for tool in "${TOOLS[@]}"; do
  [[ " ${FAILED[*]} " != *" $tool "* ]] || continue
  med=$(col "$tool" corpus 4 | median)
  bst=$(col "$tool" corpus 4 | best)
  rss=$(col "$tool" corpus 5 | sort -g | tail -1)
  cpu=$(col "$tool" corpus 6 | median)
  fixed=$(col "$tool" one 4 | median)
  query=$(col "$tool" corpus 7 | median)
  ans="-"
  [[ ! -f "$WORK/$tool.corpus.answer" ]] || ans=$(cat "$WORK/$tool.corpus.answer")
  awk -v tool="$tool" -v r="$ROUNDS" -v med="$med" -v bst="$bst" -v b="$BYTES" -v rss="$rss" -v cpu="$cpu" -v fx="$fixed" \
      -v q="$query" -v igm="$IG_MED" -v g="$GH_MED" -v ans="$ans" 'BEGIN {
    wo = (med - fx > 0) ? sprintf("%.2f", med - fx) : "-"
    share_wo = (tool == "igzip") ? "1.00" : ((med - fx > 0 && igm != "") ? sprintf("%.2f", igm / (med - fx)) : "-")
    query = (q == "") ? "-" : sprintf("%.2f", q)
    share_q = (q == "" || q <= 0 || igm == "") ? "-" : sprintf("%.2f", igm / q)
    share = (igm == "") ? "-" : sprintf("%.2f", igm / med)
    gh = (g == "") ? "-" : sprintf("%.2f", g / med)
    printf "%s,%d,%.2f,%.2f,%.1f,%.0f,%.2f,%.2f,%s,%s,%s,%s,%s,%s,%s\n", tool, r, med, bst, b / 1e6 / med, rss / 1024, cpu, fx,
           wo, share, share_wo, query, share_q, gh, ans }' >> "$CSV"
done

MD="$OUT/summary.md"
{
  echo "# ghsift end-to-end comparison ($(date -u +%Y-%m-%dT%H:%MZ))"
  echo
  echo "Corpus: ${#FILES[@]} hours x $EVENTS events (\`ghsift gen ${PROFILE_ARGS[*]} --seed $SEED\`), $(awk -v b="$BYTES" 'BEGIN { printf "%.1f", b / 1e6 }') MB uncompressed;" \
       "threads $THREADS; $ROUNDS round(s) each; machine: $(nproc) cores, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)."
  for peer in "${PEERS[@]}"; do echo "* peer $peer: $(node "$PEERS_DIR/$peer.cjs" --version)"; done
  echo
  echo "| tool | rounds | median wall s | best wall s | uncompressed MB/s | peak RSS MB | median CPU s | fixed s (1-event hour) | median wall s without fixed | igzip share | igzip share without fixed | query s (in-process) | igzip share of the query alone | ghsift time / tool time | answer |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  tail -n +2 "$CSV" | awk -F, '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15 }'
  echo
  echo "* ghsift: \`ghsift ingest --quiet --all-repos --threads $THREADS\` into a fresh store (all rules, all counters, RocksDB commit);" \
       "answer = reports its rules flag as performance problems (\`query --by repo --category performance\`)."
  echo "* igzip / zstd: decompression only, $THREADS files at a time, output discarded: the limit for any tool reading these files."
  echo "* chdb / duckdb / jq: distinct (repo, number) of IssuesEvent/IssueCommentEvent (issue title, body, comment body) and" \
       "PullRequestEvent (title, body) whose text matches \`(?i)\\b($PEER_WORDS)\\b\` (bench/peers/words.txt): a simpler question than ghsift's."
  echo "* igzip share = igzip's median wall time / the tool's: the share of the decompression limit the tool reaches (1.0 = at it)."
  echo "* fixed: the same command over one generated 1-event hour (start-up: process, libraries, engine or rules, store);" \
       "\"without fixed\" subtracts its median. query s: the peer's query alone, timed inside its process."
  echo "* ghsift time / tool time: < 1 means ghsift is faster."
  echo "* peak RSS: the largest single process (GNU time), not the sum over parallel processes."
  if [[ -s "$WORK/ghsift.corpus" ]]; then
    # One --timings line per timed run: the median of each part over the runs.
    parts=()
    for key in 'scan and commit' 'last chunk' 'rollup refresh' flush; do
      parts+=("$(timing_of "$key" "$WORK/ghsift.corpus" | median)")
    done
    echo "* where ghsift's time went (\`--timings\`, medians): pipeline (read, inflate, parse, scan, commit) ${parts[0]} s" \
         "(of which the commit after its last chunk ${parts[1]} s), rollup refresh ${parts[2]} s, final flush ${parts[3]} s;" \
         "the rest is starting up (rules, store)."
  fi
  echo "* Verified before timing: ${PEERS[*]:-no peer} find what bench/peers/reference.py (Python) finds${PEER_ANSWER:+: $PEER_ANSWER}."
  [[ -z "$PEERS_NOTE" ]] || echo "* peers: $PEERS_NOTE"
  [[ ${#FAILED[@]} -eq 0 ]] || echo "* failed, left out: ${FAILED[*]}"
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

# On the terminal: the times with and without the fixed cost, and the shares of the limit.
cut -d, -f1,3,6,8,9,10,11,12,13,14,15 "$CSV" | column -t -s,
[[ -z "$PEERS_NOTE" ]] || echo "note: peers: $PEERS_NOTE"
[[ ${#FAILED[@]} -eq 0 ]] || echo "note: failed, left out: ${FAILED[*]}"
[[ -z "$ANSWER_NOTE" ]] || echo "note: $ANSWER_NOTE"
log "wrote $MD, $CSV, $RAW, $SVG"
