#!/usr/bin/env bash
# Streaming ingest over HTTP against ingest of the same files from disk, in the same run.
#   bench/http_ingest.sh [--hours 24] [--events-per-hour 10000] [--rounds 3] [--connections "1 2 4 8"]
#                        [--latency-ms 0] [--rate-mbps 0] [--server lighttpd|python]
# Serves a generated day on 127.0.0.1, then for each round ingests it from disk and over HTTP
# with each --connections value into fresh stores, and prints the median seconds and peak RSS of
# each (GNU time). Also checks that every HTTP store answers like the disk store before reporting
# a time for it. Beside each run's time: the CPU seconds of ghsift and of the server; the last row
# is curl alone fetching the same hours to /dev/null, the cost of moving the bytes over loopback.
#
# Speed is compared round by round ("x disk speed" is the median of each round's disk time over
# its HTTP time, with the lowest and highest round): the machine drifts between rounds (on these
# virtual machines the kernel's first touch of fresh memory costs 1% of a run's CPU in one round
# and 10% in the next), and a ratio within a round sees both runs under the same drift. The last
# line separates the peak RSS that loading libcurl itself adds (its libraries and TLS set-up,
# measured on a one-event hour over HTTP against the same hour from disk) from what streaming holds.
#
# The server shares the two cores with ghsift, so its own CPU counts against the HTTP figure:
# lighttpd (Debian package, installed by tools/setup.sh) sends files with sendfile() and is the
# default; tests/io/fault_http_server.py (Python) is used when lighttpd is missing, and for
# --latency-ms and --rate-mbps, which make the server answer like a distant one (a wait before
# each answer, each connection's body paced to that many MB/s), to choose --connections for the
# real archive.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
hours=24 events=10000 rounds=3 connections="1 2 4 8" latency_ms=0 rate_mbps=0 server=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --hours) hours="$2"; shift 2 ;;
    --events-per-hour) events="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --latency-ms) latency_ms="$2"; shift 2 ;;
    --rate-mbps) rate_mbps="$2"; shift 2 ;;
    --server) server="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
log() { echo "http_ingest: $*" >&2; }
source "$ROOT/bench/lib.sh"
ensure_ghsift

work="$(mktemp -d)"
server_pid=""
cleanup() { [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
log "generating $hours hours of $events events"
"$GHSIFT" gen --out "$work/hours" --hours "$hours" --events-per-hour "$events" --seed 7 >/dev/null 2>&1
python3 -c 'import gzip, sys; sys.stdout.buffer.write(gzip.compress(gzip.open(sys.argv[1]).readline()))' \
  "$work/hours/2024-01-01-0.json.gz" >"$work/hours/tiny-0.json.gz"
lighttpd_bin=$(command -v lighttpd || echo /usr/sbin/lighttpd)
shaped=$([[ "$latency_ms" != 0 || "$rate_mbps" != 0 ]] && echo 1 || echo 0)
if [[ -z "$server" ]]; then
  server=python
  [[ -x "$lighttpd_bin" && "$shaped" == 0 ]] && server=lighttpd
fi
case "$server" in
  lighttpd)
    [[ -x "$lighttpd_bin" ]] || { echo "--server lighttpd: lighttpd is not installed (tools/setup.sh installs it)" >&2; exit 2; }
    [[ "$shaped" == 0 ]] || { echo "--latency-ms and --rate-mbps need --server python" >&2; exit 2; }
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    cat >"$work/lighttpd.conf" <<CONF
server.document-root = "$work/hours"
server.bind = "127.0.0.1"
server.port = $port
server.errorlog = "$work/lighttpd.log"
server.modules = ()
server.max-keep-alive-requests = 10000
mimetype.assign = ( "" => "application/octet-stream" )
CONF
    "$lighttpd_bin" -D -f "$work/lighttpd.conf" &
    server_pid=$!
    for _ in $(seq 100); do
      python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
      sleep 0.1
    done
    echo "$port" >"$work/port"
    ;;
  python)
    python3 "$ROOT/tests/io/fault_http_server.py" --dir "$work/hours" --idle 600 --lifetime 7200 \
      --latency-ms "$latency_ms" --rate-mbps "$rate_mbps" >"$work/port" &
    server_pid=$!
    for _ in $(seq 100); do [[ -s "$work/port" ]] && break; sleep 0.1; done
    ;;
  *) echo "--server: lighttpd or python, not '$server'" >&2; exit 2 ;;
esac
base="http://127.0.0.1:$(head -1 "$work/port")"
last=$((hours - 1))
to="2024-01-01-$last"
(( hours > 24 )) && { echo "at most 24 hours (one day)" >&2; exit 2; }

answers() { "$GHSIFT" query --store "$1" --metric events --by repo,day,type --format csv; "$GHSIFT" query --store "$1" --kind all --by repo,month,category,state --format csv; }
# server_cpu: CPU seconds the server has used so far (user + system).
ticks=$(getconf CLK_TCK)
server_cpu() { awk -v t="$ticks" '{ printf "%.2f\n", ($14 + $15) / t }' "/proc/$server_pid/stat"; }
# timed NAME COMMAND...: appends "seconds rss_kb cpu_s server_cpu_s" of one run to $work/NAME.
timed() {
  local name="$1"; shift
  local before; before=$(server_cpu)
  /usr/bin/time -f "%e %M %U %S" -o "$work/t" "$@"
  read -r e m u sy <"$work/t"
  echo "$e $m $(echo "$u + $sy" | bc -l) $(echo "$(server_cpu) - $before" | bc -l)" >>"$work/$name"
}
# run NAME ARGS...: one timed ingest into a fresh store.
run() {
  local name="$1"; shift
  rm -rf "$work/store"
  timed "$name" "$GHSIFT" ingest -q --all-repos --store "$work/store" "$@"
  if [[ "$name" == disk ]]; then answers "$work/store" >"$work/disk.answers"
  elif ! cmp -s <(answers "$work/store") "$work/disk.answers"; then echo "$name: store differs from the disk ingest" >&2; exit 1; fi
}
for r in $(seq "$rounds"); do
  log "round $r"
  run disk "$work"/hours/2024-*.json.gz
  for c in $connections; do run "http-$c" --from 2024-01-01 --to "$to" --source "$base" --connections "$c"; done
  # What moving the bytes alone costs: curl fetching every hour to /dev/null, 8 at a time.
  urls=() && for h in $(seq 0 "$last"); do urls+=(-o /dev/null "$base/2024-01-01-$h.json.gz"); done
  timed transfer curl -s --no-progress-meter --fail --parallel --parallel-immediate --parallel-max 8 "${urls[@]}"
  # The fixed cost of the HTTP path: one tiny hour from disk and over HTTP.
  rm -rf "$work/store"; timed tiny-disk "$GHSIFT" ingest -q --all-repos --store "$work/store" "$work/hours/tiny-0.json.gz"
  rm -rf "$work/store"; timed tiny-http "$GHSIFT" ingest -q --all-repos --store "$work/store" "$base/tiny-0.json.gz"
done
bytes=$(du -cb "$work"/hours/*.json.gz | tail -1 | cut -f1)
printf '%-10s %8s %12s %20s %8s %11s\n' run seconds "peak RSS MB" "x disk speed (range)" "CPU s" "server CPU"
col() { cut -d' ' -f"$1" "$work/$name" | median; }  # median of column $1 of the runs of $name
# ratios NAME: each round's disk seconds over NAME's seconds, one per line.
ratios() { paste -d' ' <(cut -d' ' -f1 "$work/disk") <(cut -d' ' -f1 "$work/$1") | awk '{ printf "%.4f\n", $1 / $2 }'; }
for name in disk $(for c in $connections; do echo "http-$c"; done) transfer; do
  ratio=-
  if [[ "$name" == http-* ]]; then
    ratio=$(printf '%.2f (%.2f-%.2f)' "$(ratios "$name" | median)" "$(ratios "$name" | sort -g | head -1)" \
      "$(ratios "$name" | sort -g | tail -1)")
  elif [[ "$name" == disk ]]; then ratio=1.00
  fi
  printf '%-10s %8.2f %12.0f %20s %8.2f %11.2f\n' "$name" "$(col 1)" "$(echo "$(col 2) / 1024" | bc -l)" \
    "$ratio" "$(col 3)" "$(col 4)"
done
name=tiny-disk; tiny_disk=$(col 2)
name=tiny-http; tiny_http=$(col 2)
log "$(printf 'loading libcurl adds %.1f MB of peak RSS (a one-event hour: %.0f MB over HTTP, %.0f MB from disk)' \
  "$(echo "($tiny_http - $tiny_disk) / 1024" | bc -l)" "$(echo "$tiny_http / 1024" | bc -l)" "$(echo "$tiny_disk / 1024" | bc -l)")"
log "transfer: curl alone fetching the hours to /dev/null (its CPU and the server's are what HTTP adds on these shared cores)"
log "$hours hours, $((bytes / 1000000)) MB of gzip; server $server, latency $latency_ms ms, $rate_mbps MB/s per connection (0: unshaped)"
