#!/usr/bin/env bash
# Copies of real hours with their own event ids, for timing a larger real-shaped set than
# ../shared holds (its four 2016 hours weigh 98 MB; a day's worth shows what a run's fixed costs
# weigh against a longer one):
#
#   bench/replicate_hours.sh [--copies 4] [--from DIR] --to DIR
#
# Writes, for every YYYY-MM-DD-H.json.gz of --from (default: the 2016 hours of
# ../shared/data/gharchive-real/hours), the file itself (copied) and copies 2..N dated one day
# later each, in which every event id gets the copy's number in front ("id":"2...), so that no
# event of one copy repeats one of another (ghsift counts an event id once). Everything else is
# left as it was: the same reports, texts, repositories and actors, recompressed with gzip -6 as
# the archive's files are. What a copy does not reproduce: new reports (ghsift updates the same
# ones again, and its per-thread memo of recent report texts finds more of them), so a timing on
# copies favours ghsift slightly against a tool without such a memo. Only 2015+ hours can be
# copied: their every line opens with {"id":"; any other line stops the script with an error.
#
# Then, e.g.: bench/real_hours.sh --real DIR --no-gen
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FROM="$ROOT/../shared/data/gharchive-real/hours"
TO=""
COPIES=4

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --copies) COPIES="$2"; shift 2 ;;
    --from) FROM="$2"; shift 2 ;;
    --to) TO="$2"; shift 2 ;;
    -h|--help) usage ;;
    *) echo "replicate_hours: unknown option $1" >&2; usage 2 ;;
  esac
done
[[ -n "$TO" ]] || { echo "replicate_hours: --to DIR is required" >&2; exit 2; }
[[ "$COPIES" =~ ^[1-9]$ ]] || { echo "replicate_hours: --copies takes 1 to 9" >&2; exit 2; }
mkdir -p "$TO"

shopt -s nullglob
files=("$FROM"/2016-*.json.gz)
[[ "$FROM" != "$ROOT/../shared/data/gharchive-real/hours" ]] && files=("$FROM"/*.json.gz)
[[ ${#files[@]} -gt 0 ]] || { echo "replicate_hours: no .json.gz hours in $FROM" >&2; exit 2; }

for file in "${files[@]}"; do
  name=$(basename "$file")
  if [[ ! "$name" =~ ^([0-9]{4}-[0-9]{2}-[0-9]{2})-([0-9]{1,2})\.json\.gz$ ]]; then
    echo "replicate_hours: $file: not named YYYY-MM-DD-H.json.gz" >&2
    exit 2
  fi
  day=${BASH_REMATCH[1]}
  hour=${BASH_REMATCH[2]}
  bad=$(gzip -dc "$file" | grep -c -v '^{"id":"' || true)
  if [[ "$bad" != 0 ]]; then
    echo "replicate_hours: $file: $bad lines do not open with {\"id\":\" (only 2015+ hours can be copied)" >&2
    exit 2
  fi
  cp "$file" "$TO/$name"
  for ((copy = 2; copy <= COPIES; copy++)); do
    copy_day=$(date -u -d "$day + $((copy - 1)) day" +%Y-%m-%d)
    gzip -dc "$file" | sed "s/^{\"id\":\"/{\"id\":\"$copy/" | gzip -6 > "$TO/$copy_day-$hour.json.gz"
  done
done
echo "replicate_hours: wrote $(( ${#files[@]} * COPIES )) hours to $TO"
