#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang in build-fuzz/ and runs each one.
#
#   tools/fuzz.sh [SECONDS]   # each target for SECONDS (default 60)
#   tools/fuzz.sh --smoke     # each target for 10 s
#
# The whole build uses clang (CC=clang CXX=clang++); the engine libraries get coverage, ASan and
# UBSan (-fsanitize=fuzzer-no-link,address,undefined), the targets libFuzzer's main. Corpora
# live in build-fuzz/corpus/<target> (kept between runs, seeded from generated data and rules/);
# crashes are written to build-fuzz/crashes/<target>/. Exits non-zero if any target crashed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60
case "${1:-}" in
  --smoke) seconds=10 ;;
  "") ;;
  *[!0-9]*) echo "usage: tools/fuzz.sh [SECONDS | --smoke]" >&2; exit 2 ;;
  *) seconds=$1 ;;
esac
targets=(fuzz_event_extractor fuzz_markdown_splitter fuzz_rule_loader fuzz_decoder)

if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  sudo=""; [[ $(id -u) == 0 ]] || sudo=sudo
  $sudo apt-get update -qq
  # Debian 12: clang 14; libFuzzer and the sanitizer runtimes are in libclang-rt-14-dev.
  $sudo apt-get install -y -qq clang libclang-rt-14-dev
fi

start=$(date +%s)
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGHSIFT_FUZZ=ON \
  -DGHSIFT_SANITIZE=fuzzer-no-link,address,undefined -DGHSIFT_BUILD_TESTS=OFF -DGHSIFT_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-fuzz -j2 --target "${targets[@]}"
built=$(date +%s)

# Seeds: a few generated lines (all event kinds), a damaged and whole compressed file of each
# kind, and the project's rules (one seed per rule).
seeds=build-fuzz/seeds
if [[ ! -d $seeds ]]; then
  mkdir -p "$seeds"/{json,gen}
  if [[ -x build/tools/ghsift/ghsift ]]; then
    build/tools/ghsift/ghsift gen --out "$seeds/gen" --hours 1 --events-per-hour 50 --seed 1 --compress none >/dev/null 2>&1 || true
  fi
fi
for t in "${targets[@]}"; do mkdir -p "build-fuzz/corpus/$t" "build-fuzz/crashes/$t"; done
if [[ -z $(ls build-fuzz/corpus/fuzz_event_extractor) && -n $(ls "$seeds"/gen/*.json 2>/dev/null) ]]; then
  split -l 1 -a 4 "$(ls "$seeds"/gen/*.json | head -1)" build-fuzz/corpus/fuzz_event_extractor/line-
  for f in build-fuzz/corpus/fuzz_event_extractor/line-*; do
    # Issue bodies make markdown seeds.
    python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); p=e.get("payload",{}); b=(p.get("issue") or p.get("pull_request") or {}).get("body") or (p.get("comment") or {}).get("body"); b and open(sys.argv[2],"w").write(b)' \
      "$f" "build-fuzz/corpus/fuzz_markdown_splitter/$(basename "$f")" 2>/dev/null || true
  done
  head -c 20000 "$(ls "$seeds"/gen/*.json | head -1)" >"$seeds/plain"
  { printf '\x02'; cat "$seeds/plain"; } >build-fuzz/corpus/fuzz_decoder/plain
  { printf '\x00'; gzip -c "$seeds/plain"; } >build-fuzz/corpus/fuzz_decoder/gz
  { printf '\x01'; zstd -q -c "$seeds/plain"; } >build-fuzz/corpus/fuzz_decoder/zst
  # One seed per rule: the file's header (categories) and that rule alone.
  python3 - rules build-fuzz/corpus/fuzz_rule_loader <<'PY'
import pathlib, re, sys
rules_dir, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for path in sorted(rules_dir.glob("*.yaml")):
    head, _, body = path.read_text().partition("\nrules:\n")
    for i, rule in enumerate(r for r in re.split(r"\n(?=  - id: )", "\n" + body) if r.strip()):
        (out / f"{path.stem}-{i:02d}.yaml").write_text(head + "\nrules:\n" + rule.strip("\n") + "\n")
PY
fi

failed=()
for t in "${targets[@]}"; do
  echo "== $t: ${seconds} s"
  if ! GHSIFT_NO_RULE_CACHE=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      "build-fuzz/fuzz/$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="build-fuzz/crashes/$t/" "build-fuzz/corpus/$t" >"build-fuzz/$t.log" 2>&1; then
    failed+=("$t")
    echo "   CRASH: see build-fuzz/$t.log and build-fuzz/crashes/$t/"
    grep -m3 -E "ERROR|runtime error|SUMMARY" "build-fuzz/$t.log" | sed 's/^/   /'
  fi
  grep -E "^stat::number_of_executed_units|^stat::new_units_added" "build-fuzz/$t.log" | sed 's/^/   /' || true
done
end=$(date +%s)
echo "fuzz.sh: build $((built - start)) s, fuzzing $((end - built)) s; ${#failed[@]} target(s) crashed${failed:+: ${failed[*]}}"
((${#failed[@]} == 0))
