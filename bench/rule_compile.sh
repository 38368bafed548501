#!/usr/bin/env bash
# Lists the rules that take longest to compile on their own: what an edit of that rule costs
# `rules check|eval|tune|explain`, which compile one Hyperscan database per rule and recompile only
# the edited one (the others come from the cache).
#
#   bench/rule_compile.sh [--rules DIR_OR_FILE] [--top N] [--ghsift BIN]
#
# Each rule is written to a file of its own and checked with the cache off
# (GHSIFT_NO_RULE_CACHE=1), so the time is a cold compile of that rule plus the command's start
# (CPU seconds, which the load of a shared machine changes little);
# the start alone (a one-rule file with a trivial pattern) is printed first to read them against.
set -euo pipefail
cd "$(dirname "$0")/.."

rules=rules
top=10
ghsift=build/tools/ghsift/ghsift
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rules) rules=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --ghsift) ghsift=$2; shift 2 ;;
    *) echo "usage: bench/rule_compile.sh [--rules DIR_OR_FILE] [--top N] [--ghsift BIN]" >&2; exit 2 ;;
  esac
done
[[ -x "$ghsift" ]] || { echo "bench/rule_compile.sh: no ghsift at $ghsift (build it first: tools/setup.sh)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One file per rule, with only the keys a rule needs (a category's settings are not needed to
# compile it).
python3 - "$rules" "$work" <<'PY'
import os, sys, yaml
src, out = sys.argv[1], sys.argv[2]
files = [os.path.join(src, f) for f in sorted(os.listdir(src)) if f.endswith((".yaml", ".yml"))] \
    if os.path.isdir(src) else [src]
n = 0
for f in files:
    for rule in (yaml.safe_load(open(f)) or {}).get("rules", []) or []:
        if "pattern" not in rule:
            continue
        one = {k: v for k, v in rule.items() if k in ("id", "tag", "categories", "pattern", "fields", "flags")}
        with open(os.path.join(out, "%04d-%s.yaml" % (n, rule["id"])), "w") as o:
            yaml.safe_dump({"rules": [one]}, o)
        n += 1
with open(os.path.join(out, "start.yaml.base"), "w") as o:
    yaml.safe_dump({"rules": [{"id": "start", "tag": "x", "pattern": "a"}]}, o)
PY

# CPU seconds (user + system), not wall time: on a shared machine the wall time of one compile
# swings with the load, its CPU time hardly.
seconds() {  # seconds FILE: CPU time of a cold `rules check` of one file
  local out
  out=$( { GHSIFT_NO_RULE_CACHE=1 /usr/bin/time -f 'cpu %U %S' "$ghsift" rules check --rules "$1" >/dev/null; } 2>&1 |
        grep '^cpu ' | tail -1)
  echo "$out" | awk '{print $2 + $3}'
}

cp "$work/start.yaml.base" "$work/start.yaml"
start=$(seconds "$work/start.yaml")
rm "$work/start.yaml"
results=$work/times.txt
: >"$results"
total=0
for f in "$work"/*.yaml; do
  s=$(seconds "$f")
  id=$(basename "$f" .yaml); id=${id#*-}
  printf '%.3f %s\n' "$s" "$id" >>"$results"
  total=$(echo "$total + $s" | bc -l)
done
count=$(wc -l <"$results")
printf 'rules: %d; a command start alone: %.3f s CPU; all rules compiled one by one: %.1f s CPU\n' "$count" "$start" "$total"
printf 'slowest %d (CPU seconds of a cold `rules check` of the rule alone, start included):\n' "$top"
sort -rn "$results" | head -n "$top" | awk '{printf "  %7.3f  %s\n", $1, $2}'
